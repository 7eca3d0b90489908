"""`timeout: "10:00"` (quoted: unquoted, the loader refuses 10:00 as YAML 1.1's base-60 number
600 and asks for it quoted if text was meant) was refused with "timeout is a number: write it in
digits, without quotes (e.g. timeout: 10)", which did not say which number the clock time is.
The hint now gives the seconds: h:mm:ss has one reading, m:ss or h:mm two, both said. Real
`spec-debug run --host local` runs of the playbook."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _refused(tmp_path: Path, line: str) -> list[str]:
    (tmp_path / "p.yaml").write_text(f"name: e\nsteps:\n  - id: s\n    run: echo hi\n    {line}\n")
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1", "COLUMNS": "250"}
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "-o", "runs"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120, env=env)
    assert proc.returncode == 2, proc.stderr
    assert not (tmp_path / "runs").exists()
    return proc.stderr.strip().splitlines()


@pytest.mark.parametrize(("line", "hint"), [
    ("timeout: '10:00'", "timeout is a number of seconds: write timeout: 600 (10:00 as minutes:seconds) "
                         "or 36000 (as hours:minutes)"),
    ("retry_delay: \"0:00:30\"", "retry_delay is a number of seconds: write retry_delay: 30"),
    ("timeout: '1:30:00'", "timeout is a number of seconds: write timeout: 5400"),
])
def test_a_clock_time_is_told_in_seconds(tmp_path: Path, line: str, hint: str) -> None:
    assert _refused(tmp_path, line)[-1] == f"  hint: {hint}"


def test_not_a_clock_time_keeps_its_hint(tmp_path: Path) -> None:
    assert _refused(tmp_path, "timeout: '1:75'")[-1] == "  hint: timeout is a number: write it in digits, without quotes (e.g. timeout: 10)"
