"""A command of several lines, as agents send them to their Bash tool (``cd /opt/sglang`` on
one line, ``grep -n 'accept len' /tmp/server.log`` on the next; a comment line first): the
fast shell split took newlines for spaces, so the two lines were one command, ``cd``'s. Its
category was "other", not "logs", and a grep that found nothing (exit 1, which grep(1) says is
"no lines were selected") was a failed call with an error, where the same two commands joined
by ``&&`` were not. Each line is a command of the list (bash(1), Lists), comment lines none, a
heredoc's body still what its command reads."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.shell import last_program, parse_target, sole_program

_SESSION = "cccc0000-0000-4000-8000-000000000054"


def _line(n: int, kind: str, content) -> dict:
    # the envelope of a Claude Code CLI 1.0.x line (TRANSCRIPTS.md 1a); that CLI writes no
    # toolUseResult.returnCodeInterpretation, so grep's exit 1 is an error result "Exit code 1"
    return {"parentUuid": f"u{n - 1}" if n else None, "isSidechain": False, "userType": "external",
            "cwd": "/w", "sessionId": _SESSION, "version": "1.0.98", "type": kind, "uuid": f"u{n}",
            "timestamp": f"2025-11-30T08:00:{n:02d}.000Z",
            "message": {"role": "assistant" if kind == "assistant" else "user", "content": content}}


def _session(tmp_path: Path, calls: list[tuple[str, str]]) -> Path:
    rows = [_line(0, "user", "is the drafter accepting anything on this box?")]
    for i, (command, result) in enumerate(calls):
        rows.append(_line(2 * i + 1, "assistant", [{"type": "tool_use", "id": f"toolu_{i}", "name": "Bash",
                                                    "input": {"command": command}}]))
        rows.append(_line(2 * i + 2, "user", [{"type": "tool_result", "tool_use_id": f"toolu_{i}",
                                               "is_error": True, "content": result}]))
    path = tmp_path / f"{_SESSION}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_a_grep_on_the_second_line_that_found_nothing_is_no_failed_call(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, [
        ("cd /opt/sglang\ngrep -n 'accept len' /tmp/server.log", "Exit code 1"),
        ("# how many steps were accepted\ngrep -c 'accept len' /tmp/server.log", "Exit code 1"),
        ("cd /opt/sglang && grep -n 'accept len' /tmp/server.log", "Exit code 1")]))
    assert [(c.exit_code, c.is_error, c.category) for c in a.commands] == [(1, False, "logs")] * 3
    assert a.errors == [] and a.agents[0]["failed_calls"] == 0


def test_each_line_is_a_command_and_a_heredoc_body_stays_its_commands() -> None:
    assert (sole_program("cd /opt/sglang\ngrep -n x server.log"), last_program("hostname\nls /x")) == ("grep", "ls")
    assert last_program("grep -n x server.log \\\n  | wc -l") == "wc"  # a continuation joins
    # ssh's own line ends where the line does: the next one runs here
    target = parse_target("ssh gpu01 'tail -n 50 /tmp/server.log'\nnvidia-smi")
    assert (target.host, target.inner) == ("gpu01", "tail -n 50 /tmp/server.log")
    # a body's lines are what the command reads, not commands
    assert last_program("cat > /tmp/c.json <<'EOF'\n{\"draft_vocab_size\": 32000}\nEOF") == "cat"
    assert last_program("cat > /tmp/c.json <<'EOF'\n{\"draft_vocab_size\": 32000}\nEOF\npython3 x.py") == "python3"
    target = parse_target("ssh gpu01 bash -s <<'EOF'\ncd /root/eagle3\ngrep -c 'accept len' server.log\nEOF")
    assert (target.host, target.inner) == ("gpu01", "cd /root/eagle3\ngrep -c 'accept len' server.log")
