"""A terminal log in which a file only root (or a service user) may read is printed through sudo
(``sudo cat /opt/serve/launch.sh``, ``sudo -u svc tail -n 3 notes.md``): the file's lines are the
command's output, as they are for ``cat``. The script's launch line was read as a launch that ran
(with no host) and a note's ``$ python bench_serving.py`` as a benchmark that ran."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

_LOG = """\
ubuntu@gpu01:~$ sudo cat /opt/serve/launch.sh
#!/bin/bash
# Launch the EAGLE-3 server
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct \\
  --speculative-algorithm EAGLE3 --speculative-draft-model-path /models/eagle3 --port 30000
ubuntu@gpu01:~$ sudo -u svc tail -n 3 /var/log/sglang/notes.md
## Last run
```bash
$ python bench_serving.py --num-prompts 100
ubuntu@gpu01:~$ echo ok
ok
"""


def test_a_file_printed_through_sudo_is_its_output(tmp_path: Path) -> None:
    path = tmp_path / "gpu01.log"
    path.write_text(_LOG)
    a = analyze_path(path)
    assert [(c.line, c.command, c.host) for c in a.commands] == [
        (1, "sudo cat /opt/serve/launch.sh", "gpu01"),
        (6, "sudo -u svc tail -n 3 /var/log/sglang/notes.md", "gpu01"),
        (10, "echo ok", "gpu01"),
    ]
    (source,) = discover(path)
    shown = [e.text for e in iter_events(source, ReadStats(), AgentTree()) if e.kind == "tool_result"]
    assert shown[0].splitlines()[-1].startswith("  --speculative-algorithm EAGLE3")
    assert shown[1].splitlines() == ["## Last run", "```bash", "$ python bench_serving.py --num-prompts 100"]


@pytest.mark.parametrize("command", ["sudo -i", "sudo su -", "sudo bash"])
def test_a_shell_sudo_opens_is_no_printed_file(tmp_path: Path, command: str) -> None:
    # sudo that opens a root shell: the next prompt's line is a command that ran
    path = tmp_path / "root.log"
    path.write_text(f"ubuntu@gpu01:~$ {command}\n$ nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n")
    a = analyze_path(path)
    assert [c.command for c in a.commands] == [command, "nvidia-smi -L"]
