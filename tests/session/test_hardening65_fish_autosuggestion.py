"""fish redraws the command line on each key typed while an autosuggestion shows (a command from
history that starts with what is typed): a carriage return, a move right to the cursor's column
(``ESC[19C``), the key, and the rest of the suggestion in grey. Typing a launch command of 150
characters that history suggests wrote a line of 18,561 bytes (data_hardening65/SOURCE.md, a real
recording): longer than a line whose edits were taken whole, its moves were taken once each, the
command came out as ``/33333333333e3333...`` and was lost with its exit status."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_hardening65"
LAUNCH = ("python3 -c 'import sys; print(\"loading draft\"); sys.exit(3)' --model-path /models/llama-3.1-8b-instruct "
          "--speculative-draft-model-path /models/eagle3")


def test_a_long_command_typed_over_an_autosuggestion() -> None:
    a = analyze_path(DATA / "fish_autosuggestion_long_command.typescript")
    assert [(c.command, c.host, c.exit_code) for c in a.commands] == [
        ("fish", None, None),
        (LAUNCH, "vm", 3),  # "[3]" on the next prompt
        ("echo done", "vm", 0),
        ("exit", "vm", None),
    ]


def test_a_redraw_loop_is_still_read_cheaply(tmp_path: Path) -> None:
    # a progress bar that moves the cursor a thousand columns on each redraw, for 40,000 redraws:
    # its moves stand for 40 million marks, more than a line is read with, each taken once
    path = tmp_path / "bar.log"
    path.write_text("$ ./train.sh\n" + "\r\x1b[1000C\x1b[1000Dstep" * 40_000 + "\ndone\n$ echo ok\nok\n", encoding="utf-8")
    assert [c.command for c in analyze_path(path).commands] == ["./train.sh", "echo ok"]
