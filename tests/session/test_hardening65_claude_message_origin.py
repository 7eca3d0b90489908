"""Claude Code 2.1.1xx and later say who a user line came from: ``origin: {"kind": "human"}`` on
what the person typed, another kind on what the CLI delivered in the person's place (a finished
background task, a scheduled prompt firing: ``task-notification``; another session's message:
``peer``). The CLI's own test for a human turn is ``origin?.kind === "human"`` (with isMeta,
isCompactSummary, ... false), as a format spec reverse-engineered from CLI 2.1.266 quotes it;
a line with another kind is no prompt of the person's, whatever its text. Lines with no origin
(older CLIs) are read by their text as before."""

from __future__ import annotations

import json

from spec_debug.session.analysis import analyze_path

SID = "b2020800-0000-4000-8000-0000000000a2"


def _line(n: int, kind: str, **fields) -> dict:
    return {"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n else None, "sessionId": SID,
            "timestamp": f"2026-09-09T19:{n:02d}:00.000Z", "cwd": "/home/user/w", "isSidechain": False,
            "userType": "external", "entrypoint": "cli", "version": "2.1.240", **fields}


def _user(n: int, text, origin: str | None, **fields) -> dict:
    if origin is not None:
        fields["origin"] = {"kind": origin}
    return _line(n, "user", message={"role": "user", "content": text}, **fields)


def _bash(n: int, call: str, command: str, output: str) -> list[dict]:
    return [
        _line(n, "assistant", requestId=f"req_{n}", message={"id": f"msg_{n}", "type": "message", "role": "assistant",
                                                            "content": [{"type": "tool_use", "id": call, "name": "Bash",
                                                                         "input": {"command": command}}]}),
        _line(n + 1, "user", toolUseResult={"stdout": output, "stderr": ""}, message={"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": call, "is_error": False, "content": output}]}),
    ]


def _analyze(tmp_path, lines: list[dict]) -> dict:
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return analyze_path(path).to_json()


def test_a_scheduled_prompt_firing_is_no_prompt_the_person_typed(tmp_path):
    # `/loop 10m ...` typed once; each firing is delivered as a task notification (2.1.183:
    # "scheduled task and webhook trigger deliveries ... now classify as task notifications")
    doc = _analyze(tmp_path, [
        _user(0, "watch the EAGLE-3 server on gpu01 and tell me when accept len drops", "human", promptSource="typed"),
        *_bash(1, "toolu_1", "ssh gpu01 'grep -c accept /var/log/sglang.log'", "12"),
        _user(3, "check the accept length on gpu01 again", "task-notification", promptSource="system"),
        *_bash(4, "toolu_2", "ssh gpu01 'grep accept /var/log/sglang.log | tail -1'", "accept len: 1.02"),
        _user(6, [{"type": "text", "text": "why did it drop?"}], "human", promptSource="typed"),
    ])
    assert [p["seq"] for p in doc["prompts"]] == [0, 6]
    assert [s["start_seq"] for s in doc["segments"]] == [0, 6]
    assert len(doc["commands"]) == 2


def test_another_sessions_message_queued_mid_turn_is_no_prompt(tmp_path):
    # A peer's SendMessage arriving while the agent works: a queued_command attachment whose
    # origin is the peer's (the shape a transcript reader's tests give it)
    doc = _analyze(tmp_path, [
        _user(0, "profile the draft on gpu01", "human"),
        *_bash(1, "toolu_1", "ssh gpu01 nvidia-smi", "GPU 0: H100"),
        _line(3, "attachment", attachment={
            "type": "queued_command", "commandMode": "prompt",
            "prompt": "<cross-session-message from=\"uds:/tmp/s.sock\" from-name=\"reviewer\">rebase first"
                      "</cross-session-message>",
            "origin": {"kind": "peer", "name": "reviewer", "body": "rebase first"}}),
        _line(4, "attachment", attachment={"type": "queued_command", "commandMode": "prompt",
                                           "prompt": "also check gpu02", "origin": {"kind": "human"}}),
    ])
    assert [p["text"] for p in doc["prompts"]] == ["profile the draft on gpu01", "also check gpu02"]


def test_lines_with_no_origin_are_read_by_their_text_as_before(tmp_path):
    doc = _analyze(tmp_path, [
        _user(0, "profile the draft on gpu01", None),
        *_bash(1, "toolu_1", "ssh gpu01 nvidia-smi", "GPU 0: H100"),
        _user(3, "<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>", None),
        _user(4, "and gpu02?", None),
    ])
    assert [p["seq"] for p in doc["prompts"]] == [0, 4]


def test_a_prompt_an_sdk_host_submitted_is_the_runs_prompt(tmp_path):
    # `claude -p` and SDK hosts: origin {"kind": "sdk"} (CLI 2.1.281), the run's own request
    doc = _analyze(tmp_path, [
        _user(0, "bench EAGLE-3 on gpu01 and report the accept length", "sdk", promptSource="sdk",
              entrypoint="sdk-cli"),
        *_bash(1, "toolu_1", "ssh gpu01 nvidia-smi", "GPU 0: H100"),
    ])
    assert [p["seq"] for p in doc["prompts"]] == [0]
