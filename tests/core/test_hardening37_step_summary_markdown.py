"""$GITHUB_STEP_SUMMARY is Markdown that GitHub renders: its texts are made as report.md's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PLAYBOOK = """\
name: gh
steps:
  - id: health
    run: echo starting
    expect:
      - matches: ".*ready_now.*"
      - contains: "<ready>"
"""


def test_an_expectation_quoted_in_a_title_is_shown_as_written_not_as_markup(tmp_path):
    (tmp_path / "gh.yaml").write_text(PLAYBOOK)
    summary = tmp_path / "summary.md"
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "GITHUB_STEP_SUMMARY": str(summary)}
    done = subprocess.run([sys.executable, "-m", "spec_debug", "run", "gh.yaml", "--host", "local", "--out", "runs"],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert done.returncode == 1, done.stderr
    text = summary.read_text()
    [row] = [line for line in text.splitlines() if line.startswith("| :x:")]
    # Before: `/.*ready_now.*/` rendered "ready_now." in italics with its stars gone, and GitHub
    # dropped `<ready>` as an unknown HTML tag ("contains '', observed not found").
    assert "/.\\*ready_now.\\*/" in row and "'\\<ready>'" in row, row
    verdict = text.splitlines()[2]
    assert verdict.startswith("1 error finding(s): SD001") and "'\\<ready>'" in verdict, text
    # as report.md writes the same title
    [report] = list((tmp_path / "runs").glob("*/report.md"))
    assert "/.\\*ready_now.\\*/" in report.read_text()
