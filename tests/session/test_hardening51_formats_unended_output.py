"""zsh writes its PROMPT_SP mark before each prompt: a bold reverse ``%`` (``#`` as root), spaces
to the last column, a carriage return, a space, a carriage return (zshoptions(1), PROMPT_SP).
After output that ended with no newline (``curl -s .../health``, a ``printf``, a tool killed
mid-line) the terminal wraps and the prompt starts a row of its own. A typescript keeps it all
on one line, so the prompt overwrote that output: a curl's "Failed to connect" was lost and
the failed call read as a success. The bytes are zsh 5.9 in a util-linux script 2.38.1
typescript, 80 columns wide."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

MARK = b"\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m" + b" " * 79 + b"\r \r\r"
PROMPT = b"\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu02 /root # \x1b[K\x1b[?1h\x1b=\x1b[?2004h"
ENTER = b"\x1b[?1l\x1b>\x1b[?2004l\r\r\n"
TYPESCRIPT = (
    b'Script started on 2025-10-01 10:00:00+00:00 [COMMAND="zsh -i" <not executed on terminal>]\n'
    + MARK + PROMPT + b"c\x08curl -sS localhost:30000/health" + ENTER
    + b"curl: (7) Failed to connect to localhost port 30000 after 0 ms: Couldn't connect to server"
    + MARK + PROMPT + b"c\x08curl -s localhost:30001/health" + ENTER
    + b'{"status":"ok"}' + MARK + PROMPT + b"e\x08exit" + ENTER
    + b'Script done on 2025-10-01 10:00:09+00:00 [COMMAND_EXIT_CODE="0"]\n')


def test_output_with_no_newline_before_a_zsh_prompt_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(TYPESCRIPT)
    doc = analyze_path(path).to_json()
    commands = {c["command"]: c for c in doc["commands"]}
    assert list(commands) == ["zsh -i", "curl -sS localhost:30000/health", "curl -s localhost:30001/health", "exit"]
    assert commands["curl -sS localhost:30000/health"]["is_error"] is True
    assert commands["curl -s localhost:30001/health"]["is_error"] is False
    assert [(e["kind"], e["command_seq"]) for e in doc["errors"]] == [
        ("connection", commands["curl -sS localhost:30000/health"]["seq"])]
