"""`run --step` in a narrow terminal (a tmux split, a phone's SSH client): the step's title is
the first thing a newcomer reads about it, and rich cuts a panel's title to the panel's width.
"First look at the engine version and a very long title" showed as "first: First look at
the engine ver" at 40 columns; now a title that does not fit is shown whole inside the panel."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PLAYBOOK = """
name: walk
steps:
  - id: first
    title: First look at the engine version and what it serves
    why: Shows the engine version.
    run: echo first-ran
  - id: second
    title: Short
    run: echo second-ran
"""


def _walk(tmp_path: Path, columns: int) -> str:
    playbook = tmp_path / "walk.yaml"
    playbook.write_text(PLAYBOOK)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--step",
                           "--out", str(tmp_path / "runs")], input="r\nr\n", capture_output=True, text=True,
                          timeout=60, check=False, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": str(columns), "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout + proc.stderr


def _words(screen: str) -> str:
    """The screen's text with box drawing and line breaks read as spaces."""
    return " ".join(re.sub(r"[\u2500-\u257f]", " ", screen).split())


def test_a_long_title_is_shown_whole_in_a_narrow_terminal(tmp_path):
    screen = _walk(tmp_path, 40)
    assert "First look at the engine version and what it serves" in _words(screen)
    assert "Short" in screen
    assert all(len(line) <= 40 for line in screen.splitlines() if "\u2502" in line)


def test_a_title_that_fits_stays_in_the_panel_border(tmp_path):
    screen = _walk(tmp_path, 120)
    border = next(line for line in screen.splitlines() if "first:" in line)
    assert "first: First look at the engine version and what it serves" in border
    assert screen.count("First look at the engine version") == 1
