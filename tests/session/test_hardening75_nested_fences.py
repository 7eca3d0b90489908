"""A block written with four backticks holding an example block of three: a model's answer "put
this in the README" (````markdown, then ```bash and the launch command inside), in a note or a
``[msg N]`` reply. Before: the inner ```bash closed the outer block, so the example's launch
command was read as one that ran (a command with no output, on its own, and the example's last
"```" opened a block that took in what followed). Now, as CommonMark reads it, only a fence at
least as long as the opening one closes a block: the example stays the block's text."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

_NOTE = """\
Notes from debugging the drafter on gpu01

I asked for a README section and got:

````markdown
## Launch

```bash
python3 -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3
```
````

Then I ran it:

```console
me@gpu01:~$ nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
```
"""

_MSGS = """\
[msg 1] user: what should the README say about launching?
[msg 2] assistant: Something like:
````markdown
Run this:
```bash
$ python3 -m sglang.launch_server --model-path /m2 --speculative-algorithm EAGLE3
```
````
Does that help?
[msg 3] assistant: Checking the GPUs first:
[bash] ssh gpu01 nvidia-smi -L
[msg 4] tool: GPU 0: NVIDIA H100 80GB HBM3
[msg 5] user: thanks
"""


def test_an_example_block_in_a_note_is_no_command(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text(_NOTE, encoding="utf-8")
    a = analyze_path(path)
    assert [(c.host, c.user, c.command) for c in a.commands] == [("gpu01", "me", "nvidia-smi -L")]


def test_an_example_block_in_a_reply_is_no_command(tmp_path: Path) -> None:
    path = tmp_path / "debug.txt"
    path.write_text(_MSGS, encoding="utf-8")
    a = analyze_path(path)
    assert [(c.seq, c.host, c.command) for c in a.commands] == [(3, "gpu01", "ssh gpu01 nvidia-smi -L")]
    assert [(p.seq, p.text) for p in a.prompts] == [
        (1, "what should the README say about launching?"), (5, "thanks")]
