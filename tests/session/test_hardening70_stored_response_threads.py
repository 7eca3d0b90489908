"""Responses API calls that continue a conversation the API keeps, through a logging proxy. Such a
request sends only what is new, the conversation named by ``previous_response_id`` (the id of the
response it goes on from) or by ``conversation`` (a Conversations API id, ``"conv_..."`` or
``{"id": "conv_..."}``): openai/openai-python ``src/openai/types/responses/response_create_params.py``;
the OpenAI Agents SDK sends either on every call (openai/openai-agents-python ``src/agents/models/
openai_responses.py``, ``_fetch_response``). Only a conversation's first request holds its first
prompt: parted by first prompts, each later call went on the conversation of the call logged just
before it, so two agents working side by side through one proxy swapped their commands."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path


def _shell(call_id: str, command: str) -> dict:
    return {"type": "function_call", "id": f"fc_{call_id}", "call_id": call_id, "name": "shell",
            "arguments": json.dumps({"command": command}), "status": "completed"}


def _said(text: str) -> dict:
    return {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}


def _ask(text: str) -> list:
    return [{"role": "user", "content": [{"type": "input_text", "text": text}]}]


def _output(call_id: str, text: str) -> list:
    return [{"type": "function_call_output", "call_id": call_id, "output": text}]


def _calls(link: str) -> list[tuple[dict, dict]]:
    """Two conversations' calls as a proxy logged them, interleaved: (request body, response)."""
    def body(given: list, previous: str | None, conv: str) -> dict:
        sent = {"model": "gpt-5", "instructions": "You are a GPU fleet assistant.", "input": given, "store": True}
        if link == "previous" and previous is not None:
            sent["previous_response_id"] = previous
        if link == "conversation":
            sent["conversation"] = conv if conv.endswith("a") else {"id": conv}
        return sent

    def answer(rid: str, item: dict) -> dict:
        return {"id": rid, "object": "response", "created_at": 1764930080, "status": "completed",
                "model": "gpt-5", "output": [item]}

    return [
        (body(_ask("is the draft server on gpu07 up?"), None, "conv_a"),
         answer("resp_a1", _shell("call_a1", "ssh gpu07 'systemctl status sglang'"))),
        (body(_ask("why is gpu12 so slow?"), None, "conv_b"),
         answer("resp_b1", _shell("call_b1", "ssh gpu12 nvidia-smi"))),
        (body(_output("call_a1", "active (running)\n"), "resp_a1", "conv_a"),
         answer("resp_a2", _shell("call_a2", "ssh gpu07 'tail -n 20 sglang.log'"))),
        (body(_output("call_b1", "GPU-Util 100%\n"), "resp_b1", "conv_b"),
         answer("resp_b2", _shell("call_b2", "ssh gpu12 'ps aux | grep python'"))),
        (body(_output("call_a2", "accept len 3.1\n"), "resp_a2", "conv_a"),
         answer("resp_a3", _said("gpu07 serves drafts fine."))),
        (body(_output("call_b2", "python train.py\n"), "resp_b2", "conv_b"),
         answer("resp_b3", _said("A training job shares gpu12."))),
    ]


def _commands(tmp_path: Path, link: str) -> tuple[int, list]:
    logs = tmp_path / "logs"
    logs.mkdir()
    for n, (body, reply) in enumerate(_calls(link)):
        record = {"request": {"method": "POST", "url": "https://api.openai.com/v1/responses", "headers": {},
                              "body": body},
                  "response": {"status_code": 200, "headers": {}, "body": reply, "error": None}}
        (logs / f"2025-12-05_10-21-2{n}-000000.json").write_text(json.dumps(record))
    doc = analyze_path(logs).to_json()
    by_session: dict[str, list[str]] = {}
    for command in doc["commands"]:
        by_session.setdefault(command["session"], []).append(command["command"])
    return len(doc["sessions"]), sorted(by_session.values())


EXPECTED = (2, [["ssh gpu07 'systemctl status sglang'", "ssh gpu07 'tail -n 20 sglang.log'"],
                ["ssh gpu12 nvidia-smi", "ssh gpu12 'ps aux | grep python'"]])


def test_calls_that_go_on_from_a_previous_response_are_of_its_conversation(tmp_path: Path) -> None:
    assert _commands(tmp_path, "previous") == EXPECTED


def test_calls_that_name_a_stored_conversation_are_of_it(tmp_path: Path) -> None:
    assert _commands(tmp_path, "conversation") == EXPECTED


def _streamed(reply: dict) -> str:
    """The stream a proxy kept as text for ``"stream": true`` (the Responses API's events)."""
    opened = {**reply, "status": "in_progress", "output": []}
    events = [{"type": "response.created", "sequence_number": 0, "response": opened}]
    events += [{"type": "response.output_item.done", "sequence_number": n + 1, "output_index": n, "item": item}
               for n, item in enumerate(reply["output"])]
    events.append({"type": "response.completed", "sequence_number": len(events), "response": reply})
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)


def test_streamed_calls_that_go_on_from_a_previous_response_are_of_its_conversation(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for n, (body, reply) in enumerate(_calls("previous")):
        record = {"request": {"method": "POST", "url": "https://api.openai.com/v1/responses", "headers": {},
                              "body": {**body, "stream": True}},
                  "response": {"status_code": 200, "headers": {"content-type": "text/event-stream"},
                               "body": _streamed(reply), "error": None}}
        (logs / f"2025-12-05_10-21-2{n}-000000.json").write_text(json.dumps(record))
    doc = analyze_path(logs).to_json()
    by_session: dict[str, list[str]] = {}
    for command in doc["commands"]:
        by_session.setdefault(command["session"], []).append(command["command"])
    assert (len(doc["sessions"]), sorted(by_session.values())) == EXPECTED
