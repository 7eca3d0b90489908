"""A drafter probe that fails on the host with one of our errors carrying a hint (hidden-state
samples that are git-lfs pointers: "run `git lfs pull` in the checkpoint repository").
The runner's SD003 glued the hint into its evidence as a second line ("...\n  hint: ...") and
its fix was the catalog's generic "Fix the cause named in the evidence"; a checker's own
error (SpecDebugError raised while reading the probe's output) lost its hint altogether. The
probe's bundle now sends the hint apart, and SD003's fix starts with it. The world is saved
by speculators 0.9.0 (tests/eagle3/speculators_world.py), its hidden-state samples then swapped
for the pointer file git-lfs leaves when `git lfs pull` was not run."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.speculators_world import save_informative_world  # noqa: E402
from tests.ssh.test_fleet_faults import load_run  # noqa: E402

POINTER = "version https://git-lfs.github.com/spec/v1\noid sha256:{}\nsize 123456\n".format("0" * 64)


def test_a_probe_errors_hint_is_the_sd003_fix(cli, tmp_path):
    root = save_informative_world(tmp_path / "w", seed=0)
    # in the hidden states, not the draft: a draft weight file the engines cannot read is the
    # eval step's SD710 now (test_hardening70_lfs_pointer_draft.py), no probe failure
    for sample in (root / "data").glob("*.safetensors"):
        sample.write_text(POINTER)
    out = tmp_path / "runs"
    result = cli("run", "drafter_accuracy", "--host", "local", "--out", str(out),
                 "--var", f"draft_model={root / 'draft'}", "--var", f"hidden_states={root / 'data'}",
                 cwd=tmp_path, timeout=300)
    said = result.stdout + result.stderr
    assert "hint: run `git lfs pull`" in said, said  # the step's line keeps it
    _, record = load_run(out)
    [finding] = [f for f in record["findings"] if f["code"] == "SD003"]
    assert "a git-lfs pointer, not the weights" in finding["evidence"][0], finding
    assert "hint:" not in finding["evidence"][0], finding
    assert finding["remediation"].startswith("Run `git lfs pull` in the checkpoint repository. Fix the cause"), finding
