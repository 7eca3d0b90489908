"""Claude Code 2.1.x writes each ``tool_use`` block of a message as a record of its own, and with
calls run in parallel a fast tool's result can be written before the record of the call it
answers (seen in a real session, pyrycode/pyrycode ``internal/agentrun/jsonl/testdata/
clean.jsonl``, CLI 2.1.128: the result at line 11, its ``parentUuid`` the call at line 12). Read
in file order, the result answered no call and the call never got one: a command with no exit
code, its output and its error lost. Now the result is held until its call is read."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SID = "6fc6d062-0000-4000-8000-000000000015"
OOM = "Exit code 1\nTraceback (most recent call last):\nRuntimeError: CUDA error: out of memory"


def _record(kind: str, uuid: str, parent: str | None, ts: str, content: list, **extra) -> dict:
    message = {"role": kind, "content": content}
    if kind == "assistant":
        message |= {"id": "msg_016GPQ", "type": "message", "model": "claude-opus-4-7", "stop_reason": "tool_use"}
    return {"parentUuid": parent, "isSidechain": False, "type": kind, "message": message, "uuid": uuid,
            "timestamp": f"2026-05-08T18:21:{ts}Z", "userType": "external", "cwd": "/work/eagle3",
            "sessionId": SID, "version": "2.1.128", "gitBranch": "main", **extra}


def _call(uuid, parent, ts, call_id, command):
    return _record("assistant", uuid, parent, ts,
                   [{"type": "tool_use", "id": call_id, "name": "Bash", "input": {"command": command}}])


def _result(uuid, parent, ts, call_id, text, failed):
    return _record("user", uuid, parent, ts,
                   [{"tool_use_id": call_id, "type": "tool_result", "content": text, "is_error": failed}],
                   toolUseResult={"stdout": text, "stderr": "", "interrupted": False}, sourceToolAssistantUUID=parent)


def test_a_result_written_before_its_call_answers_it(tmp_path: Path) -> None:
    lines = [
        _record("user", "u0", None, "40.000", [{"type": "text", "text": "check the gpus and the server"}]),
        _call("a1", "u0", "45.103", "toolu_01A", "nvidia-smi -L"),
        _result("u1", "a1", "45.352", "toolu_01A", "GPU 0: NVIDIA H100 80GB HBM3", False),
        # the second call's result, written before the record of that call
        _result("u2", "a2", "45.578", "toolu_01B", OOM, True),
        _call("a2", "u1", "45.545", "toolu_01B", "python serve.py --port 30000"),
        {"type": "last-prompt", "lastPrompt": "check the gpus and the server", "leafUuid": "u2", "sessionId": SID},
    ]
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [
        ("nvidia-smi -L", 0), ("python serve.py --port 30000", 1)]  # was None: no result
    (serve_seq,) = [c["seq"] for c in doc["commands"] if c["command"].startswith("python")]
    assert [(e["kind"], e["command_seq"]) for e in doc["errors"] if "out of memory" in e["message"]] \
        == [("cuda_oom", serve_seq)]
