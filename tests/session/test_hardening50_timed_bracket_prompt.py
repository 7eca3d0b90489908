"""RHEL's bracket prompt with the time in it, PS1='[\\t \\u@\\h \\W]\\$ ' (bash(1), PROMPTING):
``[14:02:11 root@gpu01 ~]# nvidia-smi -L``. The log was read as one block of text: no command,
no host; the traceback under a test run belonged to no command."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """[14:02:11 root@gpu01 ~]# nvidia-smi -L
GPU 0: NVIDIA H200
[14:02:30 root@gpu01 ~]# python3 /root/test_drafter.py
Traceback (most recent call last):
  File "/root/test_drafter.py", line 3, in <module>
    import torchx
ModuleNotFoundError: No module named 'torchx'
[14:03 admin@gpu-02 sglang]$ ls /models
e3
"""


def test_timed_bracket_prompts_are_commands_on_their_host(tmp_path: Path) -> None:
    path = tmp_path / "gpu01.log"
    path.write_text(LOG, encoding="utf-8")
    a = analyze_path(path)
    assert [(c.host, c.user, c.command) for c in a.commands] == [
        ("gpu01", "root", "nvidia-smi -L"), ("gpu01", "root", "python3 /root/test_drafter.py"),
        ("gpu-02", "admin", "ls /models")]
    assert [(e.seq, e.exception) for e in a.errors] == [(a.commands[1].seq, "ModuleNotFoundError")]
