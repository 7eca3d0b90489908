"""The text Claude Code's ``/export`` writes (tests/session/data_h12/README.md): read before as
one long piece of the model's prose, with no prompt, no command and no error. Now each ``>``
line is a prompt, each ``⏺ Name(…)`` a call (a Bash call's command joined across the lines the
terminal cut it into) and each ``⎿`` block its result."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view

DATA = Path(__file__).resolve().parent / "data_h12"


def test_an_export_has_its_prompt_commands_and_errors() -> None:
    a = analyze_path(DATA / "2025-08-14-why-is-accept-len-10-on-gpu01.txt")
    assert [p.text for p in a.prompts] == ["why is accept len 1.0 on gpu01? the EAGLE-3 server was fine before the upgrade"]
    assert [(c.host, c.category) for c in a.commands] == [("gpu01", "logs"), ("gpu01", "python")]
    assert a.commands[0].inner == "grep -m2 \"accept len\" /var/log/sglang/server.log"
    assert [e.exception for e in a.errors] == ["KeyError"]
    assert postmortem_view(a)["title"].startswith("why is accept len 1.0 on gpu01?")


def test_a_call_cut_at_the_terminal_width_is_one_command(tmp_path: Path) -> None:
    a = analyze_path(DATA / "claude_export_gpu02.txt")
    launch, smi = a.commands
    assert "--speculative-algorithm EAGLE3 --speculative-draft-model-path /models/eagle3 --port 30000" in launch.command
    assert (launch.host, launch.category, launch.exit_code) == ("gpu02", "launch_server", 1)
    assert (smi.command, smi.host) == ("nvidia-smi --query-gpu=name --format=csv", "gpu02")  # the MCP SSH tool
    assert [e.exception for e in a.errors] == ["RuntimeError"]
    # the slash command is the CLI's; the prompt wrapped onto a second line is one prompt
    assert [p.text for p in a.prompts] == [
        "the draft model on gpu02 never loads; the server log is in /var/log/sglang/server.log, can you look? "
        "it was fine\nyesterday"]


def test_a_plain_log_with_the_same_symbols_inside_is_still_a_log(tmp_path: Path) -> None:
    """Only lines that start with the marks count: a shell log quoting an export keeps its commands."""
    log = tmp_path / "gpu01.log"
    log.write_text("root@gpu01:~# grep -c accept /var/log/sglang.log\n3\n"
                   "root@gpu01:~# echo '⏺ Bash(ls)'\n⏺ Bash(ls)\n", encoding="utf-8")
    a = analyze_path(log)
    assert [c.command for c in a.commands] == ["grep -c accept /var/log/sglang.log", "echo '⏺ Bash(ls)'"]
