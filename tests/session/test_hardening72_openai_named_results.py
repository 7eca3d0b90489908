"""Tool results with no ``tool_call_id`` that name their tool in ``name``: OpenAI's legacy
``role: function`` message names the function it answers (openai/openai-python
src/openai/types/chat/chat_completion_function_message_param.py: ``name`` is required), and
Mistral's tool message carries ``name`` beside an optional ``tool_call_id``. Only Ollama's
``tool_name`` was read: two parallel calls answered in the reverse order had their outputs
swapped, by position (the log's CUDA OOM went to the ssh nvidia-smi call, whose output went to
the log read). A result answers the first open call of the name it gives, by position where that
name is no open call's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

CALLS = [{"id": "", "type": "function", "function": {"name": "bash", "arguments": {"command": "ssh gpu01 nvidia-smi"}}},
         {"id": "", "type": "function", "function": {"name": "read_log", "arguments": {
             "command": "ssh gpu01 tail -3 /var/log/sglang.log"}}}]
OOM = "torch.OutOfMemoryError: CUDA out of memory."
SMI = "GPU 0: NVIDIA H100"


def _analyze(tmp_path: Path, results: list[dict], calls: list[dict] = CALLS):
    messages = [{"role": "user", "content": "why is EAGLE-3 slow on gpu01?"},
                {"role": "assistant", "content": "", "tool_calls": calls}, *results]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(messages))
    return analyze_path(path)


@pytest.mark.parametrize("role", ["tool", "function"])
def test_a_result_that_names_its_tool_answers_that_call(tmp_path: Path, role: str) -> None:
    a = _analyze(tmp_path, [{"role": role, "name": "read_log", "content": OOM},
                            {"role": role, "name": "bash", "content": SMI}])
    assert [(c.inner, c.result_seq) for c in a.commands] == [
        ("nvidia-smi", 3), ("tail -3 /var/log/sglang.log", 2)]
    assert [(e.kind, e.command_seq) for e in a.errors] == [("cuda_oom", a.commands[1].seq)]


def test_a_name_no_open_call_has_answers_by_position(tmp_path: Path) -> None:
    a = _analyze(tmp_path, [{"role": "tool", "name": "functions", "content": SMI},
                            {"role": "tool", "name": "functions", "content": OOM}])
    assert [(c.inner, c.result_seq) for c in a.commands] == [
        ("nvidia-smi", 2), ("tail -3 /var/log/sglang.log", 3)]


def test_a_name_two_open_calls_share_answers_the_first(tmp_path: Path) -> None:
    calls = [{"id": "", "type": "function", "function": {"name": "bash", "arguments": {"command": "ssh gpu01 nvidia-smi"}}},
             {"id": "", "type": "function", "function": {"name": "bash", "arguments": {
                 "command": "ssh gpu01 tail -3 /var/log/sglang.log"}}}]
    a = _analyze(tmp_path, [{"role": "tool", "name": "bash", "content": SMI},
                            {"role": "tool", "name": "bash", "content": OOM}], calls)
    assert [(c.inner, c.result_seq) for c in a.commands] == [
        ("nvidia-smi", 2), ("tail -3 /var/log/sglang.log", 3)]


def test_ollama_tool_name_still_wins_over_name(tmp_path: Path) -> None:
    a = _analyze(tmp_path, [{"role": "tool", "tool_name": "read_log", "name": "bash", "content": OOM},
                            {"role": "tool", "tool_name": "bash", "content": SMI}])
    assert [(c.inner, c.result_seq) for c in a.commands] == [
        ("nvidia-smi", 3), ("tail -3 /var/log/sglang.log", 2)]
