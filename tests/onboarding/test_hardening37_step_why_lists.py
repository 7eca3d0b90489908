"""`run --step`: a step's why, as its author wrote it, in the panel before the prompt."""

from __future__ import annotations

import io

from rich.console import Console

from spec_debug.playbook.loader import load_playbook_text
from spec_debug.stepthrough import TerminalGate

PLAYBOOK = """\
name: flags
steps:
  - id: launch
    why: |
      The server's launch line decides the speculation depth.
      Checks:
      - the number of steps
        against the draft's training
      - the draft token budget
      1. first the flags, then the configs
    run: ps -eo args
"""


def test_a_list_in_why_keeps_its_lines_in_the_step_panel():
    step = load_playbook_text(PLAYBOOK).steps[0]
    console = Console(file=io.StringIO(), width=200, color_system=None)
    gate = TerminalGate(console, stdin=io.StringIO("s\n"))
    assert gate.before_step("local", step, "ps -eo args") == "skip"
    lines = [line.strip("│ ").rstrip() for line in console.file.getvalue().splitlines()]
    # Before: the whole why was one line, "... depth. Checks: - the number of steps against the
    # draft's training - the draft token budget 1. first the flags, then the configs".
    assert "Why: The server's launch line decides the speculation depth. Checks:" in lines, lines
    assert "- the number of steps against the draft's training" in lines, lines  # its wrapped line joined
    assert "- the draft token budget" in lines, lines
    assert "1. first the flags, then the configs" in lines, lines
