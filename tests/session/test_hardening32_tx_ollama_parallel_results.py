"""Two tool calls in one reply, answered by tool messages that carry no ``tool_call_id`` (Ollama
and other OpenAI-compatible stacks leave it out; Ollama may name the tool, ``tool_name``,
docs.ollama.com api/chat). Each result was paired with the most recent call: nvidia-smi's
output went to the log tail, the OOM in the log to no command at all, and nvidia-smi had no
result. The calls of a reply are answered in their order."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

CALLS = [{"id": "call_1", "type": "function", "function": {"name": "bash", "arguments": {"command": "ssh gpu01 nvidia-smi"}}},
         {"id": "call_2", "type": "function", "function": {"name": "read_log", "arguments": {
             "command": "ssh gpu01 tail -3 /var/log/sglang.log"}}}]


def _analyze(tmp_path: Path, results: list[dict]):
    messages = [{"role": "user", "content": "why is EAGLE-3 slow on gpu01?"},
                {"role": "assistant", "content": "", "tool_calls": CALLS}, *results]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(messages))
    return analyze_path(path)


def test_results_without_ids_answer_the_calls_in_order(tmp_path: Path) -> None:
    a = _analyze(tmp_path, [{"role": "tool", "content": [{"type": "text", "text": "GPU 0: NVIDIA H100"}]},
                            {"role": "tool", "content": "torch.OutOfMemoryError: CUDA out of memory."}])
    assert [(c.inner, c.result_seq, c.is_error) for c in a.commands] == [
        ("nvidia-smi", 2, False), ("tail -3 /var/log/sglang.log", 3, False)]  # the OOM is the log's
    assert [(e.kind, e.command_seq) for e in a.errors] == [("cuda_oom", a.commands[1].seq)]
    assert [(e.kind, e.command_seq) for e in a.errors] == [("cuda_oom", 1)]


def test_a_result_that_names_its_tool_answers_that_call(tmp_path: Path) -> None:
    a = _analyze(tmp_path, [{"role": "tool", "tool_name": "read_log", "content": "torch.OutOfMemoryError: CUDA out of memory."},
                            {"role": "tool", "tool_name": "bash", "content": "GPU 0: NVIDIA H100"}])
    assert [(c.inner, c.result_seq) for c in a.commands] == [
        ("nvidia-smi", 3), ("tail -3 /var/log/sglang.log", 2)]
