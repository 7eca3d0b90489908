"""A misspelt --var is refused with the name the user meant.

`--var modle=...` would run with the playbook's default model, the one the user meant to
replace; the run is refused, and the hint now names the close var rather than only listing all.
"""

from __future__ import annotations

from tests.conftest import run_cli

PLAYBOOK = """\
name: serve
vars:
  model: meta-llama/Llama-3.1-8B-Instruct
  draft_model: ""
  port: 30000
steps:
  - id: show
    run: echo {{ model }}
"""


def test_a_misspelt_var_is_refused_with_did_you_mean(tmp_path, write_playbook):
    playbook = write_playbook(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--var", "modle=Qwen/Qwen3-8B",
                     "--out", str(tmp_path / "runs"), timeout=60)
    assert result.code == 2
    message = " ".join(result.stderr.split())
    assert "--var modle is not a var of playbook 'serve'" in message
    assert "hint: did you mean model? its vars: draft_model, model, port" in message
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_a_var_with_no_close_name_lists_the_vars(tmp_path, write_playbook):
    playbook = write_playbook(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--var", "tp_size=8",
                     "--out", str(tmp_path / "runs"), timeout=60)
    assert result.code == 2
    assert "hint: its vars: draft_model, model, port" in " ".join(result.stderr.split())
