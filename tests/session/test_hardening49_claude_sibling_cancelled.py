"""Claude Code runs the tool calls of one assistant message in parallel, and when one of them
fails it cancels the siblings still running: each is answered ``{"is_error": true, "content":
"<tool_use_error>Sibling tool call errored</tool_use_error>"}`` (CLI 2.1.x; anthropics/
claude-code issues #22264, #23332), on 2.1.156 and later ``<tool_use_error>Cancelled: parallel
tool call Bash(<the failing command>) errored</tool_use_error>`` (issues #64346, #64254). The
cancelled command never ran (or was cut off before it said anything): it was read as a failure
of its own host (a ``tool_error`` on gpu03, when only gpu02 was unreachable), and a batch of
such siblings retried made a loop of "the same failing command". It is a call not run now."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem

SID = "cccc0000-0000-4000-8000-0000000000b2"
FAILED = "ssh gpu02 nvidia-smi -L"
SIBLING = "ssh gpu03 nvidia-smi -L"


def _line(n: int, kind: str, **fields) -> str:
    return json.dumps({"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n else None, "sessionId": SID,
                       "timestamp": f"2026-06-01T08:00:{n:02d}.000Z", "cwd": "/root", "isSidechain": False,
                       "userType": "external", "version": "2.1.160", **fields})


def _batch(n: int, message_id: str, calls: list[tuple[str, str]]) -> list[str]:
    # one content block per line, the lines of one API message sharing its id (TRANSCRIPTS.md 1a)
    return [_line(n + i, "assistant", requestId=f"req_{message_id}", message={
        "id": message_id, "type": "message", "role": "assistant", "content": [
            {"type": "tool_use", "id": call_id, "name": "Bash", "input": {"command": command}}]})
        for i, (call_id, command) in enumerate(calls)]


def _result(n: int, call_id: str, text: str, is_error: bool) -> str:
    return _line(n, "user", toolUseResult=("Error: " + text) if is_error else {"stdout": text, "stderr": ""},
                 message={"role": "user", "content": [
                     {"type": "tool_result", "tool_use_id": call_id, "content": text, "is_error": is_error}]})


@pytest.mark.parametrize("cancelled", [
    "<tool_use_error>Sibling tool call errored</tool_use_error>",
    f"<tool_use_error>Cancelled: parallel tool call Bash({FAILED}) errored</tool_use_error>",
])
def test_a_sibling_cancelled_by_a_failed_call_is_not_run(tmp_path: Path, cancelled: str) -> None:
    lines = [_line(0, "user", message={"role": "user", "content": "Which of the EAGLE-3 nodes are up?"})]
    n = 1
    for round_ in range(3):  # the same batch three times: gpu02 fails, gpu03 is cancelled each time
        lines += _batch(n, f"msg_{round_}", [(f"a{round_}", FAILED), (f"b{round_}", SIBLING)])
        lines += [_result(n + 2, f"a{round_}", "Exit code 255\nssh: connect to host gpu02 port 22: No route to host",
                          True),
                  _result(n + 3, f"b{round_}", cancelled, True)]
        n += 4
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(lines) + "\n")
    a = analyze_path(path)
    siblings = [c for c in a.commands if c.command == SIBLING]
    assert [(c.host, c.is_error, c.exit_code) for c in siblings] == [("gpu03", True, None)] * 3
    assert [e.kind for e in a.errors if e.host == "gpu03"] == ["cancelled"] * 3
    assert [e.kind for e in a.errors if e.host == "gpu02"] == ["connection"] * 3
    # one loop, of the command that did fail; none of the cancelled one
    assert [(loop.count, loop.template) for loop in a.loops if "gpu03" in loop.template] == []
    text = render_postmortem(a, "md")
    assert "| not run |" in text
