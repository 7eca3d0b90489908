"""A var file that holds a var the playbook does not declare (one file of cluster settings
shared by several playbooks, or a typo in it) was refused as "--var modle is not a var of
playbook 'p'", naming the playbook file: the user had passed no --var and looked in the wrong
file. The refusal now names the var file, the line and the column."""

from __future__ import annotations

from tests.conftest import run_cli

PLAYBOOK = "name: p\nvars:\n  model: m\n  python: python3\nsteps:\n  - id: a\n    run: echo {{ model }}\n"


def test_unknown_var_in_var_file_is_reported_at_its_line(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    var_file = tmp_path / "cluster.yaml"
    var_file.write_text("python: /opt/venv/bin/python\n# the model\nmodle: /models/x\n")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--var-file", str(var_file))
    assert result.code == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert f"{var_file}:3:1: modle is not a var of playbook 'p'" in result.stderr, result.stderr
    assert "did you mean model?" in result.stderr
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_known_vars_from_file_and_cli_still_run_with_cli_winning(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    var_file = tmp_path / "cluster.yaml"
    var_file.write_text("model: from_file\npython: py_file\n")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"),
                     "--var-file", str(var_file), "--var", "model=from_cli", "--json")
    assert result.code == 0, result.stderr
    import json

    record = json.loads(result.stdout)
    assert record["vars"] == {"model": "from_cli", "python": "py_file"}
    assert record["steps"][0]["stdout"].strip() == "from_cli"


def test_unknown_var_given_with_var_still_names_var(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--var", "modle=x")
    assert result.code == 2 and "--var modle is not a var of playbook 'p'" in result.stderr, result.stderr
