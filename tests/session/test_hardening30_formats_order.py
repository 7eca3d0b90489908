"""Two logs read out of the conversation's order. A log of Ollama ``/api/chat`` requests made with
``"stream": false`` has each answer as one ``{model, created_at, message, done: true}`` object
(ollama/ollama ``docs/api.md``, "Chat request (No streaming)"): it was an unknown record, and the
command the model called in it no command. Assistants thread messages dumped as the SDK lists them
(newest first, ``order`` "desc" by default: openai/openai-python ``resources/beta/threads/
messages.py``), one a line, in an array or page after page, were read newest first: the last
answer came first and the first prompt last."""

from __future__ import annotations

import json

import pytest

from spec_debug.session import analyze_path


def _jsonl(path, lines: list[dict]):
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


SYSTEM = {"role": "system", "content": "You run shell commands on the GPU host."}
ASK = {"role": "user", "content": "Is the SGLang server up on gpu-node-3?"}
CALL = {"role": "assistant", "content": "", "tool_calls": [
    {"function": {"name": "bash", "arguments": {"command": "curl -s localhost:30000/health"}}}]}
OUTPUT = {"role": "tool", "content": "curl: (7) Failed to connect to localhost port 30000"}
SAID = {"role": "assistant", "content": "The server is not listening on port 30000."}


def _answer(message: dict, at: str) -> dict:
    return {"model": "qwen3:8b", "created_at": at, "message": message, "done_reason": "stop", "done": True,
            "total_duration": 4883583458, "load_duration": 1334875, "prompt_eval_count": 26,
            "prompt_eval_duration": 342546000, "eval_count": 282, "eval_duration": 4535599000}


OLLAMA_LOG = [
    {"model": "qwen3:8b", "messages": [SYSTEM, ASK], "stream": False, "tools": []},
    _answer(CALL, "2026-03-01T10:00:02.000Z"),
    {"model": "qwen3:8b", "messages": [SYSTEM, ASK, CALL, OUTPUT], "stream": False, "tools": []},
    _answer(SAID, "2026-03-01T10:00:05.000Z"),
]


@pytest.mark.parametrize("name, text", [
    ("ollama_requests.jsonl", "".join(json.dumps(record) + "\n" for record in OLLAMA_LOG)),
    ("ollama_requests.json", json.dumps(OLLAMA_LOG)),  # was read as a text log
    ("ollama_requests_pretty.json", json.dumps(OLLAMA_LOG, indent=2)),
], ids=["jsonl", "array", "indented-array"])
def test_an_ollama_request_log_reads_the_answers_once_and_in_order(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    doc = analyze_path(path).to_json()
    assert doc["format"] == "openai"
    assert doc["sessions"][0]["unknown_types"] == 0  # was 2: the answers
    assert [c["command"] for c in doc["commands"]] == ["curl -s localhost:30000/health"]  # was none
    assert [p["text"] for p in doc["prompts"]] == [ASK["content"]]
    assert doc["sessions"][0]["last_timestamp"] == "2026-03-01T10:00:05.000Z"


def _message(i: int) -> dict:
    # openai/openai-python types/beta/threads/message.py, as model_dump() writes it
    role = "user" if i % 2 == 0 else "assistant"
    return {"id": f"msg_{i}", "object": "thread.message", "created_at": 1767225600 + 7 * i, "thread_id": "thread_1",
            "role": role, "assistant_id": None if role == "user" else "asst_1", "run_id": None, "attachments": [],
            "metadata": {}, "status": None, "completed_at": None, "incomplete_at": None, "incomplete_details": None,
            "content": [{"type": "text", "text": {"value": f"{role} turn {i}", "annotations": []}}]}


NEWEST_FIRST = [_message(i) for i in range(6)][::-1]
IN_ORDER = ["user turn 0", "user turn 2", "user turn 4"]


@pytest.mark.parametrize("name, text", [
    ("messages.jsonl", "".join(json.dumps(m) + "\n" for m in NEWEST_FIRST)),
    ("messages.json", json.dumps(NEWEST_FIRST)),
    ("pages.jsonl", "".join(json.dumps({"object": "list", "data": page, "first_id": page[0]["id"],
                                        "last_id": page[-1]["id"], "has_more": more}) + "\n"
                            for page, more in ((NEWEST_FIRST[:3], True), (NEWEST_FIRST[3:], False)))),
], ids=["one-a-line", "array", "pages"])
def test_thread_messages_listed_newest_first_are_read_oldest_first(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    assert [p["text"] for p in analyze_path(path).to_json()["prompts"]] == IN_ORDER


def test_thread_messages_listed_oldest_first_stay_as_written(tmp_path):
    path = _jsonl(tmp_path / "messages.jsonl", NEWEST_FIRST[::-1])  # order="asc"
    assert [p["text"] for p in analyze_path(path).to_json()["prompts"]] == IN_ORDER
