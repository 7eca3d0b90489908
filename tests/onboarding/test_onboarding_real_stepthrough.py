"""`run --step` with the inputs people really give it: Ctrl-C at the prompt, answers piped in
(a CI job, `yes r | ...`), a closed stdin, a `run: |` block of several lines."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.onboarding.test_stepthrough import PtySession

REPO = Path(__file__).resolve().parents[2]

PLAYBOOK = """
name: walk
steps:
  - id: first
    title: First look
    why: Shows the engine version.
    run: |
      echo first-ran
      echo second-line-of-first
  - id: second
    title: Second look
    run: echo second-ran
"""


def _env() -> dict[str, str]:
    # The subprocess must import this checkout, whatever the editable install points at.
    return {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "120"}


def _args(playbook: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--step", "--out", str(out)]


@pytest.mark.parametrize(("signum", "reason"), [(signal.SIGINT, "Ctrl-C"), (signal.SIGTERM, "SIGTERM")])
def test_ctrl_c_at_the_prompt_stops_the_run(tmp_path, monkeypatch, signum, reason):
    # Before: the prompt waited in a host thread in readline(); Ctrl-C reached the main
    # thread, which then waited for that host forever: the run hung until Enter was pressed.
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    playbook = tmp_path / "walk.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    session = PtySession(_args(playbook, out), tmp_path)
    try:
        session.expect("quit (q)?")
        session.proc.send_signal(signum)
        code = session.wait(timeout=20)
    finally:
        if session.proc.poll() is None:
            session.proc.kill()
    assert code == 3
    [run_dir] = list(out.iterdir())
    record = json.loads((run_dir / "run.json").read_text())
    assert record["status"] == "aborted"
    assert reason in record["abort_reason"]
    assert record["steps"] == []


def test_piped_answers_and_end_of_input(tmp_path):
    playbook = tmp_path / "walk.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    # An unknown answer, then "r", all in one write; then stdin closes at the second prompt.
    proc = subprocess.run(_args(playbook, out), input="maybe\nr\n", capture_output=True, text=True, timeout=60, check=False,
                          cwd=tmp_path, env=_env())
    assert proc.returncode == 3, proc.stderr
    screen = proc.stdout + proc.stderr  # the conversation is on stderr
    assert "please answer r, s or q (got 'maybe')" in screen
    # Every line of a `run: |` block is shown indented under the header, not only the first.
    assert "  echo first-ran" in screen and "  echo second-line-of-first" in screen
    # Before: the run ended ABORTED with no word on why.
    assert "end of input (stdin closed)" in screen
    [run_dir] = list(out.iterdir())
    record = json.loads((run_dir / "run.json").read_text())
    assert {s["id"]: s["status"] for s in record["steps"]} == {"first": "passed"}
    assert record["steps"][0]["stdout"] == "first-ran\nsecond-line-of-first\n"
