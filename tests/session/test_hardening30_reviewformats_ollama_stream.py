"""Ollama streams a ``/api/chat`` answer by default: pieces ``{"model", "created_at", "message":
{"role": "assistant", "content": "fi"}, "done": false}`` (a tool call comes in one of them), then
``{"message": {"role": "assistant", "content": ""}, "done": true, "done_reason": "stop", ...}``
(ollama/ollama ``docs/api.md``, "Chat request (Streaming)"). In a log of requests and what came back,
the last piece alone was read as an empty answer and the others as unknown records: the next
request, which sends the whole answer back, no longer began with the history read, and the
conversation was read again from its first prompt (each prompt twice)."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

ASK = {"role": "user", "content": "Acceptance on gpu01 is 1.0. Check the GPU."}
CALL = {"role": "assistant", "content": "",
        "tool_calls": [{"function": {"name": "bash", "arguments": {"command": "nvidia-smi"}}}]}
SEEN = {"role": "tool", "content": "GPU 0: NVIDIA H100 80GB HBM3"}
NEXT = {"role": "user", "content": "Now check the drafter's config."}


def _piece(message: dict, done: bool, **extra) -> dict:
    return {"model": "qwen3:32b", "created_at": "2026-03-01T10:00:01.5Z", "message": message, "done": done, **extra}


def _log() -> list[dict]:
    request = {"model": "qwen3:32b", "stream": True}
    last = {"done_reason": "stop", "total_duration": 4353619900, "eval_count": 17}
    return [
        {**request, "messages": [ASK]},
        _piece(CALL, False),
        _piece({"role": "assistant", "content": ""}, True, **last),
        {**request, "messages": [ASK, CALL, SEEN]},
        _piece({"role": "assistant", "content": "The GPU "}, False),
        _piece({"role": "assistant", "content": "is fine."}, False),
        _piece({"role": "assistant", "content": ""}, True, **last),
        {**request, "messages": [ASK, CALL, SEEN, {"role": "assistant", "content": "The GPU is fine."}, NEXT]},
    ]


def _read(path) -> tuple[list[str], list[str], int]:
    doc = analyze_path(path).to_json()
    return [p["text"] for p in doc["prompts"]], [c["command"] for c in doc["commands"]], doc["stats"]["unknown_types"]


def test_a_streamed_answer_is_one_answer_and_the_history_is_read_once(tmp_path):
    path = tmp_path / "ollama_requests.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in _log()))
    assert _read(path) == ([ASK["content"], NEXT["content"]], ["nvidia-smi"], 0)


def test_such_a_log_saved_as_a_json_array_is_chat(tmp_path):
    path = tmp_path / "ollama_requests.json"
    path.write_text(json.dumps(_log(), indent=1))
    assert _read(path) == ([ASK["content"], NEXT["content"]], ["nvidia-smi"], 0)
