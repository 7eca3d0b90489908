"""A failed command whose output says it timed out, with an exit status other than timeout(1)'s
124, is named by the line that said so, not by the output's first line.

The outputs are as recorded from real runs (hardening 72, failures5): a bash readiness loop that
polled a port nothing listened on, then wrote "TimeoutError: ..." and exited 1; a Python waiter
that printed "Polling ..." and raised a bare RuntimeError("deadline exceeded ...").
"""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors

WAIT_READY = """\
Polling http://127.0.0.1:39999/health (1/3)
Polling http://127.0.0.1:39999/health (2/3)
Polling http://127.0.0.1:39999/health (3/3)
TimeoutError: server at 127.0.0.1:39999 not ready after 3 polls
"""


def test_the_timeout_line_names_a_failed_wait():
    # before: ("timeout", "Polling http://127.0.0.1:39999/health (1/3)"), how the wait began
    errors = extract_errors("Exit code 1\n" + WAIT_READY, 1, True)
    assert [(e.kind, e.exception, e.message) for e in errors] == [
        ("timeout", None, "TimeoutError: server at 127.0.0.1:39999 not ready after 3 polls")]


def test_a_deadline_line_after_progress_lines():
    out = ("Polling http://127.0.0.1:30000/health every 5s\nstill loading weights\n"
           "RuntimeError: deadline exceeded waiting for server\n")
    assert [(e.kind, e.message) for e in extract_errors(out, 1, True)] == [
        ("timeout", "RuntimeError: deadline exceeded waiting for server")]


def test_a_first_line_that_says_it_timed_out_is_kept():
    out = "Connection to the job timed out\nretrying later\n"
    assert [(e.kind, e.message) for e in extract_errors(out, 2, True)] == [
        ("timeout", "Connection to the job timed out")]


def test_exit_124_still_says_where_it_got_to():
    out = "Polling http://127.0.0.1:30000/health\n 38%|###       | 38/100\n"
    assert [(e.kind, e.message) for e in extract_errors(out, 124, True)] == [
        ("timeout", "timed out (exit 124): 38%|###       | 38/100")]


def test_the_session_error_is_the_timeout_line(tmp_path: Path):
    messages = [
        {"role": "user", "content": "Wait for the SGLang server on this box."},
        {"role": "assistant", "content": "Polling it.",
         "tool_calls": [{"id": "a", "type": "function",
                         "function": {"name": "bash", "arguments": json.dumps({"command": "bash wait_ready.sh"})}}]},
        {"role": "tool", "tool_call_id": "a", "content": WAIT_READY + "[exit code: 1]"},
    ]
    path = tmp_path / "wait.json"
    path.write_text(json.dumps({"messages": messages}), encoding="utf-8")
    analysis = analyze_path(path)
    assert [(e.kind, e.message) for e in analysis.errors] == [
        ("timeout", "TimeoutError: server at 127.0.0.1:39999 not ready after 3 polls")]
