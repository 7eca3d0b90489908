"""`run --show-output` printed each output line from the thread that reads the step's output,
and rich takes ~0.1 ms a line: a step writing 50 MB (a server log, a benchmark printing every
request) took 20 s instead of 1.5, its command waiting on a full pipe (SSH window) while the
terminal caught up; its duration and any timeout measured our printing. A terminal paused with
Ctrl-S, or a `2>&1 | less` nobody scrolled, stopped the command itself. Lines are now printed by
a thread of their own; past a backlog a step's lines are counted, not shown, and its last lines
are shown when it ends. A real flooded log also folded every line at 80 columns off a terminal:
output lines are now unfolded, as the step lines are."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from rich.console import Console

from spec_debug import cli_progress
from spec_debug.cli_progress import ConsoleReporter
from spec_debug.playbook.loader import load_playbook_text
from spec_debug.record import StepRecord


class _PausedTerminal(io.StringIO):
    """A stream whose writes wait until it is resumed (Ctrl-S, then Ctrl-Q)."""

    def __init__(self) -> None:
        super().__init__()
        self.resumed = threading.Event()

    def write(self, text: str) -> int:
        self.resumed.wait()
        return super().write(text)


def test_lines_past_the_backlog_never_wait_on_the_terminal_and_the_end_is_shown() -> None:
    terminal = _PausedTerminal()
    reporter = ConsoleReporter(Console(file=terminal, emoji=False, width=80), show_output=True, spinner=False)
    backlog, tail_lines = getattr(cli_progress, "_OUTPUT_BACKLOG", 5000), getattr(cli_progress, "_OUTPUT_TAIL", 20)
    total = backlog + 1000
    long_tail = "x" * 150  # wider than the 80 columns: one line all the same
    written = threading.Thread(target=lambda: [
        reporter.output_line("gpu01", "bench", "stdout", f"request {i} {long_tail}") for i in range(total)])
    written.start()
    written.join(20)
    finished_unseen = not written.is_alive()
    terminal.resumed.set()
    written.join()
    assert finished_unseen, "the step's output waited on a paused terminal"
    step = load_playbook_text("name: b\nsteps:\n  - id: bench\n    run: echo\n").steps[0]
    reporter.step_finished("gpu01", step, StepRecord(id="bench", host="gpu01", status="passed", duration_s=1.0), [])
    lines = terminal.getvalue().splitlines()
    (note_at,) = [i for i, line in enumerate(lines) if "not shown" in line]
    shown_first = [int(line.split()[3]) for line in lines[:note_at]]
    assert shown_first == list(range(len(shown_first))) and len(shown_first) >= backlog
    not_shown = total - len(shown_first) - tail_lines
    assert lines[note_at] == (f"gpu01 bench| … {not_shown} more lines not shown (written faster than this "
                              "terminal shows them); the run record keeps them")
    tail = lines[note_at + 1:-1]
    assert tail == [f"gpu01 bench| request {i} {long_tail}" for i in range(total - tail_lines, total)]
    assert lines[-1].split()[:3] == ["gpu01", "passed", "bench"]


def test_a_step_flooding_its_output_runs_to_its_end_while_nobody_reads_the_progress(tmp_path: Path) -> None:
    done = tmp_path / "done"
    playbook = tmp_path / "flood.yaml"
    playbook.write_text(f"""\
name: flood
steps:
  - id: flood
    run: "seq 1 200000 | sed 's/$/ request served in 12 ms by the EAGLE-3 draft/'; touch {done}"
""")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2]), "COLUMNS": "200"}
    run = subprocess.Popen([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "-v",
                            "--out", str(tmp_path / "runs")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        deadline = time.monotonic() + 30
        while not done.exists() and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.1)
        ran_to_its_end = done.exists()  # the progress on stderr never read until now
    finally:
        _, stderr = run.communicate(timeout=120)
    assert ran_to_its_end, stderr[-2000:]
    assert run.returncode == 0
    lines = [line for line in stderr.decode().splitlines() if line.startswith("flood| ")]
    (note_at,) = [i for i, line in enumerate(lines) if " more lines not shown " in line]
    shown = [int(line.split()[1]) for line in lines[:note_at]] + [int(line.split()[1]) for line in lines[note_at + 1:]]
    not_shown = int(lines[note_at].split()[2])
    # The first lines as they came, one note for the gap, then the step's last lines: each once.
    assert shown == list(range(1, note_at + 1)) + list(range(200001 - (len(lines) - note_at - 1), 200001))
    assert len(shown) + not_shown == 200000
    assert lines[-1] == "flood| 200000 request served in 12 ms by the EAGLE-3 draft"  # the last line, whole


def test_step_through_says_how_a_step_went_after_its_output(tmp_path: Path) -> None:
    playbook = tmp_path / "chatty.yaml"
    playbook.write_text("name: chatty\nsteps:\n  - id: chatty\n    run: seq 1 3000\n")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2]), "COLUMNS": "200"}
    done = subprocess.run([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "-v", "--step",
                           "--out", str(tmp_path / "runs")], input="r\n", capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stderr.splitlines()
    said = next(i for i, line in enumerate(lines) if line.startswith("→ chatty passed"))
    assert lines.index("chatty| 3000") < said, lines[said - 3:said + 3]


def test_long_lines_past_the_backlog_are_not_held_in_memory() -> None:
    terminal = _PausedTerminal()
    reporter = ConsoleReporter(Console(file=terminal, emoji=False, width=80), show_output=True, spinner=False)
    line = "y" * (256 * 1024)  # a line as long as --capture-limit lets through
    written = threading.Thread(target=lambda: [reporter.output_line("gpu01", "dump", "stdout", line) for _ in range(400)])
    written.start()
    written.join(20)
    waiting = sum(len(item[3]) for item in reporter._lines)
    terminal.resumed.set()
    written.join()
    assert waiting <= 5 * 1024 * 1024  # was all 100 MB of them, waiting for the terminal
