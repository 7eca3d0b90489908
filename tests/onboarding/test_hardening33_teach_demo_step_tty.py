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


def _record(out: Path) -> dict:
    [run_dir] = list(out.iterdir())
    return json.loads((run_dir / "run.json").read_text())


def test_the_terminal_closing_at_the_demo_prompt_is_recorded_as_a_hang_up(tmp_path, monkeypatch):
    # A laptop lid, a dropped SSH session: SIGHUP, and every write to the terminal fails with
    # EIO. The gate's prompt writes raised that OSError in the host thread: the record said
    # "internal error: OSError: [Errno 5] Input/output error" for the host, and the demo's own
    # summary prints raised it again: exit 1, as if error findings were the news.
    import signal
    import time

    monkeypatch.setenv("PYTHONPATH", str(REPO))
    out = tmp_path / "runs"
    session = PtySession([sys.executable, "-m", "spec_debug", "demo", "--step", "--out", str(out)], tmp_path)
    try:
        session.expect("quit (q)?")
        time.sleep(0.5)  # as a person would: a moment after the prompt (see test_onboarding_real_stepthrough)
        session.proc.send_signal(signal.SIGHUP)
        os.close(session.master)
        code = session.proc.wait(timeout=60)
    finally:
        if session.proc.poll() is None:
            session.proc.kill()
    assert code == 3
    record = _record(out)
    assert record["status"] == "aborted" and "hung up" in record["abort_reason"]
    assert "internal error" not in (record["hosts"][0]["error"] or "")


def test_a_terminal_gone_without_a_signal_ends_the_walk_as_end_of_input(tmp_path, monkeypatch):
    # The terminal went away with no SIGHUP reaching us (another session leader, a container's
    # console): reads return end of input and writes EIO. The host ended as "internal error".
    import time

    monkeypatch.setenv("PYTHONPATH", str(REPO))
    playbook = tmp_path / "one.yaml"
    playbook.write_text("name: one\nsteps:\n  - id: a\n    why: Reads the flags.\n    run: echo a\n")
    out = tmp_path / "runs"
    session = PtySession([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--step",
                          "--out", str(out)], tmp_path)
    try:
        session.expect("quit (q)?")
        time.sleep(0.5)
        os.close(session.master)
        code = session.proc.wait(timeout=60)
    finally:
        if session.proc.poll() is None:
            session.proc.kill()
    assert code == 3
    record = _record(out)
    assert record["status"] == "aborted" and record["steps"] == []
    assert "internal error" not in (record["hosts"][0]["error"] or ""), record["hosts"][0]
