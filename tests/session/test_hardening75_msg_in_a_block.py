"""A ``[msg N]`` transcript where a ``[msg N]`` line stands inside a fenced block.

A user pastes a colleague's session into a message, inside a ``` block: its own ``[msg 4]
assistant: ...`` lines. Before: the quoted line opened message 4, the real ``[msg 2]`` after the
block was read as a second transcript (numbered after it), and the user's question was cut in
two. Now a number other than the next one, inside an open block, is the quoted session's text (its
prompted run a pasted run, as before), and the messages keep their numbers.

A reply whose block was never closed (the model forgot, or the export cut it). Before: the block
stayed open into the next messages, so the next "```" closed it and the one after opened a block
that swallowed the rest: the ``[bash] nvidia-smi -L`` of message 4 was lost. Now the next
message ends the block its message left open."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

_QUOTED = """\
[msg 1] user: my sglang server dies, here is what my colleague sent me:
```
[msg 4] assistant: let me check
[bash] ssh gpu07 nvidia-smi
root@gpu07:~# python3 -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE3
Traceback (most recent call last):
RuntimeError: shape mismatch
```
can you look?
[msg 2] assistant: Sure. First the GPUs:
[bash] ssh gpu01 nvidia-smi -L
[msg 3] tool: GPU 0: NVIDIA H100 80GB HBM3
[msg 4] user: thanks
"""

_LEFT_OPEN = """\
[msg 1] user: is the drafter there?
[msg 2] assistant: you could run
```
$ ls /models/eagle3
[msg 3] assistant: I ran it:
```console
$ python3 -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE3 --speculative-draft-model-path /d
ValueError: draft vocab size 32000 does not match target vocab size 128256
```
[msg 4] assistant: Next, the GPUs:
[bash] nvidia-smi -L
[msg 5] tool: GPU 0: NVIDIA H100 80GB HBM3
[msg 6] user: thanks
"""


def test_a_quoted_session_in_a_block_is_the_messages_text(tmp_path: Path) -> None:
    path = tmp_path / "debug.txt"
    path.write_text(_QUOTED, encoding="utf-8")
    a = analyze_path(path)
    assert [(c.seq, c.host, c.is_error, c.command) for c in a.commands] == [
        (1, "gpu07", True, "python3 -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE3"),
        (2, "gpu01", False, "ssh gpu01 nvidia-smi -L")]
    assert (a.prompts[0].seq, a.prompts[-1].seq) == (1, 4)
    assert a.prompts[0].text.split("\n")[2:] == ["[msg 4] assistant: let me check", "[bash] ssh gpu07 nvidia-smi"]
    assert a.prompts[-1].text == "thanks"
    assert [(e.seq, e.host, e.exception) for e in a.errors] == [(1, "gpu07", "RuntimeError")]


def test_the_next_message_ends_a_block_left_open(tmp_path: Path) -> None:
    path = tmp_path / "debug.txt"
    path.write_text(_LEFT_OPEN, encoding="utf-8")
    a = analyze_path(path)
    assert [(c.seq, c.is_error, c.command) for c in a.commands] == [
        (3, True, "python3 -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE3 "
                  "--speculative-draft-model-path /d"),
        (4, False, "nvidia-smi -L")]
    assert [(p.seq, p.text) for p in a.prompts] == [(1, "is the drafter there?"), (6, "thanks")]
