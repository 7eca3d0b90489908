"""A log of chat requests where several requests share a head, then go their own ways: n samples
or a retry sent from the same history (chat completions are stateless: each request resends it,
TRANSCRIPTS.md section 1e). A request that began with no conversation read before whole was read
from its first message, so the head it shares with its sibling was read twice: the first call run
twice (a repeat that is none), the prompt twice."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

_SYSTEM = {"role": "system", "content": "You debug EAGLE-3 speculative decoding on a GPU fleet."}
_USER = {"role": "user", "content": "accept length dropped on gpu07 after the upgrade"}


def _call(call_id: str, command: str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function", "function": {"name": "bash", "arguments": json.dumps({"command": command})}}]}


def _result(call_id: str, output: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": output}


def _completion(message: dict) -> dict:
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 1755511502, "model": "gpt-4o",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]}


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_requests_that_branch_from_one_head_read_it_once(tmp_path):
    head = [_SYSTEM, _USER, _call("c1", "ssh gpu07 nvidia-smi"), _result("c1", "GPU 0: NVIDIA H100 80GB HBM3")]
    sample_a = head + [_call("c2a", "ssh gpu07 tail -n 50 /var/log/sglang.log"), _result("c2a", "ready")]
    sample_b = head + [_call("c2b", "ssh gpu07 pip show sglang"), _result("c2b", "Version: 0.4.9")]
    later_b = sample_b + [_call("c3", "ssh gpu07 cat /models/e3/config.json"), _result("c3", "{}")]
    a = analyze_path(_write(tmp_path / "requests.jsonl",
                            [{"model": "gpt-4o", "messages": m} for m in (head, sample_a, sample_b, later_b)]))
    assert [c.command for c in a.commands] == [
        "ssh gpu07 nvidia-smi", "ssh gpu07 tail -n 50 /var/log/sglang.log", "ssh gpu07 pip show sglang",
        "ssh gpu07 cat /models/e3/config.json"]
    assert a.stats["tool_calls"] == 4
    assert [p.text for p in a.prompts] == [_USER["content"]]


def test_a_retry_of_an_answered_request_reads_only_the_new_answer(tmp_path):
    request = {"model": "gpt-4o", "messages": [_SYSTEM, _USER]}
    a = analyze_path(_write(tmp_path / "requests.jsonl", [
        request, _completion(_call("c1", "ssh gpu07 nvidia-smi")),
        request, _completion(_call("c2", "ssh gpu07 journalctl -u sglang -n 50"))]))
    assert [c.command for c in a.commands] == ["ssh gpu07 nvidia-smi", "ssh gpu07 journalctl -u sglang -n 50"]
    assert [p.text for p in a.prompts] == [_USER["content"]]
