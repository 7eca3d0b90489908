"""An MCP server's SSH tool (``ssh_execute_command{host, command}``) returns the command's output
alone, with no exit status (tenox7/ssh-mcp ``README.md``), as a terminal log does. A Python
program there that ended on ``sys.exit("Error: could not load draft")``, and a shell script that
ended on its ``cp`` failure, were successes: those readings ran for terminal logs only. Now they
run wherever no status is recorded; a run that ended well stays no failure."""

from __future__ import annotations

from pathlib import Path

from tests.session.test_hardening55_mcp_ssh_login import SESSION, _claude_session

from spec_debug.session import analyze_path

CALLS = [
    ("mcp__ssh__ssh_execute_command",
     {"host": "gpu07", "command": "cd /opt/sglang && python3 check_draft.py --draft /ckpt/eagle3"},
     "loading draft from /ckpt/eagle3\nError: could not load draft"),
    ("mcp__ssh__ssh_execute_command", {"host": "gpu07", "command": "bash deploy.sh"},
     "copying draft\ncp: cannot stat '/models/nope/config.json': No such file or directory"),
    ("mcp__ssh__ssh_execute_command", {"host": "gpu07", "command": "python3 check_draft.py --draft /ckpt/ok"},
     "loading draft from /ckpt/ok\ndraft ok: 1 layer, vocab 32000"),
]


def test_a_failure_the_program_stated_last_fails_an_mcp_ssh_call(tmp_path: Path) -> None:
    doc = analyze_path(_claude_session(tmp_path / f"{SESSION}.jsonl", CALLS)).to_json()
    assert [c["is_error"] for c in doc["commands"]] == [True, True, False]
    assert [(e["host"], e["message"]) for e in doc["errors"]] == [
        ("gpu07", "Error: could not load draft"),
        ("gpu07", "cp: cannot stat '/models/nope/config.json': No such file or directory")]
