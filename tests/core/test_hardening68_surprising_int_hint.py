"""A whole number YAML 1.1 reads in another form (`timeout: 1_000`, `port: 0x10`, `mode: 0777`) is
refused at load, as before, with the number it is read as in the hint.

The hint said "quote it ("1_000") if you mean the text, or write the decimal number" without the
number: for `timeout:` (a number field) quoting is no fix at all, and for `0x1F_FF` or `0777` the
author had to work out 8191 or 511 by hand. The message already named the number."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize(("line", "written", "number", "at"), [
    ("    timeout: 1_000\n", "1_000", 1000, "steps[0].timeout"),
    ("    retries: 0x10\n    until: exit_code == 0\n", "0x10", 16, "steps[0].retries"),
])
def test_a_step_number_in_another_form_gets_its_decimal_in_the_hint(tmp_path, line, written, number, at):
    playbook = tmp_path / "f.yaml"
    playbook.write_text("name: f\nsteps:\n  - id: a\n    run: echo hi\n" + line)
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 2, result.stdout + result.stderr
    said = " ".join(result.stderr.split())
    assert f"'{written}' would be read as the number {number} (at {at})" in said, said
    assert said.endswith(f'hint: write {number} if you mean the number, or quote it ("{written}") if you mean the text'), said


def test_a_var_in_octal_gets_its_decimal_in_the_hint(tmp_path):
    playbook = tmp_path / "f.yaml"
    playbook.write_text("name: f\nvars:\n  mode: 0777\nsteps:\n  - id: a\n    run: chmod {{ mode }} x\n")
    result = run_cli("playbooks", "validate", str(playbook))
    said = " ".join(result.stderr.split())
    assert said.endswith('hint: write 511 if you mean the number, or quote it ("0777") if you mean the text'), said
