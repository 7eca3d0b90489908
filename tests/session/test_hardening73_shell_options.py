"""A shell tool's argv with the shell's options before ``-c``: ``["bash", "-l", "-c", cmd]``,
``["/bin/bash", "--login", "-c", cmd]``, ``["bash", "-euo", "pipefail", "-c", cmd]`` (bash(1),
"OPTIONS": the commands are the first word after the options). Codex's ``shell`` tool and the
Responses ``local_shell`` action take the argv the model writes; only ``[bash, -lc|-c, cmd]`` was
read as the script, so these commands were shown, and written into the postmortem and playbook,
as ``bash -l -c 'ssh gpu01 nvidia-smi'``. Now the command is the script, as for ``-lc``."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.formats.common import shell_command


def test_options_before_c_give_the_script() -> None:
    assert shell_command({"command": ["bash", "-l", "-c", "ssh gpu01 nvidia-smi"]}) == "ssh gpu01 nvidia-smi"
    assert shell_command({"command": ["/bin/bash", "--login", "-c", "nvidia-smi"]}) == "nvidia-smi"
    assert shell_command({"command": ["bash", "-euo", "pipefail", "-c", "make 2>&1 | tail"]}) == "make 2>&1 | tail"
    assert shell_command({"command": ["sh", "-e", "-c", "echo $0", "x"]}) == "echo $0"
    assert shell_command({"command": ["zsh", "-ec", "ls"]}) == "ls"


def test_argvs_with_no_c_stay_as_they_were() -> None:
    assert shell_command({"command": ["bash", "-x", "run.sh"]}) == "bash -x run.sh"
    assert shell_command({"command": ["bash", "--login", "-c"]}) == "bash --login -c"
    assert shell_command({"command": ["bash", "-o", "c", "run.sh"]}) == "bash -o c run.sh"
    assert shell_command({"command": ["python", "-l", "-c", "print(1)"]}) == "python -l -c 'print(1)'"


def test_a_rollout_shows_the_script(tmp_path: Path) -> None:
    calls = [("c1", ["bash", "-l", "-c", "ssh gpu01 nvidia-smi"], 255),
             ("c2", ["/bin/bash", "--login", "-c", "ssh -p 2222 gpu02 ls /models"], 0)]
    lines = [json.dumps({"timestamp": "2026-04-11T15:26:40.000Z", "type": "session_meta",
                         "payload": {"id": "019d7d26-fd6b-7712-b49a-2db94684e0dc", "cwd": "/root",
                                     "originator": "codex_cli_rs", "cli_version": "0.120.0"}})]
    for n, (call_id, argv, code) in enumerate(calls):
        lines.append(json.dumps({"timestamp": f"2026-04-11T15:29:{2 * n:02d}.000Z", "type": "response_item",
                                 "payload": {"type": "function_call", "name": "shell", "call_id": call_id,
                                             "arguments": json.dumps({"command": argv})}}))
        lines.append(json.dumps({"timestamp": f"2026-04-11T15:29:{2 * n + 1:02d}.000Z", "type": "event_msg",
                                 "payload": {"type": "exec_command_end", "call_id": call_id, "command": argv,
                                             "exit_code": code, "aggregated_output": "out\n"}}))
    path = tmp_path / "rollout-2026-04-11T18-26-40-019d7d26-fd6b-7712-b49a-2db94684e0dc.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(c.command, c.host, c.exit_code) for c in a.commands] == [
        ("ssh gpu01 nvidia-smi", "gpu01", 255), ("ssh -p 2222 gpu02 ls /models", "gpu02", 0)]
