"""A ``[msg N]`` transcript where the agent reads a README with ``[bash] cat README.md``: the tool
message is the file, with its own ```console example (``$ curl -s localhost:30000/health``).
Before: the example was read as a command that ran (after the read), and the README's text cut
there, so a "command" nobody ran stood among the session's commands. Now, as in a terminal log
(``cat`` typed at a prompt), what a command that prints files prints is their text: fences and
prompts included, up to the next message or the next ``[bash]`` call."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

_LOG = """\
[msg 1] user: how do I launch the drafter?
[msg 2] assistant: Let me read the README.
[bash] cat /opt/eagle3/README.md
[msg 3] tool: # EAGLE-3 drafter
Launch with:
```bash
python3 -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3
```
Then check:
```console
$ curl -s localhost:30000/health
ok
```
[msg 4] assistant: Checking the server now.
[bash] curl -s localhost:30000/health
[msg 5] tool: curl: (7) Failed to connect to localhost port 30000: Connection refused
"""

_UNLABELED = """\
[msg 1] user: how do I launch the drafter?
[msg 2] assistant: Let me read the README.
[bash] cat /opt/eagle3/README.md
# EAGLE-3 drafter
```console
$ curl -s localhost:30000/health
ok
```
[bash] nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
[msg 3] assistant: ok
"""


def test_a_readmes_example_in_the_tool_message_is_its_text(tmp_path: Path) -> None:
    path = tmp_path / "debug.txt"
    path.write_text(_LOG, encoding="utf-8")
    a = analyze_path(path)
    assert [(c.seq, c.is_error, c.command) for c in a.commands] == [
        (2, False, "cat /opt/eagle3/README.md"), (4, True, "curl -s localhost:30000/health")]


def test_the_next_call_ends_the_files_text(tmp_path: Path) -> None:
    path = tmp_path / "debug.txt"
    path.write_text(_UNLABELED, encoding="utf-8")
    a = analyze_path(path)
    assert [(c.seq, c.command) for c in a.commands] == [(2, "cat /opt/eagle3/README.md"), (2, "nvidia-smi -L")]
