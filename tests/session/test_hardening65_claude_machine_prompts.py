"""Lines the Claude Code CLI (and the desktop app that drives it) writes as the person's message
though nobody typed them, many with ``origin: {"kind": "human"}`` all the same: a ``/loop``
wake-up (``<<autonomous-loop-dynamic>>``, the sentinel ``ScheduleWakeup`` re-enters the loop
with), the app's resume pings ("The app was quit while you were working", "I hit my usage limit
while you were working, but it has reset now"), a CI monitor's event (``<ci-monitor-event>``), a
background agent's hand-back (``<agent-message from=…>``) and another session's message
(``<cross-session-message …>``); and lines whose ``turnOrigin`` names the CLI (a measured corpus
of real sessions: "38 scheduled tasks and 4 resume pings carry human, so human proves nothing";
``task_notification``, ``peer`` and ``scheduled`` rule a line out). Each began a phase of the
postmortem as a prompt."""

from __future__ import annotations

import json

import pytest

from spec_debug.session.analysis import analyze_path

SID = "b2020800-0000-4000-8000-0000000000a4"


def _line(n: int, kind: str, **fields) -> dict:
    return {"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n else None, "sessionId": SID,
            "timestamp": f"2026-09-09T19:{n:02d}:00.000Z", "cwd": "/home/user/w", "isSidechain": False,
            "userType": "external", "entrypoint": "claude-desktop", "version": "2.1.240", **fields}


def _user(n: int, text: str, **fields) -> dict:
    return _line(n, "user", message={"role": "user", "content": text}, **fields)


def _analyze(tmp_path, machine_line: dict) -> dict:
    lines = [
        _user(0, "the EAGLE-3 server on gpu01 got slower after the upgrade, find out why",
              origin={"kind": "human"}, promptSource="typed"),
        _line(1, "assistant", requestId="req_1", message={"id": "msg_1", "type": "message", "role": "assistant",
                                                         "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                                                                      "input": {"command": "ssh gpu01 nvidia-smi"}}]}),
        _line(2, "user", toolUseResult={"stdout": "GPU 0: H100", "stderr": ""}, message={"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "is_error": False, "content": "GPU 0: H100"}]}),
        machine_line,
        _user(4, "what did you find?", origin={"kind": "human"}, promptSource="typed"),
    ]
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return analyze_path(path).to_json()


MACHINE_TEXTS = {
    "loop wake-up": "<<autonomous-loop-dynamic>>",
    "app quit ping": "The app was quit while you were working. Pick up where you left off.",
    "limit reset ping": "I hit my usage limit while you were working, but it has reset now. Continue the task.",
    "ci monitor": "<ci-monitor-event>\ncheck_run \"build\" failed on PR #412\n</ci-monitor-event>",
    "agent hand-back": "<agent-message from=\"bench-runner\">\n[Subagent hand-back]\nThe report follows:\n"
                       "accept len 1.02 on gpu01\n</agent-message>",
    "peer message": "<cross-session-message from=\"uds:/tmp/s.sock\" from-name=\"reviewer\">rebase first"
                    "</cross-session-message>",
}


@pytest.mark.parametrize("text", MACHINE_TEXTS.values(), ids=MACHINE_TEXTS.keys())
def test_a_line_the_cli_wrote_as_the_persons_is_no_prompt_though_its_origin_says_human(tmp_path, text):
    doc = _analyze(tmp_path, _user(3, text, origin={"kind": "human"}))
    assert [p["seq"] for p in doc["prompts"]] == [0, 4]
    assert [s["start_seq"] for s in doc["segments"]] == [0, 4]


@pytest.mark.parametrize("turn_origin", ["task_notification", "peer", "scheduled"])
def test_a_turn_origin_of_the_cli_says_the_person_did_not_type_it(tmp_path, turn_origin):
    doc = _analyze(tmp_path, _user(3, "check the accept length on gpu01 again", turnOrigin=turn_origin))
    assert [p["seq"] for p in doc["prompts"]] == [0, 4]


@pytest.mark.parametrize("turn_origin", ["human", "sdk"])
def test_a_turn_origin_of_the_person_or_of_claude_p_keeps_the_prompt(tmp_path, turn_origin):
    doc = _analyze(tmp_path, _user(3, "check the accept length on gpu01 again", turnOrigin=turn_origin))
    assert [p["seq"] for p in doc["prompts"]] == [0, 3, 4]
