"""The postmortem's Detection names the incident's first error: the agent's own API failure
(a 529 overload, retried; an ``agent_error``) comes before it in the session but is not it."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem

SESSION = "c3d4e5f6-0000-4000-8000-00000000b002"
ENV = {"sessionId": SESSION, "cwd": "/work", "version": "2.1.20", "gitBranch": "main"}
OVERLOADED = 'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'
OOM = ("Traceback (most recent call last):\n  File \"/root/eval_draft.py\", line 41, in <module>\n"
       "    out = draft(hidden)\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB")


def _line(n: int, kind: str, message: dict, **extra) -> dict:
    return {**ENV, "type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n else None,
            "timestamp": f"2026-10-02T08:00:{n:02d}.000Z", "message": message, **extra}


def _session(path: Path, *, with_command: bool = True) -> Path:
    rows = [
        _line(0, "user", {"role": "user", "content": "Why is the EAGLE-3 draft slower on gpu01?"}),
        _line(1, "assistant", {"id": "e1", "type": "message", "role": "assistant", "model": "<synthetic>",
                               "content": [{"type": "text", "text": OVERLOADED}]},
              isApiErrorMessage=True, error="overloaded", apiErrorStatus=529),
        _line(2, "user", {"role": "user", "content": "continue"}),
    ]
    if with_command:
        rows += [
            _line(3, "assistant", {"id": "m2", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                                   "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                                                "input": {"command": "ssh gpu01 python /root/eval_draft.py"}}]}),
            _line(4, "user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                                           "content": "Exit code 1\n" + OOM, "is_error": True}]}),
        ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _first_error_line(path: Path) -> str:
    text = render_postmortem(analyze_path(path), "md")
    return next(line for line in text.splitlines() if "First error:" in line)


def test_the_first_error_is_the_commands_not_the_agents_api_failure(tmp_path):
    path = _session(tmp_path / f"{SESSION}.jsonl")
    kinds = [e["kind"] for e in analyze_path(path).to_json()["errors"]]
    assert kinds[0] == "agent_error" and len(kinds) > 1
    line = _first_error_line(path)
    assert "OutOfMemoryError" in line and "[[msg 4]]" in line, line


def test_an_api_failure_alone_is_still_the_first_error(tmp_path):
    line = _first_error_line(_session(tmp_path / f"{SESSION}.jsonl", with_command=False))
    assert "agent_error" in line and "529" in line, line
