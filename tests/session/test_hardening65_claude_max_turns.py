"""A Claude Code run stopped by its turn limit (``claude -p --max-turns N``, or a sub-agent whose
definition sets ``maxTurns``) says so in its session file with an attachment, ``{"type":
"attachment", "attachment": {"type": "max_turns_reached", "maxTurns": 8, "turnCount": 9}}`` (the
shape the Agent SDK's result repeats in its ``errors``, and transcript tools keep). The run did
not finish what it was asked: stream-json's ``error_max_turns`` result is read as the agent's
failure, and so is this."""

from __future__ import annotations

import json

from spec_debug.session.analysis import analyze_path

SID = "b2020800-0000-4000-8000-0000000000a6"


def _line(n: int, kind: str, **fields) -> dict:
    return {"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n else None, "sessionId": SID,
            "timestamp": f"2026-09-09T19:{n:02d}:00.000Z", "cwd": "/home/user/w", "isSidechain": False,
            "userType": "external", "entrypoint": "sdk-cli", "version": "2.1.240", **fields}


def _bash(n: int, call: str, command: str, output: str) -> list[dict]:
    return [
        _line(n, "assistant", requestId=f"req_{n}", message={"id": f"msg_{n}", "type": "message", "role": "assistant",
                                                            "content": [{"type": "tool_use", "id": call, "name": "Bash",
                                                                         "input": {"command": command}}]}),
        _line(n + 1, "user", toolUseResult={"stdout": output, "stderr": ""}, message={"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": call, "is_error": False, "content": output}]}),
    ]


def _analyze(tmp_path, tail: list[dict]) -> dict:
    lines = [
        _line(0, "user", message={"role": "user", "content": "bench EAGLE-3 on gpu01 against the baseline"},
              origin={"kind": "human"}, promptSource="sdk"),
        *_bash(1, "toolu_1", "ssh gpu01 nvidia-smi", "GPU 0: H100"),
        *_bash(3, "toolu_2", "ssh gpu01 'ls /models'", "llama-3.1-8b\neagle3-llama-3.1-8b"),
        *tail,
    ]
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return analyze_path(path).to_json()


def test_a_run_stopped_at_its_turn_limit_is_an_error_of_the_agent(tmp_path):
    doc = _analyze(tmp_path, [_line(5, "attachment", attachment={"type": "max_turns_reached", "maxTurns": 2,
                                                                 "turnCount": 3})])
    assert [(e["seq"], e["kind"], e["message"]) for e in doc["errors"]] == [
        (5, "agent_error", "max turns reached (limit 2)")]
    assert doc["stats"]["unknown_types"] == 0


def test_without_the_numbers_it_still_says_the_limit_was_reached(tmp_path):
    doc = _analyze(tmp_path, [_line(5, "attachment", attachment={"type": "max_turns_reached"})])
    assert [(e["seq"], e["kind"], e["message"]) for e in doc["errors"]] == [(5, "agent_error", "max turns reached")]


def test_other_attachments_are_no_errors(tmp_path):
    doc = _analyze(tmp_path, [_line(5, "attachment", attachment={"type": "total_tokens_reminder", "text": "x"})])
    assert doc["errors"] == []
