"""A log of chat requests (each one resends the history) from a client that regenerates the ids of
the calls each time it builds the history (cloudflare/ai PR #384: "tool call IDs were regenerated
when constructing conversation history for subsequent turns"); vLLM and SGLang take such requests.
The resent history differed from the one read before by its ids alone, was read as new, and every
earlier command ran again at each turn: ``nvidia-smi -L`` twice, its output's errors twice. A
resent message is now the same message whatever ids its calls and results carry."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

PROMPT = {"role": "user", "content": "why does the EAGLE-3 server on gpu01 crash?"}
SMI = "GPU 0: NVIDIA H100 80GB HBM3\nnvidia-smi: Unable to determine the device handle for GPU1: Unknown Error"
OOM = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"


def _calls(call_id: str, command: str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function", "function": {"name": "bash", "arguments": json.dumps({"command": command})}}]}


def _result(call_id: str, text: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": text}


def _analyze(tmp_path: Path, requests: list[list[dict]]):
    path = tmp_path / "requests.jsonl"
    path.write_text("".join(json.dumps({"model": "Qwen/Qwen3-32B", "messages": m}) + "\n" for m in requests))
    return analyze_path(path)


def test_history_resent_under_new_ids_is_read_once(tmp_path: Path) -> None:
    a = _analyze(tmp_path, [
        [PROMPT],
        [PROMPT, _calls("chatcmpl-tool-1a", "ssh gpu01 nvidia-smi -L"), _result("chatcmpl-tool-1a", SMI)],
        [PROMPT, _calls("chatcmpl-tool-2b", "ssh gpu01 nvidia-smi -L"), _result("chatcmpl-tool-2b", SMI),
         _calls("chatcmpl-tool-2c", "ssh gpu01 tail -3 /var/log/sglang.log"), _result("chatcmpl-tool-2c", OOM)],
    ])
    # was [("nvidia-smi -L", 1, 2), ("nvidia-smi -L", 3, 4), ("tail ...", 5, 6)]
    assert [(c.inner, c.seq, c.result_seq) for c in a.commands] == [
        ("nvidia-smi -L", 1, 2), ("tail -3 /var/log/sglang.log", 3, 4)]
    assert [(e.kind, e.command_seq) for e in a.errors if e.kind == "cuda_oom"] == [("cuda_oom", 3)]


def test_a_result_first_sent_with_the_resent_call_answers_it(tmp_path: Path) -> None:
    # the call logged in one request, its result first in the next, both under the new id
    a = _analyze(tmp_path, [
        [PROMPT, _calls("chatcmpl-tool-1a", "ssh gpu01 tail -3 /var/log/sglang.log")],
        [PROMPT, _calls("chatcmpl-tool-2b", "ssh gpu01 tail -3 /var/log/sglang.log"), _result("chatcmpl-tool-2b", OOM)],
    ])
    assert [(c.inner, c.seq, c.result_seq) for c in a.commands] == [("tail -3 /var/log/sglang.log", 1, 2)]
    assert [(e.kind, e.command_seq) for e in a.errors] == [("cuda_oom", 1)]


def test_a_new_call_that_repeats_the_last_one_is_still_new(tmp_path: Path) -> None:
    a = _analyze(tmp_path, [
        [PROMPT, _calls("c1", "ssh gpu01 nvidia-smi -L"), _result("c1", SMI)],
        [PROMPT, _calls("c1", "ssh gpu01 nvidia-smi -L"), _result("c1", SMI),
         _calls("c2", "ssh gpu01 nvidia-smi -L"), _result("c2", SMI)],
    ])
    assert [(c.inner, c.seq, c.result_seq) for c in a.commands] == [("nvidia-smi -L", 1, 2), ("nvidia-smi -L", 3, 4)]
