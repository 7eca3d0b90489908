"""Codex on Windows runs a command as ``[pwsh.exe, -NoProfile, -Command, script]`` or ``[cmd.exe,
/c, script]`` (openai/codex ``codex-rs/core/src/shell.rs`` ``derive_exec_args``), as a real
rollout's ``exec_command_end`` shows (``["<program-files>\\\\PowerShell\\\\7\\\\pwsh.exe","-Command",
"Get-Content …"]``, tests/session/data_h14/README.md). The argv was read as the command:
``pwsh.exe -NoProfile -Command 'ssh gpu01 nvidia-smi'``, on no host."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.formats.common import shell_command


def _line(ptype: str, payload: dict, second: int) -> str:
    kind = "event_msg" if ptype == "exec_command_end" else "response_item"
    return json.dumps({"timestamp": f"2026-04-11T15:29:{second:02d}.000Z", "type": kind,
                       "payload": {"type": ptype, **payload}})


def test_a_windows_rollout_names_the_script_and_its_host(tmp_path: Path) -> None:
    calls = [
        ("call_1", ["C:\\Program Files\\PowerShell\\7\\pwsh.exe", "-Command", "Get-Content -LiteralPath 'C:\\repo\\plan.md'"], 0),
        ("call_2", ["pwsh.exe", "-NoProfile", "-Command", "ssh gpu01 nvidia-smi"], 255),
        ("call_3", ["cmd.exe", "/c", "dir C:\\models"], 0),
    ]
    lines = [json.dumps({"timestamp": "2026-04-11T15:26:40.000Z", "type": "session_meta",
                         "payload": {"id": "019d7d26-fd6b-7712-b49a-2db94684e0dc", "cwd": "C:\\repo",
                                     "originator": "codex_cli_rs", "cli_version": "0.120.0"}})]
    for n, (call_id, argv, code) in enumerate(calls):
        lines.append(_line("function_call", {"name": "shell", "arguments": json.dumps({"command": argv}),
                                             "call_id": call_id}, 2 * n))
        lines.append(_line("exec_command_end", {"call_id": call_id, "command": argv, "exit_code": code,
                                                "aggregated_output": "out\n"}, 2 * n + 1))
    path = tmp_path / "rollout-2026-04-11T18-26-40-019d7d26-fd6b-7712-b49a-2db94684e0dc.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(c.command, c.host, c.exit_code) for c in a.commands] == [
        ("Get-Content -LiteralPath 'C:\\repo\\plan.md'", None, 0), ("ssh gpu01 nvidia-smi", "gpu01", 255),
        ("dir C:\\models", None, 0)]


def test_other_argvs_stay_as_they_were() -> None:
    assert shell_command({"command": ["/bin/zsh", "-lc", "git status --short"]}) == "git status --short"
    assert shell_command({"command": ["bash", "-c", "echo $0", "x"]}) == "echo $0"
    assert shell_command({"command": ["pwsh.exe", "-File", "run.ps1"]}) == "pwsh.exe -File run.ps1"
    assert shell_command({"command": ["python", "-c", "print(1)"]}) == "python -c 'print(1)'"
