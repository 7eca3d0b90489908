"""A Chat Completions stream of a request made with the deprecated ``functions=`` carries its call
as ``choices[].delta.function_call`` pieces (its name first, then pieces of its arguments:
openai/openai-python ``types/chat/chat_completion_chunk.py`` ChoiceDeltaFunctionCall, put together
by ChatCompletionStreamState as any string field). The chat stream reader passed them over: the
call and its command were lost, while the same call in a saved chat message is read."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

ARGS = json.dumps({"command": "ssh gpu-node-3 nvidia-smi"})


def _chunk(delta: dict, finish: str | None = None) -> dict:
    return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1767225600, "model": "gpt-4o",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def test_a_streamed_legacy_function_call_is_read(tmp_path):
    chunks = [_chunk({"role": "assistant", "content": None, "function_call": {"name": "bash", "arguments": ""}}),
              _chunk({"function_call": {"arguments": ARGS[:12]}}), _chunk({"function_call": {"arguments": ARGS[12:]}}),
              _chunk({}, "function_call")]
    path = tmp_path / "stream.txt"
    path.write_text("".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n")
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu-node-3 nvidia-smi"]
    assert doc["stats"]["tool_calls"] == 1
