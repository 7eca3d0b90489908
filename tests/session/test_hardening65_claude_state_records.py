"""Claude Code 2.1.2xx appends state records beside the messages (no ``uuid``; ``type``,
``sessionId`` and a payload) and re-appends the whole block on every resume: ``tag``,
``isolation-latch``, ``ended``, ``attribution-snapshot``, ``cost-state``,
``artifact-comment-monitor``, ``artifact-autoreact-ledger``, ``conversation_reset`` (the writer's
set as a format spec reverse-engineered from CLI 2.1.266's bundle lists it). They are the CLI's
bookkeeping, not lines of an unknown type."""

from __future__ import annotations

import json

from spec_debug.session.analysis import analyze_path

SID = "b2020800-0000-4000-8000-0000000000a1"
STATE = ["tag", "isolation-latch", "ended", "attribution-snapshot", "cost-state", "artifact-comment-monitor",
         "artifact-autoreact-ledger", "conversation_reset"]


def _line(n: int, kind: str, **fields) -> dict:
    return {"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n else None, "sessionId": SID,
            "timestamp": f"2026-09-09T19:07:{n:02d}.000Z", "cwd": "/home/user/w", "isSidechain": False,
            "userType": "external", "entrypoint": "cli", "version": "2.1.266", **fields}


def _session(tmp_path, extra: list[dict]):
    resumed_block = [{"type": kind, "sessionId": SID} for kind in STATE]
    lines = [
        *resumed_block,
        _line(0, "user", message={"role": "user", "content": "is the EAGLE-3 server on gpu01 up?"},
              origin={"kind": "human"}, promptSource="typed"),
        _line(1, "assistant", requestId="req_1", apiBlockIndex=0, message={
            "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-opus-5", "content": [
                {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ssh gpu01 nvidia-smi"},
                 "caller": {"type": "direct"}}]}),
        _line(2, "user", sourceToolAssistantUUID="u1",
              toolUseResult={"stdout": "GPU 0: H100", "stderr": "", "interrupted": False, "isImage": False},
              message={"role": "user", "content": [
                  {"type": "tool_result", "tool_use_id": "toolu_1", "is_error": False, "content": "GPU 0: H100"}]}),
        *resumed_block,
        *extra,
    ]
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return analyze_path(path).to_json()


def test_the_state_records_of_a_resumed_session_are_no_lines_of_unknown_type(tmp_path):
    doc = _session(tmp_path, [])
    assert doc["format"] == "claude-code"
    assert doc["stats"]["unknown_types"] == 0
    assert [(c["host"], c["exit_code"]) for c in doc["commands"]] == [("gpu01", 0)]
    assert [p["text"] for p in doc["prompts"]] == ["is the EAGLE-3 server on gpu01 up?"]


def test_a_line_of_a_type_nobody_named_is_still_counted_as_unknown(tmp_path):
    doc = _session(tmp_path, [{"type": "brand-new-record", "sessionId": SID}])
    assert doc["stats"]["unknown_types"] == 1


def test_a_prompts_lifecycle_ack_is_no_line_of_unknown_type(tmp_path):
    # {"type": "command_lifecycle", "command_uuid", "state"}: stream-json's ack of a prompt sent over
    # stdin, the prompt itself replayed as a user line (also kept in session files)
    doc = _session(tmp_path, [{"type": "command_lifecycle", "command_uuid": "c1", "state": state, "session_id": SID,
                               "uuid": f"l-{state}"} for state in ("queued", "started", "completed")])
    assert doc["stats"]["unknown_types"] == 0
    assert [p["text"] for p in doc["prompts"]] == ["is the EAGLE-3 server on gpu01 up?"]
