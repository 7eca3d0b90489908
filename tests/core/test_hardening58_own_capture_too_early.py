"""`when: facts.z > 1` in the step whose capture sets z: validation said "only a later step
captures it ('c', step 1)" and hinted "move step 'c' above 'c'". Now it says the fact is the
step's own capture, known only after its command, and where it can be tested."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize("field, line, column", [("when", 4, 11), ("run", 4, 10)])
def test_reading_the_steps_own_capture_before_its_command_names_it(tmp_path: Path, field: str, line: int,
                                                                   column: int) -> None:
    playbook = tmp_path / "own.yaml"
    text = "{{ facts.z }}" if field == "run" else "facts.z is not defined or facts.z > 1"
    other = "run: echo z=3" if field == "when" else "why: reads its own capture"
    playbook.write_text(f"""\
name: own
steps:
  - id: c
    {field}: "{text}"
    {other}
    capture: [{{regex: 'z=(?P<z>\\d+)'}}]
""", encoding="utf-8")
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 2
    assert result.stderr.splitlines() == [
        f"error: {playbook}:{line}:{column}: step 'c' reads facts.z in {field}:, but z is this step's own capture, "
        f"set only after its command ran (at steps[0].{field})",
        "  hint: test it in this step's until: or expect: [{that: ...}], or capture it in an earlier step",
    ]
