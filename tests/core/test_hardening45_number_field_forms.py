"""`timeout: .inf` (no limit, as YAML spells infinity) and `timeout: true` (a timeout wanted, its
length left out) were refused with the line and column but no hint: the author was not told
what a timeout takes, nor how to have no limit. Each now names what YAML read and the forms the
field takes; retry_delay and an integer field read as a boolean alike."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

TIMEOUT_FORMS = ("timeout is a number of seconds above 0 (e.g. timeout: 300, or 1.5); "
                 "for no time limit, leave timeout: out of the step")


@pytest.mark.parametrize(("line", "where", "message", "hint"), [
    ("timeout: .inf", "5:14", "Input should be a finite number (at steps[0].timeout)",
     f"YAML read timeout: as infinity; {TIMEOUT_FORMS}"),
    ("timeout: .nan", "5:14", "Input should be a finite number (at steps[0].timeout)",
     f"YAML read timeout: as not-a-number; {TIMEOUT_FORMS}"),
    ("timeout: true", "5:14", "Input should be a valid number (got bool True) (at steps[0].timeout)",
     f"YAML read timeout: as a boolean; {TIMEOUT_FORMS}"),
    ("retry_delay: .inf", "5:18", "Input should be a finite number (at steps[0].retry_delay)",
     "YAML read retry_delay: as infinity; retry_delay is a number of seconds, 0 or more (e.g. retry_delay: 5)"),
    ("retries: true", "5:14", "Input should be a valid integer (got bool True) (at steps[0].retries)",
     "YAML read retries: as a boolean; retries is a number: write it in digits (e.g. retries: 10)"),
])
def test_a_number_field_read_as_infinity_or_a_boolean_names_its_forms(tmp_path, line, where, message, hint):
    path = tmp_path / "p.yaml"
    path.write_text(f"name: to\nsteps:\n  - id: s\n    run: echo hi\n    {line}\n")
    for command in (["run", str(path), "--host", "local", "--out", str(tmp_path / "runs")], ["playbooks", "validate", str(path)]):
        result = run_cli(*command)
        assert result.code == 2, (result.stdout, result.stderr)
        assert f"{path}:{where}: {message}" in result.stderr, result.stderr
        assert f"hint: {hint}" in result.stderr, result.stderr
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize(("line", "where", "hint"), [
    ("timeout: no", "5:14", TIMEOUT_FORMS),
    ("retries: yes", "5:14", "retries is a number: write it in digits (e.g. retries: 10)"),
])
def test_a_yaml11_boolean_word_in_a_number_field_names_its_forms(tmp_path, line, where, hint):
    """`timeout: no` (no limit): the hint said to write true/false or to quote it, and neither is a
    timeout. A var holding `yes` keeps that hint: a var may be text or a boolean."""
    path = tmp_path / "p.yaml"
    path.write_text(f"name: to\nsteps:\n  - id: s\n    run: echo hi\n    {line}\n")
    result = run_cli("playbooks", "validate", str(path))
    assert result.code == 2, (result.stdout, result.stderr)
    raw = line.split(": ")[1]
    assert f"{path}:{where}: {raw!r} is a YAML 1.1 boolean, not the string it looks like" in result.stderr, result.stderr
    assert f"hint: {hint}" in result.stderr, result.stderr
    path.write_text("name: to\nvars:\n  timeout: yes\nsteps:\n  - id: s\n    run: echo hi\n")
    result = run_cli("playbooks", "validate", str(path))
    assert "hint: write true/false for a boolean, or quote it (\"yes\") for a string" in result.stderr, result.stderr
