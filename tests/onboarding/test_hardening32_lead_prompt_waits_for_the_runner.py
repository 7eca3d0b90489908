"""A step-through prompt gives up when the runner says the run stops, not on the signal itself.

The prompt (stepthrough.TerminalGate) waits in a host thread. It used to chain its own handler
on SIGINT/SIGTERM/SIGHUP and give up at once; the host then recorded "quit in step-through
mode" as the abort reason whenever it got there before the runner's main loop recorded the
signal (within 0.1 s), so on a loaded machine a SIGTERM at the prompt was recorded as a quit
(seen in a full-suite run beside busy loops: test_ctrl_c_at_the_prompt_stops_the_run[SIGTERM]).
Now the runner calls the gate's stop_waiting after it set the reason (Run.interrupt).
"""

from __future__ import annotations

import io
import os
import signal
import threading

from rich.console import Console

from spec_debug.playbook.loader import load_playbook_text
from spec_debug.stepthrough import TerminalGate

WALK = "name: walk\nsteps:\n  - id: first\n    run: echo first-ran\n"


def test_a_signal_alone_leaves_the_prompt_to_the_runner_and_stop_waiting_ends_it() -> None:
    received: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda num, frame: received.append(num))
    read_end, write_end = os.pipe()
    try:
        gate = TerminalGate(Console(file=io.StringIO(), width=80), stdin=os.fdopen(read_end, "r", closefd=False))
        step = load_playbook_text(WALK).steps[0]
        answers: list[str] = []
        prompt = threading.Thread(target=lambda: answers.append(gate.before_step("local", step, "echo first-ran")))
        prompt.start()
        os.kill(os.getpid(), signal.SIGTERM)
        prompt.join(1.0)  # the old gate answered within its 0.2 s poll
        assert received == [signal.SIGTERM]
        assert prompt.is_alive() and answers == [], "the prompt gave up on the signal before the runner recorded it"
        gate.stop_waiting()
        prompt.join(60.0)
        assert answers == ["quit"]
    finally:
        signal.signal(signal.SIGTERM, previous)
        os.close(write_end)
        os.close(read_end)
