"""An interactive ``ssh`` moves a terminal log's later commands to its host until ``exit``; one
that names a remote command was taken for a one-off run, even when that command is the shell the
person then typed in: ``ssh -t gpu02 "cd ~/sglang && bash"``, ``ssh -t gpu03 tmux attach``. The
commands after it, and the error of a missing drafter config, were put on the laptop."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """\
$ ssh -t gpu02 "cd ~/sglang && bash"
Last login: Fri Dec  4 09:12:44 2026 from 10.0.0.8
$ nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
$ exit
Connection to gpu02 closed.
$ ssh -t gpu03 tmux attach
$ cat /models/eagle3/config.json
cat: /models/eagle3/config.json: No such file or directory
$ exit
$ ssh gpu04 nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
$ ssh -t gpu05 tmux ls
0: 1 windows (created Fri Dec  4 09:00:00 2026)
$ hostname
laptop
"""


def test_a_remote_shell_started_by_name_takes_the_next_commands(tmp_path: Path) -> None:
    path = tmp_path / "laptop.log"
    path.write_text(LOG)
    a = analyze_path(path)
    assert [(c.command, c.host) for c in a.commands] == [
        ('ssh -t gpu02 "cd ~/sglang && bash"', "gpu02"),
        ("nvidia-smi -L", "gpu02"),
        ("exit", "gpu02"),
        ("ssh -t gpu03 tmux attach", "gpu03"),
        ("cat /models/eagle3/config.json", "gpu03"),
        ("exit", "gpu03"),
        ("ssh gpu04 nvidia-smi -L", "gpu04"),  # a one-off command: no shell stays open
        ("ssh -t gpu05 tmux ls", "gpu05"),  # a list of sessions: none attached
        ("hostname", None),
    ]
    assert [(e.message, e.host) for e in a.errors] == [
        ("cat: /models/eagle3/config.json: No such file or directory", "gpu03")]
