"""A plain ``` block of a note or a ``[msg N]`` reply that holds a run (``$ cmd`` and its output)
closed with its "```" inside the last command's output. That command was often ``echo $?``,
whose output then read ``1`` and ``````` , no exit status, so the failed command before it kept
none; a ```console block gave it exit 1. The block's end is no output now."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

RUN = ("```\n$ python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3\n"
       "ValueError: EAGLE3 needs --speculative-draft-model-path\n$ echo $?\n1\n```\n")


@pytest.mark.parametrize("log", [
    "I ran it on the node:\n\n" + RUN,
    "[msg 1] user: why does the server not start?\n\n[msg 2] assistant: I ran:\n\n" + RUN + "\n[msg 3] assistant: see above\n",
])
def test_the_blocks_end_is_not_the_last_commands_output(tmp_path: Path, log: str) -> None:
    path = tmp_path / "notes.md"
    path.write_text(log)
    launch, echo = analyze_path(path).commands
    assert (launch.exit_code, launch.is_error) == (1, True)
    assert echo.command == "echo $?"
