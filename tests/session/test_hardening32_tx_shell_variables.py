"""A terminal log names the GPU host once, in a variable, and reaches it by that name later:
``export GPU_HOST=10.1.2.3`` then ``ssh $GPU_HOST nvidia-smi``. The shell still holds the
variable (bash(1), PARAMETERS), but each command was read alone, so the ssh reached no host and
its output, errors and metrics were counted as the laptop's. An agent's tool runs each command in
a fresh shell (Claude Code: "Environment variables do NOT persist", anthropics/claude-code#2508),
so there a variable set by an earlier call names nothing."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

LOG = """\
$ export GPU_HOST=10.1.2.3
$ ssh $GPU_HOST nvidia-smi
NVIDIA-SMI 550.54
$ ssh -p 2222 ubuntu@${GPU_HOST} 'python3 -m sglang.bench_serving --num-prompts 50'
Output token throughput (tok/s): 812.4
$ H=gpu07
$ ssh $H
Welcome to Ubuntu 22.04
$ tail -2 /var/log/sglang.log
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB
$ exit
logout
Connection to gpu07 closed.
$ for h in gpu01 gpu02; do ssh $h uptime; done
 10:00 up 3 days
 10:00 up 5 days
$ ssh $h nvidia-smi
NVIDIA-SMI 550.54
"""


def test_a_host_named_by_an_earlier_variable_is_where_the_command_ran(tmp_path: Path) -> None:
    path = tmp_path / "gpu.log"
    path.write_text(LOG)
    a = analyze_path(path)
    got = [(c.command, c.host, c.user, c.port) for c in a.commands if c.command not in ("exit",)]
    assert got == [
        ("export GPU_HOST=10.1.2.3", None, None, None),
        ("ssh $GPU_HOST nvidia-smi", "10.1.2.3", None, None),
        ("ssh -p 2222 ubuntu@${GPU_HOST} 'python3 -m sglang.bench_serving --num-prompts 50'",
         "10.1.2.3", "ubuntu", 2222),
        ("H=gpu07", None, None, None),
        ("ssh $H", "gpu07", None, None),
        ("tail -2 /var/log/sglang.log", "gpu07", None, None),  # typed in the shell `ssh $H` opened
        ("for h in gpu01 gpu02; do ssh $h uptime; done", None, None, None),  # several hosts: none
        ("ssh $h nvidia-smi", None, None, None),
    ]
    assert [e.host for e in a.errors if e.kind == "cuda_oom"] == ["gpu07"]
    assert [m.host for m in a.metrics if m.name == "throughput"] == ["10.1.2.3"]


def test_an_agent_call_does_not_see_a_variable_an_earlier_call_set(tmp_path: Path) -> None:
    calls = [("export GPU_HOST=10.1.2.3", ""),
             ("ssh $GPU_HOST nvidia-smi", "ssh: Could not resolve hostname nvidia-smi: Name or service not known")]
    lines = []
    for n, (cmd, out) in enumerate(calls):
        lines.append({"type": "assistant", "uuid": f"a{n}", "sessionId": "s", "timestamp": f"2026-01-01T00:0{n}:00Z",
                      "message": {"role": "assistant", "content": [
                          {"type": "tool_use", "id": f"t{n}", "name": "Bash", "input": {"command": cmd}}]}})
        lines.append({"type": "user", "uuid": f"u{n}", "sessionId": "s", "timestamp": f"2026-01-01T00:0{n}:00Z",
                      "message": {"role": "user", "content": [
                          {"type": "tool_result", "tool_use_id": f"t{n}", "content": out, "is_error": bool(n)}]}})
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    assert [c.host for c in analyze_path(path).commands] == [None, None]


def test_a_distilled_step_sends_the_command_to_the_host_the_variable_named(tmp_path: Path) -> None:
    import subprocess
    import sys

    import yaml

    path = tmp_path / "two_hosts.log"
    path.write_text("""\
$ export GPU_HOST=10.1.2.3
$ ssh $GPU_HOST 'python3 -m sglang.bench_serving --num-prompts 50'
Output token throughput (tok/s): 612.4
$ H2=gpu07
$ ssh $H2 'python3 -c "import sglang"'
Traceback (most recent call last):
  File "<string>", line 1, in <module>
ModuleNotFoundError: No module named 'sglang'
$ ssh $GPU_HOST cat /models/draft/config.json
{"architectures": ["LlamaForCausalLMEagle3"]}
""")
    out = tmp_path / "playbook.yaml"
    subprocess.run([sys.executable, "-m", "spec_debug", "distill", str(path), "-o", str(out)],
                   check=True, capture_output=True)
    runs = [step["run"] for step in yaml.safe_load(out.read_text())["steps"]]
    # the step's shell has no $H2: the command goes to gpu07 itself (was `ssh gpu07 'ssh $H2 ...'`)
    assert """ssh {{ host_gpu07 }} 'python3 -c "import sglang"'""" in runs
    assert not any("$H2" in run for run in runs)


def test_a_variable_set_for_one_command_is_not_the_shells(tmp_path: Path) -> None:
    path = tmp_path / "prefix.log"
    path.write_text("$ GPU=gpu09 ./run_bench.sh\nstarted\n$ ssh $GPU nvidia-smi\nssh: Could not resolve hostname nvidia-smi\n")
    assert [c.host for c in analyze_path(path).commands] == [None, None]


def test_a_destination_variable_keeps_its_user(tmp_path: Path) -> None:
    """``export GPU=root@10.1.2.3`` then ``ssh $GPU``: ssh splits the expanded word at its "@",
    so the login is root's (was the host alone, the user dropped); ``-l`` still wins, as in
    ssh.c, where the destination's user is taken only when none was given."""
    from spec_debug.session import shell

    assert shell.parse_target("GPU=root@10.1.2.3; ssh $GPU nvidia-smi").user == "root"
    assert shell.parse_target("GPU=root@10.1.2.3; ssh -l admin $GPU nvidia-smi").user == "admin"
    assert shell.parse_target("H=10.1.2.3; ssh $H nvidia-smi").user is None
    path = tmp_path / "gpu.log"
    path.write_text("$ export GPU=ubuntu@gpu01\n$ ssh $GPU nvidia-smi\nNVIDIA-SMI 550.54\n")
    (command,) = [c for c in analyze_path(path).commands if "nvidia-smi" in c.command]
    assert (command.host, command.user) == ("gpu01", "ubuntu")
