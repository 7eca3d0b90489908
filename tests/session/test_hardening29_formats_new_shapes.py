"""Shapes of newer transcripts that lost what they said. An OpenAI chat reply spoken aloud (a
request with ``modalities: ["text", "audio"]``: ``content`` null, the words in
``audio.transcript``, openai/openai-python ``types/chat/chat_completion_audio.py``) gave no event
at all, saved whole or streamed (``delta.audio.transcript``). Claude Code's retry lines
(``{"type": "system", "subtype": "api_error", "error": {...}, "retryAttempt", "maxRetries"}``, no
content) were system events of no text: the 529s a session sat through were not said."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path
from spec_debug.session.events import ReadStats
from spec_debug.session.formats import claude_code, openai_chat, responses_stream
from spec_debug.session.formats.common import Cursor

SAID = "The drafter is not loaded on gpu-node-3."


def _cursor(path) -> Cursor:
    return Cursor(session="s", agent="main", file=str(path))


def test_a_spoken_reply_is_read_by_its_transcript(tmp_path):
    path = tmp_path / "voice.jsonl"
    messages = [
        {"role": "user", "content": "Is the drafter loaded on gpu-node-3?"},
        {"role": "assistant", "content": None, "refusal": None,
         "audio": {"id": "audio_abc123", "expires_at": 1729018505, "data": "UklGRg==", "transcript": SAID}},
        {"role": "user", "content": "And gpu-node-4?"},
        {"role": "assistant", "audio": {"id": "audio_def456"}},  # the history sent back: the audio by id alone
    ]
    path.write_text("".join(json.dumps(m) + "\n" for m in messages))
    events = list(openai_chat.read(path, _cursor(path), ReadStats(), array=False))
    assert [(e.role, e.kind, e.text) for e in events] == [
        ("user", "prompt", messages[0]["content"]), ("assistant", "text", SAID),
        ("user", "prompt", messages[2]["content"]), ("assistant", "text", "[audio reply audio_def456]")]


def test_a_streamed_spoken_reply_is_read_by_its_transcript(tmp_path):
    def chunk(delta: dict, finish: str | None = None) -> dict:
        return {"id": "chatcmpl-A1", "object": "chat.completion.chunk", "created": 1767225600,
                "model": "gpt-4o-audio-preview", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    chunks = [chunk({"role": "assistant", "content": None,
                     "audio": {"id": "audio_abc123", "transcript": "The drafter "}}),
              chunk({"audio": {"transcript": "is not loaded on gpu-node-3.", "data": "UklGRg=="}}),
              chunk({"audio": {"expires_at": 1729018505}}), chunk({}, "stop")]
    path = tmp_path / "voice.txt"
    path.write_text("".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n")
    events = list(responses_stream.read(path, _cursor(path), ReadStats()))
    assert [(e.kind, e.text) for e in events] == [("text", SAID)]


def test_claude_code_retry_lines_say_what_failed(tmp_path):
    envelope = {"sessionId": "s1", "cwd": "/w", "version": "2.1.210", "userType": "external", "isSidechain": False}
    lines = [
        {"type": "system", "subtype": "api_error", "level": "error", "uuid": "u1", "parentUuid": None,
         "timestamp": "2026-03-01T10:00:01.000Z", "retryInMs": 558.9, "retryAttempt": 1, "maxRetries": 10,
         "error": {"status": 529, "headers": {}, "requestID": None, "type": "new_api_error",
                   "error": {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}}},
        {"type": "system", "subtype": "api_error", "level": "error", "uuid": "u2", "parentUuid": "u1",
         "timestamp": "2026-03-01T10:00:02.000Z", "retryAttempt": 2, "maxRetries": 10,
         "error": {"cause": {"code": "FailedToOpenSocket", "path": "https://api.anthropic.com"}}},
    ]
    path = tmp_path / "session.jsonl"
    path.write_text("".join(json.dumps({**line, **envelope}) + "\n" for line in lines))
    events = list(claude_code.read(path, _cursor(path), ReadStats()))
    assert [(e.raw_type, e.text) for e in events] == [
        ("api_error", "API error 529: overloaded_error: Overloaded (retry 1/10)"),
        ("api_error", "API error: FailedToOpenSocket (retry 2/10)"),
    ]
    doc = analyze_path(path).to_json()
    assert (doc["sessions"][0]["unknown_types"], doc["errors"]) == (0, [])  # retries, not failures of the turn


def _completion(cid: str, message: dict) -> dict:
    # openai/openai-python types/chat/chat_completion.py, as model_dump_json() writes it
    return {"id": cid, "object": "chat.completion", "created": 1767225600, "model": "gpt-4.1",
            "choices": [{"index": 0, "message": {"refusal": None, "annotations": [], **message},
                         "logprobs": None, "finish_reason": "tool_calls" if "tool_calls" in message else "stop"}],
            "usage": {"prompt_tokens": 812, "completion_tokens": 41, "total_tokens": 853}}


def test_chat_completions_saved_whole_are_their_answers(tmp_path):
    call = {"id": "call_1", "type": "function",
            "function": {"name": "bash", "arguments": json.dumps({"command": "ssh gpu-node-3 nvidia-smi"})}}
    asked = {"role": "user", "content": "Why is EAGLE-3 slow on gpu-node-3?"}
    answer = {"role": "assistant", "content": None, "tool_calls": [call]}
    result = {"role": "tool", "tool_call_id": "call_1", "content": "GPU 0: H200, 97% util"}
    log = [{"model": "gpt-4.1", "messages": [asked]}, _completion("chatcmpl-1", answer),
           {"model": "gpt-4.1", "messages": [asked, {"refusal": None, "annotations": [], **answer}, result]},
           _completion("chatcmpl-2", {"role": "assistant", "content": "The drafter is not loaded."})]
    path = tmp_path / "proxy.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in log))
    doc = analyze_path(path).to_json()
    assert (doc["sessions"][0]["format"], doc["sessions"][0]["unknown_types"]) == ("openai", 0)
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu-node-3 nvidia-smi"]  # the answer sent back: once
    events = list(openai_chat.read(path, _cursor(path), ReadStats(), array=False))
    assert [(e.kind, e.text) for e in events if e.kind in ("prompt", "text", "tool_result")] == [
        ("prompt", asked["content"]), ("tool_result", result["content"]), ("text", "The drafter is not loaded.")]
    one = tmp_path / "completion.json"
    one.write_text(json.dumps(_completion("chatcmpl-3", answer), indent=2))
    assert [c["command"] for c in analyze_path(one).to_json()["commands"]] == ["ssh gpu-node-3 nvidia-smi"]


def _thread_message(mid: str, role: str, text: str, at: int) -> dict:
    # openai/openai-python types/beta/threads/message.py and text_content_block.py
    return {"id": mid, "object": "thread.message", "created_at": at, "assistant_id": "asst_1" if role == "assistant"
            else None, "thread_id": "thread_1", "run_id": None, "role": role, "status": "completed",
            "content": [{"type": "text", "text": {"value": text, "annotations": []}}], "attachments": [],
            "metadata": {}}


def test_assistants_api_thread_messages_keep_their_words(tmp_path):
    asked = "Why is EAGLE-3 slow on gpu-node-3?"
    messages = [_thread_message("msg_1", "user", asked, 1767225600),
                _thread_message("msg_2", "assistant", SAID, 1767225600),  # the same second
                _thread_message("msg_3", "user", "Load it then.", 1767225660)]
    lines = tmp_path / "thread.jsonl"
    lines.write_text("".join(json.dumps(m) + "\n" for m in messages))
    page = tmp_path / "messages.json"  # client.beta.threads.messages.list(): newest first
    page.write_text(json.dumps({"object": "list", "data": messages[::-1], "first_id": "msg_3", "last_id": "msg_1",
                                "has_more": False}))
    for path in (lines, page):
        doc = analyze_path(path).to_json()
        assert doc["sessions"][0]["unknown_types"] == 0
        assert [p["text"] for p in doc["prompts"]] == [asked, "Load it then."]
    events = list(openai_chat.read(page, _cursor(page), ReadStats(), array=False))
    assert [(e.kind, e.text) for e in events] == [("prompt", asked), ("text", SAID), ("prompt", "Load it then.")]


def test_a_realtime_voice_sessions_items_keep_their_transcripts(tmp_path):
    # conversation items of the Realtime API (openai/openai-python types/realtime/realtime_conversation_item_*):
    # the words of a spoken turn are its part's transcript; the prompt was empty and the replies gave no event
    def item(iid: str, role: str, part: str, words: str) -> dict:
        return {"id": iid, "object": "realtime.item", "type": "message", "status": "completed", "role": role,
                "content": [{"type": part, "transcript": words}]}

    items = [item("item_1", "user", "input_audio", "Why is EAGLE-3 slow on gpu-node-3?"),
             item("item_2", "assistant", "output_audio", SAID),
             item("item_3", "assistant", "audio", "Restart it with the drafter.")]  # the beta's part
    path = tmp_path / "realtime.jsonl"
    path.write_text("".join(json.dumps(i) + "\n" for i in items))
    events = list(openai_chat.read(path, _cursor(path), ReadStats(), array=False))
    assert [(e.kind, e.text) for e in events] == [
        ("prompt", "Why is EAGLE-3 slow on gpu-node-3?"), ("text", SAID), ("text", "Restart it with the drafter.")]
