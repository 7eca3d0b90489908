"""`spec-debug report` on a run.json cut off while it was copied (or written to a full disk):
cut inside a string it said "the file ends early"; cut inside a `\\u001b` escape (the ESC of
every colored log line a step printed, which run.json keeps escaped) it said only "run.json is
not valid JSON: Invalid \\uXXXX escape", with no hint, and the user looked for a corrupt byte.
It now gives the same hint. A real run of a step that prints a colored line, its run.json cut
at each point inside the escape."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1", "COLUMNS": "250"}


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("run")
    (where / "p.yaml").write_text("name: p\nsteps:\n  - id: s\n    run: printf '\\033[32mready\\033[0m\\n'\n")
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "-o", "runs"],
                          capture_output=True, text=True, cwd=where, timeout=120, env=ENV)
    assert proc.returncode == 0, proc.stderr
    return next((where / "runs").glob("*/run.json"))


@pytest.mark.parametrize("kept", [2, 3, 4, 5])  # "\u", "\u0", "\u00", "\u001"
def test_a_record_cut_inside_an_escape_is_told_as_cut_off(record: Path, tmp_path: Path, kept: int) -> None:
    text = record.read_text()
    at = text.index("\\u001b[32mready")
    (tmp_path / "run.json").write_text(text[:at + kept])
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "report", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, env=ENV)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert "run.json is not valid JSON" in lines[0], lines
    assert lines[-1] == "  hint: the file ends early: it was cut off (copied while written, or a full disk)", lines
