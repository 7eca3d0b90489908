"""After ``ssh ubuntu@gpu01.example.com`` the prompt says ``ubuntu@ip-10-0-3-17`` (an AWS
machine's own hostname): the commands typed there were recorded on ip-10-0-3-17, a name the
session's other commands never used and a playbook run cannot reach, so distill said
``--host ubuntu@ip-10-0-3-17``. They ran on the machine the login reached: gpu01.example.com."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook

_LOG = """\
me@laptop:~$ ssh ubuntu@gpu01.example.com
Welcome to Ubuntu 22.04.4 LTS
ubuntu@ip-10-0-3-17:~$ ps -eo args | grep [l]aunch_server
python3 -m sglang.launch_server --model-path /m/t --speculative-algorithm EAGLE3 --speculative-draft-model-path /m/d --speculative-num-steps 1
ubuntu@ip-10-0-3-17:~$ sudo -i
root@ip-10-0-3-17:~# nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
root@ip-10-0-3-17:~# exit
ubuntu@ip-10-0-3-17:~$ exit
me@laptop:~$ ssh gpu02
me@gpu02:~$ nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
me@gpu02:~$ exit
me@laptop:~$ ls
notes.md
"""


def test_commands_at_a_prompt_with_the_machines_own_hostname_are_the_logins_host(tmp_path: Path) -> None:
    path = tmp_path / "aws.log"
    path.write_text(_LOG, encoding="utf-8")
    a = analyze_path(path)
    assert [(c.host, c.user, c.command) for c in a.commands] == [
        ("gpu01.example.com", "ubuntu", "ssh ubuntu@gpu01.example.com"),
        ("gpu01.example.com", "ubuntu", "ps -eo args | grep [l]aunch_server"),
        ("gpu01.example.com", "ubuntu", "sudo -i"),
        ("gpu01.example.com", "root", "nvidia-smi -L"),
        ("gpu01.example.com", "root", "exit"),
        ("gpu01.example.com", "ubuntu", "exit"),
        ("gpu02", None, "ssh gpu02"),  # a prompt that names the login's host stays as it is
        ("gpu02", "me", "nvidia-smi -L"),
        ("gpu02", "me", "exit"),
        ("laptop", "me", "ls")]  # the machine the login was typed on keeps its name
    assert "--host ubuntu@gpu01.example.com" in distill_playbook(a)["description"]


def test_a_failed_login_names_nothing(tmp_path: Path) -> None:
    path = tmp_path / "refused.log"
    path.write_text("me@laptop:~$ ssh ubuntu@gpu01.example.com\nubuntu@gpu01.example.com: Permission denied "
                    "(publickey).\nme@laptop:~$ hostname\nlaptop\n", encoding="utf-8")
    assert [c.host for c in analyze_path(path).commands] == ["gpu01.example.com", "laptop"]
