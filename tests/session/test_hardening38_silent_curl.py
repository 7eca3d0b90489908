"""A silent curl that could not reach the server is a connection failure.

The health check agents poll while a server loads is ``curl -s localhost:30000/health``: with
``-s`` curl prints nothing, so when nothing listens the result is "Exit code 7" and no text.
The analysis read it as a bare "exit code 7" error, where the same curl without ``-s`` ("curl:
(7) Failed to connect to localhost port 30000 ...: Connection refused") is a connection
failure: the postmortem listed "1× exit_code" instead of the server being unreachable. curl's
exit status says which (curl(1), EXIT CODES: 6 could not resolve the host, 7 failed to
connect, 28 timed out, 52 empty reply, 56 failure receiving data). Only where curl's status is
the line's: a pipeline's is its last command's (``curl -s ... | jq .`` exits with jq's).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.shell import sole_program

SID = "3f2a9c10-7b4e-4d21-9a8f-5e6b7c8d9e01"


def _session(tmp_path: Path, command: str, output: str) -> Path:
    def line(uuid: str, role: str, content, second: int) -> dict:
        return {"type": role, "uuid": uuid, "parentUuid": None, "sessionId": SID, "isSidechain": False,
                "timestamp": f"2026-01-10T09:00:{second:02d}Z", "cwd": "/work",
                "message": {"role": role, "content": content}}

    lines = [line("u1", "user", "is the eagle3 server on gpu01 up?", 0),
             line("a1", "assistant", [{"type": "tool_use", "id": "t1", "name": "Bash",
                                       "input": {"command": command}}], 1),
             line("r1", "user", [{"type": "tool_result", "tool_use_id": "t1", "content": output,
                                  "is_error": True}], 2)]
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


@pytest.mark.parametrize("command,code,host", [
    ("curl -s localhost:30000/health", 7, None),
    ("ssh gpu01 'curl -sf http://localhost:30000/v1/models'", 7, "gpu01"),
    ("cd /srv && curl -s --max-time 5 http://gpu01:30000/health", 28, None),
    ("curl -s http://gpu09:30000/health", 6, None),
])
def test_a_silent_curls_exit_status_says_the_server_was_not_reached(tmp_path, command, code, host):
    a = analyze_path(_session(tmp_path, command, f"Exit code {code}\n"))
    (error,) = a.errors
    assert error.kind == "connection"
    assert error.message.startswith(f"curl: ({code}) ")
    assert error.host == host
    (record,) = a.commands
    assert (record.exit_code, record.is_error) == (code, True)


def test_a_pipelines_status_is_its_last_commands(tmp_path):
    a = analyze_path(_session(tmp_path, "curl -s localhost:30000/get_server_info | jq .", "Exit code 7\n"))
    assert [e.kind for e in a.errors] == ["exit_code"]


def test_a_curl_status_that_is_no_connection_failure_stays_an_exit_code(tmp_path):
    a = analyze_path(_session(tmp_path, "curl -s -o /tmp/x localhost:30000/metrics", "Exit code 23\n"))
    assert [e.kind for e in a.errors] == ["exit_code"]


def test_sole_program():
    assert sole_program("cd /srv && source .venv/bin/activate && curl -s localhost:30000/health") == "curl"
    assert sole_program("sudo /usr/bin/curl -s localhost:30000/health") == "curl"
    assert sole_program("curl -s x | jq .") == ""
    assert sole_program("") == ""
