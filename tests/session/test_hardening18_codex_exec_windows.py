"""``codex exec --json`` on Windows prints a command as the shell line it ran,
``shlex::try_join`` of the argv (openai/codex ``codex-rs/exec/src/event_processor_with_jsonl_output.rs``)
that ``derive_exec_args`` builds, ``[pwsh.exe, -Command, script]`` (``codex-rs/core/src/shell.rs``):
``pwsh -Command 'echo hello-sample'`` (the form exec --json readers quote from codex-cli 0.159 on
Windows) or the program's full path. Only ``bash|sh|zsh -lc`` were unwrapped, so a Windows
``ssh gpu01 ...`` had no host and its command read as ``pwsh``."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_hardening18_codex"


def _with_command(tmp_path: Path, command: str) -> Path:
    # the docs/exec.md sample's run, its command replaced
    lines = [json.loads(x) for x in (DATA / "codex_exec_json_resumed.jsonl").read_text(encoding="utf-8").splitlines()]
    lines = lines[:len(lines) // 2]
    for line in lines:
        item = line.get("item") or {}
        if item.get("type") == "command_execution":
            item["command"] = command
    path = tmp_path / "exec.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def test_a_powershell_command_of_codex_exec_is_the_script_it_ran(tmp_path: Path) -> None:
    for line in ("pwsh -Command 'ssh gpu01 nvidia-smi'",
                 "'C:\\Program Files\\PowerShell\\7\\pwsh.exe' -Command 'ssh gpu01 nvidia-smi'",
                 '"C:\\Program Files\\PowerShell\\7\\pwsh.exe" -NoProfile -Command \'ssh gpu01 nvidia-smi\''):
        (cmd,) = analyze_path(_with_command(tmp_path, line)).commands
        assert (cmd.command, cmd.host, cmd.inner) == ("ssh gpu01 nvidia-smi", "gpu01", "nvidia-smi"), line


def test_a_command_that_is_no_shell_line_is_kept_as_printed(tmp_path: Path) -> None:
    (cmd,) = analyze_path(_with_command(tmp_path, "pwsh -File ./bench.ps1 -Host gpu01")).commands
    assert cmd.command == "pwsh -File ./bench.ps1 -Host gpu01"
