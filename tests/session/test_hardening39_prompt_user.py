"""The user a shell log's prompt shows is who ran the command: `root@gpu01:~/eagle#`. distill
suggests `--host root@gpu01` (the user whose home `~` is), and sends a command typed at
`alice@gpu02:~$` to gpu02 as alice, as it does for the user of an ssh command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook

GPU01 = """root@gpu01:~/eagle# curl -sf http://localhost:30000/health
curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused
root@gpu01:~/eagle# ps aux | grep sglang
root 4121 python3 -m sglang.launch_server
root@gpu01:~/eagle# tail -n 20 logs/sglang.log
RuntimeError: CUDA error: an illegal memory access was encountered
root@gpu01:~/eagle# nvidia-smi -q -d ECC | head -n 20
Volatile Uncorr. ECC: 0
"""


def test_the_prompts_user_is_the_hosts_user_and_home(tmp_path):
    """Before: `--host gpu01` (the runner's own user) and a workdir of `~/eagle`, the home of
    whoever runs the playbook."""
    log = tmp_path / "gpu01.log"
    log.write_text(GPU01, encoding="utf-8")
    assert {c.user for c in analyze_path(log).commands} == {"root"}
    doc = distill_playbook(analyze_path(log))
    assert doc["description"].endswith("--host root@gpu01."), doc["description"]
    assert doc["vars"]["workdir"] == "/root/eagle", doc["vars"]


def test_a_command_typed_at_another_users_prompt_is_sent_as_that_user(tmp_path):
    """Before: `ssh {{ host_gpu02 }} ...`, as the runner's user, who may not be allowed on gpu02
    or have alice's files."""
    log = tmp_path / "fleet.log"
    log.write_text("""root@gpu01:~# ps -eo pid,args | grep [s]glang
4121 python3 -m sglang.launch_server --port 30000
root@gpu01:~# curl -sf http://localhost:30000/health
curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused
root@gpu01:~# tail -n 5 /var/log/sglang.log
RuntimeError: CUDA error: an illegal memory access was encountered
alice@gpu02:~$ nvidia-smi -q -d ECC
Volatile Uncorr. ECC: 0
""", encoding="utf-8")
    doc = distill_playbook(analyze_path(log))
    assert doc["steps"][-1]["run"] == "ssh alice@{{ host_gpu02 }} 'nvidia-smi -q -d ECC'", doc["steps"]


def test_rhel_prompts_name_the_user_and_a_nameless_uid_none(tmp_path):
    """`[root@gpu-3 ~]#` (RHEL's default) names root; `I have no name!@7c1d2e3f4a5b:/workspace$`
    (a container uid /etc/passwd lacks) names no user. `analyze --json` gives commands[].user."""
    log = tmp_path / "mixed.log"
    log.write_text("[root@gpu-3 ~]# nvidia-smi -L\nGPU 0: NVIDIA H200\n"
                   "I have no name!@7c1d2e3f4a5b:/workspace$ ls /models\neagle3\n", encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "spec_debug", "analyze", str(log), "--json"],
                         capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    assert [(c["host"], c["user"], c["cwd"]) for c in json.loads(out.stdout)["commands"]] == [
        # (`~` is the home whether the prompt shows \W or \w: bash(1), PROMPTING)
        ("gpu-3", "root", "~"), ("7c1d2e3f4a5b", None, "/workspace")]


def test_a_prompt_pasted_in_a_notes_plain_block_gives_its_user_and_folder(tmp_path):
    """An incident note (Markdown) with the terminal pasted in a plain ``` block: the prompt's
    user and folder are the command's, as in a shell log (before: neither, only the host)."""
    note = tmp_path / "incident.md"
    note.write_text("## Notes from the gpu01 incident\n\nThe check failed:\n\n```\n"
                    "root@gpu01:~/eagle# python3 checks/accept_len.py\nRuntimeError: accept len 1.02 < 2.5\n"
                    "root@gpu01:~/eagle# nvidia-smi -L\nGPU 0: NVIDIA H200\n```\n", encoding="utf-8")
    assert [(c.host, c.user, c.cwd) for c in analyze_path(note).commands] == [("gpu01", "root", "~/eagle")] * 2
