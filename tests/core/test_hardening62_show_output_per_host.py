"""`run -v` on a fleet whose terminal lags behind one host's flood of output.

The --show-output backlog (5000 waiting lines) was the run's: one host writing its log faster
than the terminal shows it (a server started at debug level) filled it, and from then on every
other host's lines were counted, not shown: a host whose step printed 100 lines showed "… 80
more lines not shown" and its last 20, though it wrote little. Each host now has its backlog.
"""

from __future__ import annotations

import threading

from rich.console import Console

from spec_debug.cli_progress import _OUTPUT_BACKLOG, ConsoleReporter
from spec_debug.playbook.loader import load_playbook_text
from spec_debug.record import StepRecord
from tests.core.test_hardening62_show_output_backlog import _PausedTerminal


def test_a_flooding_host_leaves_the_other_hosts_lines_shown() -> None:
    terminal = _PausedTerminal()
    reporter = ConsoleReporter(Console(file=terminal, emoji=False, width=200), show_output=True, spinner=False)
    steps = load_playbook_text("name: b\nsteps:\n  - id: serve\n    run: echo\n  - id: bench\n    run: echo\n").steps
    flood = _OUTPUT_BACKLOG + 1000
    written = threading.Thread(target=lambda: (
        [reporter.output_line("gpu01", "serve", "stdout", f"debug {i}") for i in range(flood)],
        [reporter.output_line("gpu02", "bench", "stdout", f"request {i}") for i in range(100)]))
    written.start()
    written.join(20)
    finished_unseen = not written.is_alive()
    terminal.resumed.set()
    written.join()
    assert finished_unseen, "the output waited on a paused terminal"
    reporter.step_finished("gpu02", steps[1], StepRecord(id="bench", host="gpu02", status="passed", duration_s=1.0), [])
    reporter.step_finished("gpu01", steps[0], StepRecord(id="serve", host="gpu01", status="passed", duration_s=1.0), [])
    lines = terminal.getvalue().splitlines()
    gpu02 = [line for line in lines if line.startswith("gpu02 ")]
    assert gpu02 == [f"gpu02 bench| request {i}" for i in range(100)] + [gpu02[-1]], gpu02[:3] + gpu02[-3:]
    assert gpu02[-1].split()[:3] == ["gpu02", "passed", "bench"]
    # The flooding host's own lines past its backlog are still counted, its last ones shown.
    (note_at,) = [i for i, line in enumerate(lines) if "not shown" in line]
    shown_first = [line for line in lines[:note_at] if line.startswith("gpu01 ")]
    # The backlog, and the line the printer took before the paused terminal held it.
    assert len(shown_first) in (_OUTPUT_BACKLOG, _OUTPUT_BACKLOG + 1), len(shown_first)
    assert lines[note_at] == (f"gpu01 serve| … {flood - len(shown_first) - 20} more lines not shown (written faster than "
                              "this terminal shows them); the run record keeps them")
