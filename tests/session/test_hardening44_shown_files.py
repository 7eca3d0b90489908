"""A terminal log in which a command prints a file (``cat launch.sh``, ``cat notes.md``): the
file's lines are the command's output, whatever they look like. A script's ``# comment`` was read
as a Markdown heading that ended the output, and the script's launch line after it as a launch
that ran (with no host); a note's fenced ``$ python bench_serving.py`` as a benchmark that ran,
and its ``> `` line as someone's quote."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

_LOG = """\
root@gpu01:~/work# cat launch.sh
#!/bin/bash
# Launch the EAGLE-3 server
export CUDA_VISIBLE_DEVICES=0
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct \\
  --speculative-algorithm EAGLE3 --speculative-draft-model-path /models/eagle3 --port 30000
root@gpu01:~/work# cat notes.md
## Setup
> Note: the draft must match the target's vocab.
Run on the box:
```bash
root@gpu01:~/work# python bench_serving.py --num-prompts 100
```
root@gpu01:~/work# bash launch.sh
Traceback (most recent call last):
  File "/opt/sglang/python/sglang/launch_server.py", line 11, in <module>
RuntimeError: CUDA error: out of memory
root@gpu01:~/work# head -n 3 README.md
# EAGLE-3 runner
```bash
$ pip install sglang
root@gpu01:~/work# echo ok
ok
"""


def test_a_printed_files_lines_are_its_output(tmp_path: Path) -> None:
    path = tmp_path / "gpu01.log"
    path.write_text(_LOG)
    a = analyze_path(path)
    assert [(c.line, c.command, c.host) for c in a.commands] == [
        (1, "cat launch.sh", "gpu01"),
        (7, "cat notes.md", "gpu01"),
        (14, "bash launch.sh", "gpu01"),
        (18, "head -n 3 README.md", "gpu01"),
        (22, "echo ok", "gpu01"),
    ]
    (source,) = discover(path)
    events = list(iter_events(source, ReadStats(), AgentTree()))
    shown = [e.text for e in events if e.kind == "tool_result"]
    assert shown[0].splitlines()[1] == "# Launch the EAGLE-3 server"
    assert shown[1].splitlines()[-1] == "```"
    assert not [e for e in events if e.kind == "system"]  # no heading, no quote
    assert [(e.kind, e.host, e.source_line, e.command_seq) for e in a.errors] == [("cuda_oom", "gpu01", 15, 2)]


def test_only_a_prompt_of_its_kind_ends_a_printed_file(tmp_path: Path) -> None:
    # `cat` opens no shell: a `$ ` line under a command typed at `me@laptop:~$` is the file's
    path = tmp_path / "two.log"
    path.write_text("me@laptop:~$ cat hosts.md\n# Hosts\n$ ssh gpu01 nvidia-smi\nalice@gpu02:~$ ls\nhosts.md\n")
    a = analyze_path(path)
    assert [(c.command, c.host) for c in a.commands] == [("cat hosts.md", "laptop"), ("ls", "gpu02")]


def test_any_prompt_ends_a_printed_file_that_is_no_document(tmp_path: Path) -> None:
    # a note that mixes prompts: after a config, a `$ ` line is the next command
    path = tmp_path / "note.log"
    path.write_text('root@gpu01:~# cat /models/eagle3/config.json\n{"draft_vocab_size": 32000}\n'
                    "$ curl -s localhost:30000/health\ncurl: (7) Failed to connect to localhost port 30000\n")
    a = analyze_path(path)
    assert [(c.command, c.host) for c in a.commands] == [
        ("cat /models/eagle3/config.json", "gpu01"), ("curl -s localhost:30000/health", None)]
