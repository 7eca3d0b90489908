"""A fish session in an 80-column terminal where a launch command took three rows (a real
recording, data_hardening65/SOURCE.md). Two things lost it, and every command after it:

- each prompt after the first follows the mark fish writes before it (``⏎``, spaces to the last
  column, ``\\r⏎ \\r``, then the prompt's erase): read as it stood, its `` \\r`` and erase were
  zsh's row wrap, the row ``⏎root@vm ...``, and no fish prompt row was seen after the first, so
  the rows after the launch command were held as its own to the end of the log: one line of
  502 characters, "echo done" and "exit" in it;
- Enter's row after a wrapped command ends with colour resets after the cursor's move
  (``\\x1b[7C\\x1b[30m\\x1b(B\\x1b[m``), not with the move, and was not seen as Enter's: the
  command was its first row's part, ``... sys.exit(3)' -``."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_hardening65"
LAUNCH = ("python3 -c 'import sys; print(\"loading draft\"); sys.exit(3)' --model-path /models/llama-3.1-8b-instruct "
          "--speculative-draft-model-path /models/eagle3")


def test_a_command_of_three_rows_and_the_prompts_after_it() -> None:
    a = analyze_path(DATA / "fish_wrapped_three_rows.typescript")
    assert [(c.command, c.host, c.exit_code) for c in a.commands] == [
        ("fish", None, None),
        (LAUNCH, "vm", 3),  # "[3]" on the next prompt
        ("echo done", "vm", 0),
        ("exit", "vm", None),
    ]
