"""An agent whose every tool call the person refused did not fail: its calls never ran.

Shaped as a real Claude Code 2.1.38 session committed by marot/spotter
(``test/fixtures/transcripts/short.jsonl`` at commit 8cc42b0): the person asks why
``mix phx.server`` does not start, refuses the agent's Bash and Glob calls ("The user doesn't want
to proceed with this tool use..."; ``toolUseResult`` "User rejected tool use") and stops the turn
("[Request interrupted by user for tool use]"). Ids, paths and texts kept; hook lines left out.
"""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SESSION = "9b4c2f0e-1d2a-4c55-8f3e-7a1b2c3d4e5f"
REFUSED = ("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file "
           "edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to "
           "tell you how to proceed.")


def _line(kind: str, uuid: str, parent: str | None, ts: str, content, **extra) -> dict:
    obj = {"parentUuid": parent, "isSidechain": False, "userType": "external", "cwd": "/home/marco/projects/spotter",
           "sessionId": SESSION, "version": "2.1.38", "gitBranch": "main", "type": kind, "uuid": uuid,
           "timestamp": ts, "message": {"role": kind, "content": content}}
    if kind == "assistant":
        obj["message"].update({"id": "msg_01Short", "type": "message", "model": "claude-opus-4-6"})
        obj["requestId"] = "req_011CShort"
    obj.update(extra)
    return obj


def _session(tmp_path: Path, second_result: dict, second_extra: dict) -> Path:
    bash = {"type": "tool_use", "id": "toolu_0116Hyi5v8ut7Ffb7d8qV1Sc", "name": "Bash",
            "input": {"command": "mix phx.server 2>&1 | head -80", "timeout": 30000}, "caller": {"type": "direct"}}
    glob = {"type": "tool_use", "id": "toolu_01FdQ8qTyVyZjE3Kw4dguQGx", "name": "Glob",
            "input": {"pattern": "mix.exs", "path": "/home/marco/projects/spotter"}, "caller": {"type": "direct"}}
    lines = [
        _line("user", "u1", None, "2026-02-10T21:11:56.846Z", "mix phx.server doesnt seem to start"),
        _line("assistant", "a1", "u1", "2026-02-10T21:12:01.000Z",
              [{"type": "text", "text": "Let me check the project structure and try running the server to see the error."}]),
        _line("assistant", "a2", "a1", "2026-02-10T21:12:02.000Z", [bash]),
        _line("assistant", "a3", "a2", "2026-02-10T21:12:02.500Z", [glob]),
        _line("user", "u2", "a3", "2026-02-10T21:13:10.000Z",
              [{"type": "tool_result", "content": REFUSED, "is_error": True, "tool_use_id": bash["id"]}],
              toolUseResult="User rejected tool use"),
        _line("user", "u3", "u2", "2026-02-10T21:13:10.100Z", [second_result], **second_extra),
        _line("user", "u4", "u3", "2026-02-10T21:13:10.200Z",
              [{"type": "text", "text": "[Request interrupted by user for tool use]"}]),
    ]
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def test_an_agent_whose_calls_were_all_refused_did_not_fail(tmp_path: Path) -> None:
    refused = {"type": "tool_result", "content": REFUSED, "is_error": True, "tool_use_id": "toolu_01FdQ8qTyVyZjE3Kw4dguQGx"}
    a = analyze_path(_session(tmp_path, refused, {"toolUseResult": "User rejected tool use"})).to_json()
    (main,) = a["agents"]
    # before: "failed" (2 of 2 calls "failed"), though neither call ran
    assert (main["status"], main["tool_calls"], main["failed_calls"]) == ("completed", 2, 2)
    assert [e["kind"] for e in a["errors"]] == ["rejected", "rejected"]


def test_an_agent_whose_call_that_ran_failed_too_still_failed(tmp_path: Path) -> None:
    # the Glob ran and failed: every call failed, one of them for a reason of its own
    missing = {"type": "tool_result", "content": "<tool_use_error>Directory does not exist: /home/marco/projects/spotter</tool_use_error>",
               "is_error": True, "tool_use_id": "toolu_01FdQ8qTyVyZjE3Kw4dguQGx"}
    a = analyze_path(_session(tmp_path, missing, {"toolUseResult": "Error: Directory does not exist"})).to_json()
    (main,) = a["agents"]
    assert (main["status"], main["tool_calls"], main["failed_calls"]) == ("failed", 2, 2)
