"""Claude Code through a logging proxy: its sub-agents (the Task tool) and its side calls each send a
conversation of their own, another first prompt than the main one's, but every request of the run
names the run's session in ``metadata.user_id``: ``user_<hash>_account_<uuid>_session_<uuid>``, or
newer the JSON of ``{device_id, account_uuid, session_id}`` (starbaser/ccproxy
``src/ccproxy/hooks/extract_session_id.py``). Parted by first prompt, a sub-agent's calls were a
session of their own, apart from the run that started it; two runs of one prompt were one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

_SYSTEM = [{"type": "text", "text": "You are Claude Code, Anthropic's official CLI for Claude."}]
_ASK = {"role": "user", "content": "accept length dropped on gpu07 after the upgrade"}
_TASK = {"role": "user", "content": "Find which driver version gpu07 runs and report it."}


def _legacy(session: str) -> str:
    return f"user_5dd07c33da27e6d2968d94ea20bf47a7b090b6b158b82328d54da2909a108e84_account__session_{session}"


def _json_style(session: str) -> str:
    return json.dumps({"device_id": "3f4a1b7c8d9e0f12", "account_uuid": "", "session_id": session})


def _use(tool_id: str, name: str, arguments: dict) -> dict:
    return {"role": "assistant", "content": [{"type": "tool_use", "id": tool_id, "name": name, "input": arguments}]}


def _result(tool_id: str, text: str, error: bool = False) -> dict:
    return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_id, "content": text,
                                         "is_error": error}]}


def _answer(n: int, message: dict) -> dict:
    return {"id": f"msg_{n:02d}", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": message["content"], "stop_reason": "end_turn"}


SPAWN = _use("toolu_main1", "Task", {"description": "driver version", "prompt": _TASK["content"]})
SMI = _use("toolu_sub1", "Bash", {"command": "ssh gpu07 nvidia-smi"})
SMI_OUT = _result("toolu_sub1", "Failed to initialize NVML: Driver/library version mismatch", error=True)
SUB_DONE = {"role": "assistant", "content": [{"type": "text", "text": "The driver and library disagree."}]}
DONE = {"role": "assistant", "content": [{"type": "text", "text": "Reinstall the driver on gpu07."}]}
RUN = [  # (messages, answer) in the order the run made them: main, its sub-agent, main again
    ([_ASK], SPAWN),
    ([_TASK], SMI),
    ([_TASK, SMI, SMI_OUT], SUB_DONE),
    ([_ASK, SPAWN, _result("toolu_main1", "The driver and library disagree.")], DONE),
]


def _record(messages: list, answer: dict, n: int, user_id: str) -> dict:
    """One call as llm-debug writes it (SingularityDAO-dev/tamashii-terminal ``llm-debug/app.py``)."""
    body = {"model": "claude-sonnet-4-5", "max_tokens": 32000, "system": _SYSTEM, "messages": messages,
            "metadata": {"user_id": user_id}, "stream": False}
    return {"request": {"method": "POST", "url": "https://api.anthropic.com/v1/messages?beta=true",
                        "headers": {"anthropic-version": "2023-06-01"}, "body": body},
            "response": {"status_code": 200, "headers": {}, "body": _answer(n, answer), "error": None}}


@pytest.mark.parametrize("user_id", [_legacy, _json_style])
def test_a_run_and_its_sub_agent_are_one_session(tmp_path: Path, user_id) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for n, (messages, answer) in enumerate(RUN):
        record = _record(messages, answer, n, user_id("d2e70091-3007-41a3-a916-cb8b0d3098de"))
        (logs / f"2025-12-05_10-21-2{n}-000000.json").write_text(json.dumps(record))
    doc = analyze_path(logs).to_json()
    assert [s["id"] for s in doc["sessions"]] == ["logs"]
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [("ssh gpu07 nvidia-smi", True)]


def test_two_runs_of_one_prompt_are_a_session_each(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    first, second = _legacy("d2e70091-0000-41a3-a916-cb8b0d3098de"), _legacy("7d0e2f61-4b5c-4a9d-8f11-2c3d4e5f6a7b")
    calls = [([_ASK], SMI, first), ([_ASK], SMI, second), ([_ASK, SMI, SMI_OUT], DONE, first),
             ([_ASK, SMI, _result("toolu_sub1", "GPU 0: NVIDIA H100 80GB HBM3")], DONE, second)]
    for n, (messages, answer, user) in enumerate(calls):
        (logs / f"2025-12-05_10-21-2{n}-000000.json").write_text(json.dumps(_record(messages, answer, n, user)))
    doc = analyze_path(logs).to_json()
    assert sorted(s["id"] for s in doc["sessions"]) == [
        "logs#7d0e2f61-4b5c-4a9d-8f11-2c3d4e5f6a7b", "logs#d2e70091-0000-41a3-a916-cb8b0d3098de"]
    assert sorted((c["session"], c["is_error"]) for c in doc["commands"]) == [
        ("logs#7d0e2f61-4b5c-4a9d-8f11-2c3d4e5f6a7b", False), ("logs#d2e70091-0000-41a3-a916-cb8b0d3098de", True)]
