"""`spec-debug demo --step` on a real terminal, as the README's "New engineer" story runs it."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from tests.onboarding.test_stepthrough import PtySession

REPO = Path(__file__).resolve().parents[2]


def test_demo_step_on_a_terminal_shows_the_prompt_not_a_spinner_over_it(tmp_path, monkeypatch):
    # Before: demo built its ConsoleReporter with the live spinner on (run --step turns it off,
    # cli_run.py: spinner=not step). On a terminal rich redrew "⠋ starting…" over the prompt line
    # ten times a second (ESC[2K), so the newcomer saw a spinner and never the question: the
    # demo looked stuck. Piped answers (no terminal, no spinner) hid it from the earlier tests.
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    out = tmp_path / "runs"
    session = PtySession([sys.executable, "-m", "spec_debug", "demo", "--step", "--out", str(out)], tmp_path)
    try:
        session.expect("Why: The cheapest bug is in the command line.")
        session.expect("quit (q)?")
        session.send("q")
        code = session.wait()
    finally:
        if session.proc.poll() is None:
            session.proc.kill()
    assert code == 3, session.screen
    assert "starting…" not in session.screen, session.screen
    [run_dir] = list(out.iterdir())
    record = json.loads((run_dir / "run.json").read_text())
    assert record["status"] == "aborted" and record["steps"] == []
    assert (run_dir / "report.md").exists()
