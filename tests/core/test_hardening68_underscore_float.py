"""A float written with `_` digit separators (`f: 1_000.5`) is refused at load as `1_000` is.

YAML 1.1 (PyYAML) reads `1_000` as 1000 and `1_000.5` as 1000.5; YAML 1.2 and most other readers
(a YAML 1.2 linter, Go's yaml.v3 for the same file) read both as text. The loader refused the
whole number at file:line:column naming 1000, and took the float silently: `timeout: 1_000.5`
validated ok, `f: 1_000.5` in vars and in a --var-file became 1000.5 unsaid. Both forms are now
refused with the number named, in a playbook and in a --var-file alike.
"""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize(("line", "written", "number", "at", "column"), [
    ("    timeout: 1_000.5\n", "1_000.5", "1000.5", "steps[0].timeout", 14),
    ("    timeout: +2_5.0\n", "+2_5.0", "25.0", "steps[0].timeout", 14),
])
def test_a_step_float_with_underscores_is_refused_naming_the_number(tmp_path, line, written, number, at, column):
    playbook = tmp_path / "f.yaml"
    playbook.write_text("name: f\nsteps:\n  - id: a\n    run: echo hi\n" + line)
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 2, result.stdout + result.stderr
    said = " ".join(result.stderr.split())
    assert f"f.yaml:5:{column}: '{written}' would be read as the number {number} (at {at})" in said, said
    assert said.endswith(f'hint: write {number} if you mean the number, or quote it ("{written}") if you mean the text'), said


def test_a_var_float_with_underscores_is_refused(tmp_path):
    playbook = tmp_path / "f.yaml"
    playbook.write_text("name: f\nvars:\n  f: 1_000.5\nsteps:\n  - id: a\n    run: echo {{ f }}\n")
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 2, result.stdout + result.stderr
    said = " ".join(result.stderr.split())
    assert "f.yaml:3:6: '1_000.5' would be read as the number 1000.5 (at vars.f)" in said, said


def test_a_var_file_float_with_underscores_is_refused_as_its_int_is(tmp_path):
    playbook = tmp_path / "f.yaml"
    playbook.write_text("name: f\nvars:\n  f: 2.5\nsteps:\n  - id: a\n    run: echo {{ f }}\n")
    said = {}
    for written in ("1_000", "1_000.5"):
        var_file = tmp_path / "v.yaml"
        var_file.write_text(f"f: {written}\n")
        result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--var-file", str(var_file))
        assert result.code == 2, result.stdout + result.stderr
        said[written] = " ".join(result.stderr.split())
        assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())
    assert "v.yaml:1:4: '1_000' would be read as the number 1000 (at f)" in said["1_000"], said
    assert "v.yaml:1:4: '1_000.5' would be read as the number 1000.5 (at f)" in said["1_000.5"], said


def test_plain_floats_still_load(tmp_path):
    playbook = tmp_path / "f.yaml"
    playbook.write_text("name: f\nvars:\n  f: 1000.5\nsteps:\n  - id: a\n    run: echo {{ f }}\n    timeout: 2.5\n")
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 0, result.stdout + result.stderr
