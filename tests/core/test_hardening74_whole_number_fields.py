"""`retries: 1.5` (or `retries: 2.0`, `exit_code: 1.0`) is refused with the whole number meant.

A count written with a decimal point was refused, rightly, but the hint said "YAML read
retries: as not-a-number", which is YAML's `.nan`, not what the author wrote, and "write it in
digits (e.g. retries: 10)" to an author who had. The hint now names the whole number(s) to
write. `.nan` itself is still said to be not-a-number.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize(("line", "where", "message", "hint"), [
    ("retries: 2.0", "7:14", "Input should be a valid integer (got float 2.0) (at steps[0].retries)",
     "retries is a whole number: write retries: 2"),
    ("retries: 1.5", "7:14", "Input should be a valid integer (got float 1.5) (at steps[0].retries)",
     "retries is a whole number: write retries: 1 or retries: 2"),
    ("retries: 0.5", "7:14", "Input should be a valid integer (got float 0.5) (at steps[0].retries)",
     "retries is a whole number: write retries: 0 or retries: 1"),
    ("retries: .nan", "7:14", "Input should be a valid integer (got float nan) (at steps[0].retries)",
     "YAML read retries: as not-a-number; retries is a number: write it in digits (e.g. retries: 10)"),
])
def test_a_count_with_a_decimal_point_names_the_whole_number(tmp_path: Path, line: str, where: str, message: str,
                                                              hint: str) -> None:
    playbook = tmp_path / "poll.yaml"
    playbook.write_text("name: poll\nsteps:\n  - id: health\n    run: curl -sf localhost:30000/health\n"
                        f"    until: exit_code == 0\n    retry_delay: 5\n    {line}\n", encoding="utf-8")
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 2
    assert result.stderr.splitlines()[:2] == [f"error: {playbook}:{where}: {message}", f"  hint: {hint}"]
