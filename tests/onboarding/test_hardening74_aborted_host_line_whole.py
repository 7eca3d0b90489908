"""`spec-debug run PLAYBOOK --host local --step < /dev/null` in a CI log (80 columns, not a
terminal) printed "host local aborted before its first step: stdin closed at the step-through"
and "prompt" on the next line: the line saying why a host stopped was folded where the host's
error line is not, so a grep for the host found half of it. It is one line now."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
import os


def test_the_aborted_host_line_is_one_line_at_80_columns(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text("name: p\nsteps:\n  - id: s1\n    run: echo hi\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "--step", "-o", "runs"],
                          capture_output=True, text=True, cwd=tmp_path, stdin=subprocess.DEVNULL, timeout=120,
                          env={**os.environ, "COLUMNS": "80", "NO_COLOR": "1", "TERM": "dumb"})
    assert proc.returncode == 3, proc.stderr
    lines = proc.stderr.splitlines()
    assert "host local aborted before its first step: stdin closed at the step-through prompt" in lines, lines
