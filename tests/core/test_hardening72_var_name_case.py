"""A --var (or a --var-file line) that names a var in another case is told the var it means.

`--var SERVER_LOG=/var/log/sglang.log` (the shell's habit for settings) against a playbook whose
var is `server_log` was refused with the playbook's whole list of vars and no "did you mean":
difflib's ratio of SERVER_LOG to server_log is 0 (no character is equal), so the suggestion
that a typo (`--var modle=...`) gets was never made, and `--var V=1` with a var `v` neither.
The name is now compared case-folded, `-` read as `_`, before the closest spelling is looked for.
Through the real CLI.
"""

from __future__ import annotations

from tests.conftest import run_cli

PLAYBOOK = """\
name: p
vars:
  server_log: /var/log/sglang.log
  baseline_tok_s: 90
  v: x
steps:
  - id: a
    run: echo {{ server_log }} {{ baseline_tok_s }} {{ v }}
"""


def _refused(result) -> str:
    assert result.code == 2, (result.code, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    return " ".join(result.stderr.split())


def test_a_var_in_upper_case_is_told_the_var_it_means(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    said = _refused(run_cli("run", str(playbook), "--host", "local", "--var", "SERVER_LOG=/tmp/x.log", "--out", str(out)))
    assert "--var SERVER_LOG is not a var of playbook 'p'" in said, said
    assert "hint: did you mean server_log? its vars: baseline_tok_s, server_log, v" in said, said
    said = _refused(run_cli("run", str(playbook), "--host", "local", "--var", "V=1", "--out", str(out)))
    assert "hint: did you mean v? its vars: " in said, said
    said = _refused(run_cli("run", str(playbook), "--host", "local", "--var", "Baseline-Tok-S=80", "--out", str(out)))
    assert "hint: did you mean baseline_tok_s? its vars: " in said, said


def test_a_name_like_none_of_them_still_gets_the_list_alone(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    said = _refused(run_cli("run", str(playbook), "--host", "local", "--var", "GPU_COUNT=8", "--out", str(tmp_path / "runs")))
    assert "hint: its vars: baseline_tok_s, server_log, v" in said, said
    assert "did you mean" not in said


def test_a_var_file_line_in_upper_case_is_told_the_var_it_means(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    var_file = tmp_path / "vars.yaml"
    var_file.write_text("baseline_tok_s: 85\nSERVER_LOG: /tmp/x.log\n")
    said = _refused(run_cli("run", str(playbook), "--host", "local", "--var-file", str(var_file), "--out", str(tmp_path / "runs")))
    assert f"{var_file}:2:1: SERVER_LOG is not a var of playbook 'p'" in said, said
    assert "hint: did you mean server_log? its vars: " in said, said
