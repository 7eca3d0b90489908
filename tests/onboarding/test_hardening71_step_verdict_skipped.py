"""`run --step`: the closing verdict did not name the steps the user skipped at the prompt
("PASSED: 0 error(s), 0 warning(s) · report: ..." over a run whose second step never ran),
where `demo --step` lists them under its verdict ("  skipped (your choice): configs"). It now
does, as the demo; a step skipped by its `when:` is not the user's choice and is not listed."""

from __future__ import annotations

import os
import re
import subprocess
import sys

PLAYBOOK = """\
name: four
steps:
  - id: first
    run: echo one
  - id: second
    run: echo two
  - id: third
    when: "false"
    run: echo three
  - id: fourth
    run: echo four
"""


def _said(tmp_path, answers: str) -> list[str]:
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "--step"],
                          capture_output=True, text=True, cwd=tmp_path, input=answers, timeout=120,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", proc.stdout + proc.stderr).splitlines()


def _after_verdict(lines: list[str]) -> list[str]:
    at = next(i for i, line in enumerate(lines) if line.startswith(("ABORTED:", "PASSED:", "FAILED:")))
    return lines[at + 1:]


def test_the_verdict_names_the_skipped_steps(tmp_path):
    lines = _said(tmp_path, "r\ns\ns\n")
    assert _after_verdict(lines) == ["  skipped (your choice): second, fourth"], lines


def test_skipped_then_quit(tmp_path):
    lines = _said(tmp_path, "s\nq\n")
    # quitting at `second` leaves it and the steps after it unrun, and the run says which
    # (runcore20's "not reached" line; this pin predates it)
    assert _after_verdict(lines) == ["  skipped (your choice): first", "  not reached: second, third, fourth"], lines


def test_nothing_skipped_says_nothing_more(tmp_path):
    lines = _said(tmp_path, "r\nr\nr\n")
    assert _after_verdict(lines) == [], lines
