"""distill: a command typed at the prompt of a host the session reached through a jump host is sent
there the same way.

An engineer on gpu01 (the playbook's host), then `ssh -J admin@bastion root@gpu02` from the laptop,
where `python3 -c 'import sglang'` failed at gpu02's prompt. The analyzer keeps the login's jump
hosts on each command typed there (login_hops); the step was `ssh {{ host_gpu02 }} '...'`: no
`-J`, so it asked gpu02 directly (not routed outside the bastion), and no `root@` either, where the
prompt (`❯`) names no user: the step logged in as whoever runs spec-debug. Playbooks name no host
per step (playbook/models.py Step), so the hop is the step's own `ssh -J`, as ssh(1) writes it.
"""

from __future__ import annotations

from pathlib import Path

from spec_debug.playbook import load_playbook_text
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook, dump_playbook

GPU01 = """➜  ~ ssh root@gpu01
Welcome to Ubuntu 22.04.4 LTS (GNU/Linux 5.15.0-105-generic x86_64)
root@gpu01:~# curl -sf http://localhost:30000/health
curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused
root@gpu01:~# tail -n 2 /var/log/sglang.log
RuntimeError: Sizes of tensors must match except in dimension 1. Expected size 6 but got size 8.
root@gpu01:~# pip show sglang
Name: sglang
Version: 0.4.6
"""
GPU02 = """(sgl-dev-2) ❯ python3 -c 'import sglang'
ModuleNotFoundError: No module named 'sglang'
(sgl-dev-2) ❯ nvidia-smi -L
GPU 0: NVIDIA H200 (UUID: GPU-5d1c)
(sgl-dev-2) ❯ exit
logout
Connection to gpu02 closed.
"""


def _runs(tmp_path: Path, text: str) -> tuple[list[str], dict]:
    log = tmp_path / "zsh_two_hosts.log"
    log.write_text(text, encoding="utf-8")
    doc = distill_playbook(analyze_path(log))
    load_playbook_text(dump_playbook(doc), "distilled.yaml")
    return [s["run"] for s in doc["steps"]], doc


def test_a_host_reached_through_a_bastion_is_reached_through_it(tmp_path):
    text = GPU01 + "root@gpu01:~# exit\nlogout\nConnection to gpu01 closed.\n➜  ~ ssh -J admin@bastion root@gpu02\n" + GPU02
    runs, doc = _runs(tmp_path, text)
    assert runs[2:] == ["ssh -J admin@bastion root@{{ host_gpu02 }} 'python3 -c '\"'\"'import sglang'\"'\"''",
                        "ssh -J admin@bastion root@{{ host_gpu02 }} 'nvidia-smi -L'"], runs
    assert "--host root@gpu01." in doc["description"], doc["description"]


def test_a_plain_login_keeps_its_user_and_no_jump(tmp_path):
    text = GPU01 + "root@gpu01:~# exit\nlogout\nConnection to gpu01 closed.\n➜  ~ ssh -p 2200 root@gpu02\n" + GPU02
    runs, _ = _runs(tmp_path, text)
    assert runs[2:] == ["ssh -p 2200 root@{{ host_gpu02 }} 'python3 -c '\"'\"'import sglang'\"'\"''",
                        "ssh -p 2200 root@{{ host_gpu02 }} 'nvidia-smi -L'"], runs


def test_a_host_reached_from_the_playbooks_host_needs_no_jump(tmp_path):
    """`ssh gpu02` typed at gpu01's prompt: the step runs on gpu01, which reaches gpu02 itself
    (a `-J root@gpu01` would have gpu01 jump through itself)."""
    runs, _ = _runs(tmp_path, GPU01 + "root@gpu01:~# ssh root@gpu02\n" + GPU02)
    assert runs[2:] == ["ssh root@{{ host_gpu02 }} 'python3 -c '\"'\"'import sglang'\"'\"''",
                        "ssh root@{{ host_gpu02 }} 'nvidia-smi -L'"], runs


def test_a_prompt_without_a_user_runs_as_the_login_on_the_playbooks_host(tmp_path):
    """Only gpu02's commands were chosen: the playbook's host is gpu02, logged in to as root."""
    runs, doc = _runs(tmp_path, "➜  ~ ssh -J admin@bastion root@gpu02\n" + GPU02)
    assert runs == ["python3 -c 'import sglang'", "nvidia-smi -L"], runs
    assert "--host root@gpu02. The session reached it through the jump host admin@bastion" in doc["description"]
