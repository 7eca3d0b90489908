"""Parallel tool calls streamed all under ``index: 0``, each with its own ``id``: Ollama's
OpenAI-compatible endpoint does so (ollama/ollama#15457), as do the Responses-to-Chat bridges of
LiteLLM (BerriAI/litellm#21331) and Plexus (mcowger/plexus#691) and NVIDIA Dynamo before its fix
(ai-dynamo/dynamo#4723). Joined by ``index`` as the openai-python SDK joins them, the calls were one:
the first call's id and name, the arguments ``{"command": "ssh gpu01 nvidia-smi"}{"command": "ssh
gpu02 nvidia-smi"}`` back to back, read as the first alone: gpu02's check was never run. A new id
with a name, after a call whose arguments are a whole object, now opens the next call."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path


def _chunk(delta: dict, finish: str | None = None) -> dict:
    return {"id": "chatcmpl-7d1f", "object": "chat.completion.chunk", "created": 1760000000,
            "model": "qwen3:32b", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def _piece(arguments: str, call_id: str | None = None, name: str | None = None) -> dict:
    piece: dict = {"index": 0, "function": {"arguments": arguments}}
    if call_id is not None:
        piece.update(id=call_id, type="function")
        piece["function"]["name"] = name
    return _chunk({"tool_calls": [piece]})


def _commands(tmp_path: Path, pieces: list[dict]) -> list[tuple[str | None, str]]:
    chunks = [_chunk({"role": "assistant", "content": ""}), *pieces, _chunk({}, "tool_calls")]
    path = tmp_path / "stream.sse"
    path.write_text("".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n")
    return [(c.host, c.inner) for c in analyze_path(path).commands]


def test_whole_calls_under_one_index_are_each_a_call(tmp_path: Path) -> None:
    # Ollama: each call whole in one piece
    assert _commands(tmp_path, [
        _piece(json.dumps({"command": "ssh gpu01 nvidia-smi"}), "call_k2v1", "bash"),
        _piece(json.dumps({"command": "ssh gpu02 nvidia-smi"}), "call_9xq3", "bash"),
    ]) == [("gpu01", "nvidia-smi"), ("gpu02", "nvidia-smi")]  # was [("gpu01", "nvidia-smi")]


def test_streamed_arguments_go_to_the_call_last_opened(tmp_path: Path) -> None:
    # a bridge: the id and name first, then the arguments in pieces with no id
    assert _commands(tmp_path, [
        _piece("", "call_a", "bash"), _piece('{"command": "ssh gpu01 '), _piece('nvidia-smi"}'),
        _piece("", "call_b", "read_log"), _piece('{"command": "ssh gpu02 tail -3 '), _piece('/var/log/sglang.log"}'),
    ]) == [("gpu01", "nvidia-smi"), ("gpu02", "tail -3 /var/log/sglang.log")]


def test_an_id_repeated_or_changed_inside_one_call_keeps_one_call(tmp_path: Path) -> None:
    # servers that repeat the id (or, buggy, change it) in every piece of a call whose arguments are not whole yet
    assert _commands(tmp_path, [
        _piece('{"command": "ssh gpu01 ', "call_a", "bash"), _piece('nvidia-smi', "call_a", "bash"),
        _piece('"}', "call_a2", "bash"),
    ]) == [("gpu01", "nvidia-smi")]
