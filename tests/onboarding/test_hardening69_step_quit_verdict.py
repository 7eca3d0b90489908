"""`run --step` (and `demo --step`) answered s, then q: the last line said "ABORTED: 0 error(s) ·
nothing was checked: every step was skipped", of a run whose later steps never came up (the
record holds the steps reached; the demo's playbook has nine). It now says how many were skipped
before the run stopped; a run that went through with every step skipped still says every step."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

PLAYBOOK = """\
name: three
steps:
  - id: first
    run: echo one
  - id: second
    run: echo two
  - id: third
    run: echo three
"""


def _step(tmp_path, answers: str) -> tuple[int, str, dict]:
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "--step"],
                          capture_output=True, text=True, cwd=tmp_path, input=answers,
                          timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})
    record = json.loads((next((tmp_path / "runs").iterdir()) / "run.json").read_text())
    said = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", proc.stdout + proc.stderr)
    return proc.returncode, said, record


def _verdict(said: str) -> str:
    return next(line for line in said.splitlines() if line.startswith(("ABORTED:", "PASSED:", "FAILED:")))


def test_skip_then_quit_says_one_step_was_skipped_before_the_stop(tmp_path):
    code, said, record = _step(tmp_path, "s\nq\n")
    assert code == 3, said
    assert [(s["id"], s["status"]) for s in record["steps"]] == [("first", "skipped")]
    assert _verdict(said).startswith("ABORTED: 0 error(s), 0 warning(s) · nothing was checked: "
                                     "1 step skipped, then the run stopped · report: "), said
    assert "every step was skipped" not in said


def test_two_skips_then_quit(tmp_path):
    code, said, record = _step(tmp_path, "s\ns\nq\n")
    assert code == 3, said
    assert len(record["steps"]) == 2
    assert " · nothing was checked: 2 step(s) skipped, then the run stopped · " in _verdict(said)


def test_every_step_skipped_to_the_end_still_says_every_step(tmp_path):
    code, said, record = _step(tmp_path, "s\ns\ns\n")
    assert code == 0, said
    assert len(record["steps"]) == 3
    assert " · nothing was checked: every step was skipped · " in _verdict(said)
