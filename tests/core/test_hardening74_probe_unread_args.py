"""A probe argument spelt like none the probe reads is refused, not dropped.

hardening73 refused a misspelt probe argument (`draft_modle`) but left a key spelt like no
argument alone, as the author's own. The probe never read it either: `probe: model_configs`
with `with: {checkpoint: /ckpt/eagle3, target_model: /models/llama}` (the name the training
tool gave it) ran without the checkpoint, said "SD004 Not checked: --var draft_model=DIR" to an
author who had given it, and the run PASSED, exit 0. Every
probe declares the keys it reads (ProbeSpec.args), so any other key is now refused where it
is written, before any host, with the arguments the probe takes.
"""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli

PLAYBOOK = """\
name: drafter_configs
vars:
  draft: /ckpt/eagle3
  target: /models/llama
steps:
  - id: configs
    probe: model_configs
    with:
      checkpoint: "{{ draft }}"
      target_model: "{{ target }}"
"""


def test_an_argument_the_probe_never_reads_is_refused_with_those_it_takes(tmp_path: Path) -> None:
    playbook = tmp_path / "configs.yaml"
    playbook.write_text(PLAYBOOK, encoding="utf-8")
    validated = run_cli("playbooks", "validate", str(playbook))
    assert validated.code == 2
    assert validated.stderr.splitlines()[:2] == [
        f"error: {playbook}:9:7: probe 'model_configs' takes no argument 'checkpoint' in step 'configs' "
        "(at steps[0].with.checkpoint)",
        "  hint: model_configs takes draft_model, python, target_model; it never reads 'checkpoint' "
        "(a note of your own goes in the step's why:)",
    ]
    ran = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"))
    assert ran.code == 2 and not (tmp_path / "runs").exists()  # was: run, SD004 "Not checked", PASSED


def test_the_arguments_it_reads_still_load(tmp_path: Path) -> None:
    playbook = tmp_path / "configs.yaml"
    playbook.write_text(PLAYBOOK.replace("checkpoint", "draft_model"), encoding="utf-8")
    validated = run_cli("playbooks", "validate", str(playbook))
    assert (validated.code, validated.stdout.strip()) == (0, f"ok {playbook} (1 step)")
