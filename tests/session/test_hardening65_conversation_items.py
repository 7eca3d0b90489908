"""A conversation saved from the OpenAI Conversations API (``client.conversations.items.list(conv)``,
where the Agents SDK's ``OpenAIConversationsSession`` keeps a session; ``responses.input_items.list``
answers alike): ``{object: "list", data: [Responses items], first_id, last_id, has_more}``, newest
first unless ``order="asc"`` (openai/openai-python ``resources/conversations/items.py``: "Default is
`desc`"). It was refused as "not a session transcript"."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

PROMPT = "EAGLE-3 on gpu01 is slow since the driver upgrade"
NVML = "Failed to initialize NVML: Driver/library version mismatch"
ITEMS = [
    {"id": "msg_1", "type": "message", "status": "completed", "role": "user",
     "content": [{"type": "input_text", "text": PROMPT}]},
    {"id": "fc_1", "type": "function_call", "status": "completed", "call_id": "call_a", "name": "run_shell",
     "arguments": json.dumps({"command": "ssh gpu01 nvidia-smi"})},
    {"id": "fco_1", "type": "function_call_output", "status": "completed", "call_id": "call_a", "output": NVML},
    {"id": "fc_2", "type": "function_call", "status": "completed", "call_id": "call_b", "name": "run_shell",
     "arguments": json.dumps({"command": "ssh gpu01 cat /proc/driver/nvidia/version"})},
    {"id": "fco_2", "type": "function_call_output", "status": "completed", "call_id": "call_b",
     "output": "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14"},
    {"id": "msg_2", "type": "message", "status": "completed", "role": "assistant",
     "content": [{"type": "output_text", "text": "The loaded module is older than the library.", "annotations": []}]},
]


def _page(tmp_path: Path, data: list[dict]) -> dict:
    path = tmp_path / "conversation_items.json"
    path.write_text(json.dumps({"object": "list", "data": data, "first_id": data[0]["id"], "last_id": data[-1]["id"],
                                "has_more": False}, indent=2))
    return analyze_path(path).to_json()


def _seen(doc: dict) -> tuple:
    return ([(c["host"], c["command"], c["is_error"]) for c in doc["commands"]], [e["message"] for e in doc["errors"]],
            [p["text"] for p in doc["prompts"]])


EXPECTED = ([("gpu01", "ssh gpu01 nvidia-smi", True), ("gpu01", "ssh gpu01 cat /proc/driver/nvidia/version", False)],
            [NVML], [PROMPT])


def test_a_page_listed_newest_first_reads_oldest_first(tmp_path: Path) -> None:
    doc = _page(tmp_path, ITEMS[::-1])
    assert doc["format"] == "openai"
    assert _seen(doc) == EXPECTED
    assert [c["seq"] < c["result_seq"] for c in doc["commands"]] == [True, True]


def test_a_page_listed_oldest_first_is_kept_as_it_is(tmp_path: Path) -> None:
    assert _seen(_page(tmp_path, ITEMS)) == EXPECTED


def test_a_page_of_messages_only_is_read_in_either_order(tmp_path: Path) -> None:
    messages = [ITEMS[0], ITEMS[-1]]
    for data in (messages, messages[::-1]):
        assert _seen(_page(tmp_path, data)) == ([], [], [PROMPT])
