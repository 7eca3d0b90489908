"""Codex through a logging proxy: every request of a Codex session opens with the same user messages,
its AGENTS.md instructions and its environment context (the folder it works in), so two sessions in
one repository send one first prompt, and a folder of their calls read as one conversation mixed
them: the second session's commands went on the first's. Codex names its conversation in each
request, ``prompt_cache_key`` = its conversation id (openai/codex ``codex-rs/core/src/client.rs``,
``stream_responses_api``); LiteLLM keeps it among the call's ``model_parameters`` (BerriAI/litellm
``litellm_core_utils/model_param_helper.py``: the OpenAI request parameters but the prompt)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

_AGENTS = {"type": "message", "role": "user", "content": [
    {"type": "input_text", "text": "# AGENTS.md instructions for /home/me/sglang\n\n<INSTRUCTIONS>\n"
                                   "Never reboot a node that serves traffic.\n</INSTRUCTIONS>"}]}
_ENV = {"type": "message", "role": "user", "content": [
    {"type": "input_text", "text": "<environment_context>\n  <cwd>/home/me/sglang</cwd>\n  <shell>bash</shell>\n"
                                   "</environment_context>"}]}


def _ask(text: str) -> dict:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def _shell(call_id: str, command: str) -> dict:
    return {"type": "function_call", "id": f"fc_{call_id}", "call_id": call_id, "name": "shell_command",
            "arguments": json.dumps({"command": command, "workdir": "/home/me/sglang"})}


def _output(call_id: str, text: str) -> dict:
    return {"type": "function_call_output", "call_id": call_id, "output": text}


def _said(text: str) -> dict:
    return {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}


ASK_A, ASK_B = _ask("accept length dropped on gpu07"), _ask("the draft model OOMs on gpu12")
A1 = _shell("call_a1", "ssh gpu07 nvidia-smi")
OA1 = _output("call_a1", "Exit code: 18\nWall time: 0.3 seconds\nOutput:\n"
                         "Failed to initialize NVML: Driver/library version mismatch\n")
B1 = _shell("call_b1", "ssh gpu12 nvidia-smi --query-gpu=memory.used --format=csv")
OB1 = _output("call_b1", "Exit code: 0\nWall time: 0.2 seconds\nOutput:\nmemory.used [MiB]\n80110 MiB\n")
CALLS = [  # (session, input, output) in the order they were made: two sessions, interleaved
    ("019a6e1c-a", [_AGENTS, _ENV, ASK_A], [A1]),
    ("019a6e1c-b", [_AGENTS, _ENV, ASK_B], [B1]),
    ("019a6e1c-a", [_AGENTS, _ENV, ASK_A, A1, OA1], [_said("Reinstall the driver on gpu07.")]),
    ("019a6e1c-b", [_AGENTS, _ENV, ASK_B, B1, OB1], [_said("gpu12 is full: lower --mem-fraction-static.")]),
]


def _record(session: str, items: list, output: list, n: int) -> dict:
    """One call as llm-debug writes it (SingularityDAO-dev/tamashii-terminal ``llm-debug/app.py``)."""
    body = {"model": "gpt-5-codex", "instructions": "You are Codex.", "input": items, "tools": [],
            "tool_choice": "auto", "parallel_tool_calls": False, "store": False, "stream": False,
            "include": [], "prompt_cache_key": session}
    answer = {"id": f"resp_{n}", "object": "response", "created_at": 1764930080 + n, "status": "completed",
              "model": "gpt-5-codex", "output": output}
    return {"request": {"method": "POST", "url": "https://api.openai.com/v1/responses",
                        "headers": {"content-type": "application/json", "session_id": session}, "body": body},
            "response": {"status_code": 200, "headers": {}, "body": answer, "error": None}}


def test_two_codex_sessions_in_one_repository_are_a_session_each(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for n, (session, items, output) in enumerate(CALLS):
        (logs / f"2025-12-05_10-21-2{n}-000000.json").write_text(json.dumps(_record(session, items, output, n)))
    doc = analyze_path(logs).to_json()
    sessions = sorted((s["id"], s["events"]) for s in doc["sessions"])
    # each: the instructions, two context messages, the ask, a call, its output, the answer
    assert [events for _id, events in sessions] == [7, 7]
    assert sorted(_id for _id, _events in sessions) == ["logs#019a6e1c-a", "logs#019a6e1c-b"]
    assert sorted((c["session"], c["command"], c["exit_code"]) for c in doc["commands"]) == [
        ("logs#019a6e1c-a", "ssh gpu07 nvidia-smi", 18),
        ("logs#019a6e1c-b", "ssh gpu12 nvidia-smi --query-gpu=memory.used --format=csv", 0)]


def test_litellm_keeps_the_key_among_the_calls_parameters(tmp_path: Path) -> None:
    day = tmp_path / "2025-12-05"
    day.mkdir()
    for n, (session, items, output) in enumerate(CALLS):
        payload = {"id": f"c{n}", "trace_id": f"uuid-{n}", "call_type": "aresponses", "status": "success",
                   "startTime": 1764930080.0 + n, "endTime": 1764930081.0 + n, "model": "gpt-5-codex",
                   "messages": items, "model_parameters": {"prompt_cache_key": session, "stream": True},
                   "response": {"id": f"resp_{n}", "object": "response", "created_at": 1764930081 + n,
                                "status": "completed", "model": "gpt-5-codex", "output": output}}
        (day / f"resp_{n}.json").write_text(json.dumps(payload))
    doc = analyze_path(tmp_path).to_json()
    assert sorted((c["session"], c["exit_code"]) for c in doc["commands"]) == [
        ("2025-12-05#019a6e1c-a", 18), ("2025-12-05#019a6e1c-b", 0)]


def test_a_session_of_one_call_is_its_own(tmp_path: Path) -> None:
    """``codex exec`` asked one question: one call, its session named, no other session's."""
    logs = tmp_path / "logs"
    logs.mkdir()
    calls = [*CALLS[:2], ("019a6e1c-c", [_AGENTS, _ENV, _ask("which driver does gpu03 run?")],
                          [_said("I cannot reach gpu03 from here.")]), *CALLS[2:]]
    for n, (session, items, output) in enumerate(calls):
        (logs / f"2025-12-05_10-21-2{n}-000000.json").write_text(json.dumps(_record(session, items, output, n)))
    doc = analyze_path(logs).to_json()
    assert sorted((s["id"], s["events"]) for s in doc["sessions"]) == [
        ("2025-12-05_10-21-22-000000", 5), ("logs#019a6e1c-a", 7), ("logs#019a6e1c-b", 7)]
