"""A terminal log that logs in to a bastion and from there to the GPU host (``ssh
ops@bastion``, then ``ssh -p 2222 root@gpu01`` typed at the bastion's prompt) ran its GPU
commands on gpu01 through the bastion: the commands typed at ``root@gpu01:~#`` had no port and
no jump host (and the ssh typed on the bastion no jump either), so distill told the reader to
run the playbook with ``--host root@gpu01`` alone, which does not reach it."""

from __future__ import annotations

from pathlib import Path

import yaml

from spec_debug.session import analyze_path
from tests.conftest import run_cli

_LOG = """\
me@laptop:~$ ssh ops@bastion.example.com
ops@bastion:~$ ssh -p 2222 root@gpu01
root@gpu01:~# ps aux | grep sglang.launch_server
root  1234  python3 -m sglang.launch_server --model-path /models/target --speculative-algorithm EAGLE3 --speculative-num-steps 1
root@gpu01:~# nvidia-smi --query-gpu=name --format=csv
name
NVIDIA H100 80GB HBM3
root@gpu01:~# exit
ops@bastion:~$ ssh root@gpu02 nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
ops@bastion:~$ exit
me@laptop:~$ ls ~/.ssh
config  id_ed25519
"""


def test_commands_typed_after_a_login_through_a_bastion_keep_its_hops(tmp_path: Path) -> None:
    path = tmp_path / "hops.log"
    path.write_text(_LOG, encoding="utf-8")
    a = analyze_path(path)
    assert [(c.host, c.user, c.port, c.jump, c.command) for c in a.commands] == [
        ("bastion.example.com", "ops", None, None, "ssh ops@bastion.example.com"),
        ("gpu01", "root", 2222, "ops@bastion.example.com", "ssh -p 2222 root@gpu01"),
        ("gpu01", "root", 2222, "ops@bastion.example.com", "ps aux | grep sglang.launch_server"),
        ("gpu01", "root", 2222, "ops@bastion.example.com", "nvidia-smi --query-gpu=name --format=csv"),
        ("gpu01", "root", 2222, "ops@bastion.example.com", "exit"),
        # an ssh with a command typed on the bastion goes through it too
        ("gpu02", "root", None, "ops@bastion.example.com", "ssh root@gpu02 nvidia-smi -L"),
        # the bastion itself was reached directly, and the laptop is where the log was taken
        ("bastion", "ops", None, None, "exit"),
        ("laptop", "me", None, None, "ls ~/.ssh")]


def test_distill_names_the_port_and_the_jump_host(tmp_path: Path) -> None:
    path = tmp_path / "hops.log"
    path.write_text(_LOG, encoding="utf-8")
    out = tmp_path / "pb.yaml"
    result = run_cli("distill", str(path), "-o", str(out))
    assert result.code == 0, result.stderr
    description = yaml.safe_load(out.read_text())["description"]
    assert "--host root@gpu01:2222" in description
    assert "through the jump host ops@bastion.example.com" in description
    assert run_cli("playbooks", "validate", str(out)).code == 0
