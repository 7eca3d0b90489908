"""An MCP call Claude Code moved to the background has not ended.

CLI 2.1.212 (CHANGELOG.md: "MCP tool calls running longer than 2 minutes now move to the
background automatically") answers an MCP call of the main conversation still running after two
minutes with a receipt: ``MCP tool "ssh/exec" is still running after 120s. It was moved to the
background as task ktc87fbll and keeps running; you'll receive a notification with the result
when it completes. …`` (the wording tools built around the CLI quote and test against). Read as
the call's result, a bench the model started over an MCP SSH tool ended there, its output the
receipt. Its task's notification, written when the call settles, gives the call its answer:
``<task-id>…</task-id><status>completed|failed|cancelled</status><summary>MCP task k1234567
(ssh/exec) completed.</summary><result>…</result>``, no ``<tool-use-id>`` (the CLI's MCP-task
arm, as a port of its bundle renders and tests it)."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path
from tests.session.test_hardening55_mcp_ssh_login import SESSION, _claude_session

BENCH = "python bench.py --speculative-algorithm EAGLE3"
RECEIPT = ('MCP tool "ssh/exec" is still running after 120s. It was moved to the background as task ktc87fbll and '
           "keeps running; you'll receive a notification with the result when it completes. You can keep working in "
           'the meantime. To stop it, use TaskStop with task_id "ktc87fbll". Note: it does not survive exiting this '
           "session.")


def _note(status: str, result: str) -> dict:
    text = (f"<task-notification>\n<task-id>ktc87fbll</task-id>\n<status>{status}</status>\n<summary>MCP task "
            f"ktc87fbl (ssh/exec) {status}.</summary>\n<result>\n{result}\n</result>\n</task-notification>")
    return {"type": "user", "uuid": "u9", "parentUuid": "u2", "isSidechain": False, "userType": "external",
            "cwd": "/work/eagle", "sessionId": SESSION, "version": "2.1.240", "timestamp": "2026-03-01T10:04:00.000Z",
            "origin": {"kind": "task-notification"}, "message": {"role": "user", "content": text}}


def _commands(tmp_path, output: str, *tail: dict) -> list[tuple]:
    tmp_path.mkdir(exist_ok=True)
    path = _claude_session(tmp_path / f"{SESSION}.jsonl", [("mcp__ssh__exec", {"host": "gpu07", "command": BENCH},
                                                            output)])
    with path.open("a", encoding="utf-8") as f:
        f.write("".join(json.dumps(x) + "\n" for x in tail))
    doc = analyze_path(path).to_json()
    return [(c["command"], c["host"], c["exit_code"], c["is_error"], c["result_seq"]) for c in doc["commands"]]


def test_an_mcp_call_moved_to_the_background_is_still_running(tmp_path):
    assert _commands(tmp_path, RECEIPT) == [(BENCH, "gpu07", None, False, None)]


def test_an_mcp_call_that_answered_ended(tmp_path):
    said = 'MCP tool "ssh/exec" said: accept len 1.02'  # the same head, no receipt
    assert _commands(tmp_path, said) == [(BENCH, "gpu07", None, False, 2)]


def test_its_notification_gives_the_call_its_answer(tmp_path):
    assert _commands(tmp_path, RECEIPT, _note("completed", "accept len 1.02")) == [(BENCH, "gpu07", None, False, 3)]


def test_a_failed_or_cancelled_task_failed_the_call(tmp_path):
    assert _commands(tmp_path, RECEIPT, _note("failed", "Task failed: ssh: connect to host gpu07 port 22: "
                                                        "Connection refused")) == [(BENCH, "gpu07", None, True, 3)]
    assert _commands(tmp_path / "c", RECEIPT, _note("cancelled", "Task was cancelled by the server.")) == [
        (BENCH, "gpu07", None, True, 3)]


def test_the_answer_is_read_as_the_commands_output(tmp_path):
    path = _claude_session(tmp_path / f"{SESSION}.jsonl", [("mcp__ssh__exec", {"host": "gpu07", "command": BENCH},
                                                            RECEIPT)])
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(_note("completed", "Decode batch, #running-req: 1, accept len: 1.21, gen throughput "
                                             "(token/s): 45.30")) + "\n")
    doc = analyze_path(path).to_json()
    assert [(m["name"], m["value"], m["host"]) for m in doc["metrics"] if m["name"] == "accept_length"] == [
        ("accept_length", 1.21, "gpu07")]
