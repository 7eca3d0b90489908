"""A log of the chat requests two agent loops sent through one proxy (an eval's samples run side
by side): each request resends its conversation's whole history (chat completions are stateless,
TRANSCRIPTS.md section 1e), and the two conversations' requests alternate. Before, a request was
matched only against the line before it (the other conversation's), so each conversation's calls
were read again with every request: six calls for four, the same command twice."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

_SYSTEM = {"role": "system", "content": "You debug EAGLE-3 speculative decoding on a GPU fleet."}
_DECODE = ("[2025-08-18 10:05:02] Decode batch, #running-req: 1, #token: 1042, token usage: 0.01, accept len: 1.21, "
           "accept rate: 0.10, cuda graph: True, gen throughput (token/s): 48.20, #queue-req: 0")


def _call(call_id: str, command: str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function", "function": {"name": "bash", "arguments": json.dumps({"command": command})}}]}


def _result(call_id: str, output: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": output}


def _write_log(path: Path) -> Path:
    first = [_SYSTEM, {"role": "user", "content": "accept length dropped on gpu07 after the upgrade"},
             _call("call_a1", "ssh gpu07 nvidia-smi"), _result("call_a1", "GPU 0: NVIDIA H100 80GB HBM3")]
    other = [_SYSTEM, {"role": "user", "content": "vllm on gpu09 will not start"},
             _call("call_b1", "ssh gpu09 journalctl -u vllm -n 50"), _result("call_b1", "Started vllm.service.")]
    first_later = first + [_call("call_a2", "ssh gpu07 tail -n 100 /var/log/sglang.log"), _result("call_a2", _DECODE)]
    other_later = other + [_call("call_b2", "ssh gpu09 nvidia-smi"), _result("call_b2", "GPU 0: NVIDIA H100 80GB HBM3")]
    requests = [first, other, first_later, other_later]
    path.write_text("".join(json.dumps({"model": "gpt-4o", "messages": m}) + "\n" for m in requests))
    return path


def test_interleaved_requests_read_each_call_once(tmp_path):
    a = analyze_path(_write_log(tmp_path / "proxy_requests.jsonl"))
    assert [c.command for c in a.commands] == [
        "ssh gpu07 nvidia-smi", "ssh gpu09 journalctl -u vllm -n 50",
        "ssh gpu07 tail -n 100 /var/log/sglang.log", "ssh gpu09 nvidia-smi"]
    assert a.stats["tool_calls"] == 4
    assert [(m.name, m.value, m.host) for m in a.metrics if m.name == "accept_length"] == [("accept_length", 1.21, "gpu07")]
