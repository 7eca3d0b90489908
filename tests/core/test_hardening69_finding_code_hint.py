"""A finding code of the wrong form is refused with the form to write, not a bare regex.

`code: SD-101` (as a ticket writes it), `code: 'SD 101'`, `code: SD1011` or a team's own
`code: GPU0001` were refused with "String should match pattern '^[A-Z]{2,4}\\d{3}$'" and no
hint: a regex to decode where every other refusal of a playbook says what to write. Only a
lower-case code had one ("a finding code is upper case").
"""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

FORM = "a finding code is 2 to 4 capital letters and 3 digits (SD101; a playbook's own, e.g. GPU101)"


@pytest.mark.parametrize(("code", "hint"), [
    ("SD-101", f"{FORM}: code: SD101"),
    ("'SD 101'", f"{FORM}: code: SD101"),
    ("sd_101", f"{FORM}: code: SD101"),
    ("SD1011", FORM),
    ("GPU0001", FORM),
])
def test_a_finding_code_of_the_wrong_form_gets_the_form_to_write(tmp_path, code, hint):
    (tmp_path / "p.yaml").write_text(f"name: t\nsteps:\n  - id: a\n    run: echo hi\n    findings:\n      - code: {code}\n")
    result = run_cli("playbooks", "validate", str(tmp_path / "p.yaml"))
    assert result.code == 2, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == (f"error: {tmp_path / 'p.yaml'}:6:15: String should match pattern '^[A-Z]{{2,4}}\\d{{3}}$' "
                        "(at steps[0].findings[0].code)"), result.stderr
    assert lines[1] == f"  hint: {hint}", result.stderr  # was no hint


def test_a_lower_case_code_keeps_its_own_hint(tmp_path):
    (tmp_path / "p.yaml").write_text("name: t\nsteps:\n  - id: a\n    run: echo hi\n    findings:\n      - code: sd101\n")
    result = run_cli("playbooks", "validate", str(tmp_path / "p.yaml"))
    assert result.stderr.splitlines()[1] == "  hint: a finding code is upper case: code: SD101", result.stderr
