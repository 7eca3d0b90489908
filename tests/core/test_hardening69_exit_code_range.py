"""An expected exit code no command can report is refused when the playbook loads.

`expect: [{exit_code: -9}]` (Python's returncode for a command killed by SIGKILL) loaded, and
the step then failed on every host with "expected exit code -9, observed exit code 137": this
runner, a shell and ssh report a signal N as 128 + N. `exit_code: 256` or `300` failed the same
way: a parent sees only the low 8 bits of a status (POSIX exit(): status & 0377), so 0 to 255.
"""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

PLAYBOOK = "name: t\nsteps:\n  - id: oom\n    run: python3 train.py\n    expect:\n      - exit_code: {code}\n"


@pytest.mark.parametrize(("code", "said", "hint"), [
    ("-9", "exit code -9", "a command killed by signal 9 exits 137 (Python's returncode says -9): write exit_code: 137"),
    ("-15", "exit code -15", "a command killed by signal 15 exits 143 (Python's returncode says -15): write exit_code: 143"),
    ("300", "exit code 300",
     "only the low 8 bits of a status reach the caller (exit 300 is seen as 44): write exit_code: 44"),
    ("[0, 256]", "exit code 256",
     "only the low 8 bits of a status reach the caller (exit 256 is seen as 0): write exit_code: 0"),
    ("-1000", "exit code -1000", "write a code from 0 to 255 (a command killed by signal N exits 128 + N)"),
])
def test_an_exit_code_never_reported_is_refused_with_the_one_to_write(tmp_path, code, said, hint):
    (tmp_path / "p.yaml").write_text(PLAYBOOK.format(code=code))
    result = run_cli("playbooks", "validate", str(tmp_path / "p.yaml"))
    assert result.code == 2, result.stdout + result.stderr  # was 0: "ok (1 step)"
    lines = result.stderr.splitlines()
    assert lines[0] == (f"error: {tmp_path / 'p.yaml'}:6:20: {said} is never observed: an exit status is 0 to 255 "
                        "(at steps[0].expect[0].exit_code)"), result.stderr
    assert lines[1] == f"  hint: {hint}", result.stderr


@pytest.mark.parametrize("code", ["0", "137", "255", "[0, 1]", "[2, 130]"])
def test_the_codes_a_command_can_report_still_load(tmp_path, code):
    (tmp_path / "p.yaml").write_text(PLAYBOOK.format(code=code))
    result = run_cli("playbooks", "validate", str(tmp_path / "p.yaml"))
    assert result.code == 0, result.stderr
