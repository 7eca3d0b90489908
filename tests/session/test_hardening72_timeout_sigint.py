"""A command timeout(1) stopped with SIGINT is a timeout, not a KeyboardInterrupt.

``timeout -s INT 1 python3 slowbench.py`` (GNU coreutils 9.x, CPython 3.11.7, recorded in
hardening 72, failures5) printed the benchmark's progress, then Python's KeyboardInterrupt
traceback at the line it was on, and exited 124 ("124 if COMMAND times out, and
--preserve-status is not specified", ``timeout --help``). The error was the traceback's
(exception "KeyboardInterrupt", no message): a person's Ctrl-C, which nobody pressed.
"""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors

STOPPED = """\
Running benchmark: 200 prompts
0/100 done
1/100 done
Traceback (most recent call last):
  File "/tmp/failures5-scratch/slowbench.py", line 5, in <module>
    time.sleep(0.5)
KeyboardInterrupt
"""


def test_a_sigint_at_the_time_limit_is_a_timeout_where_it_stopped():
    # before: [("traceback", "KeyboardInterrupt", "", ".../slowbench.py", 5)]
    errors = extract_errors("Exit code 124\n" + STOPPED, 124, True)
    assert [(e.kind, e.exception, e.message, e.file, e.line) for e in errors] == [
        ("timeout", None, "timed out (exit 124): 1/100 done", "/tmp/failures5-scratch/slowbench.py", 5)]


def test_the_same_traceback_under_ctrl_c_stays_a_keyboard_interrupt():
    errors = extract_errors(STOPPED, 130, True)
    assert [(e.kind, e.exception, e.line) for e in errors] == [("traceback", "KeyboardInterrupt", 5)]


def test_a_real_error_under_exit_124_stays_the_error():
    out = STOPPED.replace("    time.sleep(0.5)\nKeyboardInterrupt", "    load()\nKeyError: 'd2t'")
    errors = extract_errors(out, 124, True)
    assert [(e.kind, e.exception, e.message) for e in errors] == [("traceback", "KeyError", "'d2t'")]


def _line(kind: str, uuid: str, parent: str | None, ts: str, content, **extra) -> str:
    obj = {"parentUuid": parent, "isSidechain": False, "userType": "external", "cwd": "/w",
           "sessionId": "7f1c0000-0000-4000-8000-000000000124", "version": "2.1.39", "gitBranch": "main",
           "type": kind, "uuid": uuid, "timestamp": ts, "message": {"role": kind, "content": content}}
    obj.update(extra)
    return json.dumps(obj)


def test_the_session_error_is_the_timeout(tmp_path: Path):
    call = {"type": "tool_use", "id": "toolu_01Bench", "name": "Bash",
            "input": {"command": "timeout -s INT 600 python3 slowbench.py", "description": "Benchmark"}}
    text = "Exit code 124\n" + STOPPED.rstrip("\n")
    result = {"type": "tool_result", "tool_use_id": "toolu_01Bench", "content": text, "is_error": True}
    lines = [
        _line("user", "u1", None, "2026-12-07T07:00:00.000Z", "Benchmark EAGLE3 decoding."),
        _line("assistant", "a1", "u1", "2026-12-07T07:00:05.000Z", [call], requestId="req_1"),
        _line("user", "u2", "a1", "2026-12-07T07:10:06.000Z", [result], toolUseResult="Error: " + text),
    ]
    path = tmp_path / "7f1c0000-0000-4000-8000-000000000124.jsonl"
    path.write_text("\n".join(lines) + "\n")
    analysis = analyze_path(path)
    assert [(e.kind, e.exception, e.message, e.line) for e in analysis.errors] == [
        ("timeout", None, "timed out (exit 124): 1/100 done", 5)]
    assert [c.exit_code for c in analysis.commands] == [124]
