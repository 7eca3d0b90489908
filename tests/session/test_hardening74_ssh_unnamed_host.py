"""A terminal log's ssh to a host named by a variable with no one value: a loop over the GPU
hosts typed at the bastion (``for h in gpu01 gpu02; do ssh $h nvidia-smi ...; done``) and an
``ssh $GPU ...`` whose GPU the log never set. Before: both were the bastion's own commands, in
its home folder as ``ops``, so the CUDA out-of-memory that ``tail`` showed from the GPU host's
server log, and gpu02's refused connection, were the bastion's errors. Now such a command has no
host, user or folder (it ran on a GPU host the log does not name), keeps the jump through the
bastion it went by, and its errors name no host; a command typed at a prompt stays that host's."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

_LOG = """\
me@laptop:~/incident$ ssh ops@bastion
ops@bastion:~$ for h in gpu01 gpu02; do ssh $h nvidia-smi --query-gpu=name,memory.used --format=csv,noheader; done
NVIDIA H100 80GB HBM3, 71234 MiB
ssh: connect to host gpu02 port 22: Connection refused
ops@bastion:~$ ssh $GPU 'tail -n 3 /var/log/sglang.log'
RuntimeError: CUDA error: out of memory
ops@bastion:~$ for h in gpu01; do ssh $h nvidia-smi -L; done
GPU 0: NVIDIA H100 80GB HBM3
ops@bastion:~$ exit
me@laptop:~/incident$ ls
notes.md
"""


def test_an_ssh_to_a_host_the_log_does_not_name_is_not_the_prompts_host(tmp_path: Path) -> None:
    path = tmp_path / "fleet.log"
    path.write_text(_LOG, encoding="utf-8")
    a = analyze_path(path)
    assert [(c.host, c.user, c.jump, c.cwd, c.inner) for c in a.commands] == [
        ("bastion", "ops", None, None, "ssh ops@bastion"),
        (None, None, "ops@bastion", None, "nvidia-smi --query-gpu=name,memory.used --format=csv,noheader"),
        (None, None, "ops@bastion", None, "tail -n 3 /var/log/sglang.log"),
        # a loop over one host names it
        ("gpu01", None, "ops@bastion", None, "nvidia-smi -L"),
        ("bastion", "ops", None, "~", "exit"),
        ("laptop", "me", None, "~/incident", "ls"),
    ]
    assert [(e.kind, e.host, e.message) for e in a.errors] == [
        ("connection", None, "ssh: connect to host gpu02 port 22: Connection refused"),
        ("cuda_oom", None, "CUDA error: out of memory"),
    ]
