"""A page of an Assistants API thread's messages (``client.beta.threads.messages.list(thread_id,
limit=100)``, its ``to_json()`` or the API's body) longer than the sniff window (256 KiB: a hundred
long answers) is read as the small page is since round 29 (openai_chat.is_thread_message_list).
Round 29 read it as a text log of one event: no prompt, no words of the thread."""

from __future__ import annotations

import json

import pytest

from spec_debug.session import analyze_path


def _message(i: int) -> dict:
    # openai/openai-python types/beta/threads/message.py, as to_json() writes it
    role = "user" if i % 2 == 0 else "assistant"
    said = f"Check the drafter on gpu-node-{i}." if role == "user" else "The acceptance length is 1.0. " + "x" * 5000
    return {"id": f"msg_{i}", "assistant_id": None if role == "user" else "asst_1", "attachments": [],
            "completed_at": None, "content": [{"text": {"annotations": [], "value": said}, "type": "text"}],
            "created_at": 1767225600 + i, "incomplete_at": None, "incomplete_details": None, "metadata": {},
            "object": "thread.message", "role": role, "run_id": None, "status": None, "thread_id": "thread_1"}


MESSAGES = [_message(i) for i in range(100)]


@pytest.mark.parametrize("page, indent", [
    ({"data": MESSAGES[::-1], "has_more": False, "object": "list", "first_id": "msg_99", "last_id": "msg_0"}, None),
    ({"object": "list", "data": MESSAGES[::-1], "first_id": "msg_99", "last_id": "msg_0", "has_more": False}, 2),
], ids=["sdk-to-json", "api-body-indented"])
def test_a_page_past_the_sniff_window_is_read_as_a_thread(tmp_path, page, indent):
    path = tmp_path / "messages.json"
    path.write_text(json.dumps(page, indent=indent))
    assert path.stat().st_size > 256 * 1024
    doc = analyze_path(path).to_json()
    assert doc["format"] == "openai"  # was text
    prompts = [p["text"] for p in doc["prompts"]]
    assert prompts[:2] == ["Check the drafter on gpu-node-0.", "Check the drafter on gpu-node-2."]  # oldest first
    assert len(prompts) == 50
