"""Two ``[msg N]`` transcripts pasted into one file, the second's numbers starting again at 0.
Before: each message of the second took the seq of the first's message with the same number,
so two commands and two errors shared ``msg 2`` (an error's command could not be told apart) and
the timeline put the second session's prompt among the first's events. Now the numbers that start
again go on after the messages read: every seq is unique and in reading order. Numbers that
jump forward (messages left out) are kept as given."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

TWO_PASTED = """\
[msg 0] user: the EAGLE-3 draft gives acceptance 1.0, why?
[msg 1] assistant: Let me launch the server.
[msg 2] tool: $ python3 -m sglang.launch_server --speculative-algorithm EAGLE3 --port 30000
ValueError: draft model hidden size 4096 does not match target 5120
[msg 3] assistant: The draft does not match.

[msg 0] user: second try, new session
[msg 1] assistant: Checking the GPU.
[msg 2] tool: $ nvidia-smi
NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.
[msg 3] assistant: driver is gone.
"""


def test_a_second_transcript_numbered_again_goes_on_after_the_first(tmp_path: Path) -> None:
    path = tmp_path / "two.log"
    path.write_text(TWO_PASTED)
    a = analyze_path(path)
    assert [(c.command.split(" --", 1)[0], c.seq) for c in a.commands] == [
        ("python3 -m sglang.launch_server", 2), ("nvidia-smi", 6)]
    assert [(e.command_seq, e.message.split(" ", 1)[0]) for e in a.errors] == [(2, "draft"), (6, "NVIDIA-SMI")]
    assert [p.seq for p in a.prompts] == [0, 4]


def test_numbers_that_jump_forward_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "elided.log"
    path.write_text(TWO_PASTED.split("\n\n", 1)[0].replace("[msg 2]", "[msg 7]").replace("[msg 3]", "[msg 8]") + "\n")
    a = analyze_path(path)
    assert [c.seq for c in a.commands] == [7]
    assert [e.command_seq for e in a.errors] == [7]
