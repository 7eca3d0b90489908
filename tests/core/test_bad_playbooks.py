"""A bad playbook gives exit 2 and one message with file, line and column."""

from __future__ import annotations

import re

import pytest

from tests.conftest import run_cli

CASES = {
    "yaml_syntax": ("name: x\nsteps:\n  - id: a\n    run: [echo\n", r":4:10: YAML syntax error"),
    "unknown_key": ("name: x\nsteps:\n  - id: a\n    rnu: echo hi\n", r":4:5: unknown key 'rnu'.*\n.*did you mean 'run'"),
    "wrong_type": ("name: x\nsteps:\n  - id: a\n    run: echo\n    timeout: soon\n", r":5:14: .*valid number"),
    "undefined_var": ("name: x\nvars:\n  model: m\nsteps:\n  - id: a\n    run: echo {{ modle }}\n", r":6:10: undefined variable 'modle' in step 'a'.*\n.*did you mean 'model'"),
    "yaml11_boolean": ("name: x\nsteps:\n  - id: a\n    run: echo\n    on_failure: no\n", r":5:17: 'no' is a YAML 1.1 boolean"),
    "yaml11_octal": ("name: x\nvars:\n  mode: 0777\nsteps:\n  - id: a\n    run: echo\n", r":3:9: '0777' would be read as the number 511"),
    "two_actions": ("name: x\nsteps:\n  - id: a\n    run: echo\n    probe: host_info\n", r":3:5: a step needs exactly one action"),
    "duplicate_key": ("name: x\nsteps:\n  - id: a\n    run: echo\n    run: echo\n", r":5:5: duplicate key 'run'"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_playbook_exit_2_with_line_and_column(tmp_path, case):
    text, expected = CASES[case]
    path = tmp_path / f"{case}.yaml"
    path.write_text(text)
    for command in (["run", str(path), "--host", "local", "--out", str(tmp_path / "runs")], ["playbooks", "validate", str(path)]):
        result = run_cli(*command)
        assert result.code == 2, (case, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr
        assert str(path) in result.stderr
        assert re.search(expected, result.stderr), result.stderr
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_undefined_fact_at_run_time_names_variable_and_step(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text("name: x\nsteps:\n  - id: uses_fact\n    run: echo {{ facts.nothing_here }}\n")
    out = tmp_path / "runs"
    run_cli("run", str(path), "--host", "local", "--out", str(out))
    import json

    [run_dir] = list(out.iterdir())
    record = json.loads((run_dir / "run.json").read_text())
    message = record["steps"][0]["message"]
    assert "uses_fact" in message and "nothing_here" in message


def test_a_directory_is_not_a_playbook_but_a_shipped_name_still_wins(tmp_path):
    (tmp_path / "perf_regression").mkdir()
    assert run_cli("playbooks", "validate", "perf_regression", cwd=tmp_path).code == 0
    folder = run_cli("run", str(tmp_path), "--host", "local", "--out", str(tmp_path / "runs"))
    assert folder.code == 2 and "is a directory" in folder.stderr
