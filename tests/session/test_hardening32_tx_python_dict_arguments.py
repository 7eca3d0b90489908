"""Tool-call arguments saved as a Python dict's repr, ``{'command': 'ssh gpu01 nvidia-smi'}``:
an agent that turns the object an API returned into text with ``str()`` writes them so
(NousResearch/hermes-agent PR #1087), and models behind a lenient parser do too (waybarrios/
vllm-mlx issue #63). Not JSON, the whole text was read as the command: no host, no category,
``{'command': ...`` shown as what ran, and a distilled step that ran the braces."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.formats.common import decode_arguments


def test_a_python_dict_repr_is_read_as_the_arguments(tmp_path: Path) -> None:
    messages = [
        {"role": "user", "content": "Why is EAGLE-3 slow on gpu01?"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
            "name": "terminal", "arguments": "{'command': \"ssh gpu01 'tail -3 /var/log/sglang.log'\", 'timeout': 60}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "torch.OutOfMemoryError: CUDA out of memory."},
    ]
    path = tmp_path / "trajectory.json"
    path.write_text(json.dumps(messages))
    a = analyze_path(path)
    assert [(c.command, c.host, c.inner) for c in a.commands] == [
        ("ssh gpu01 'tail -3 /var/log/sglang.log'", "gpu01", "tail -3 /var/log/sglang.log")]
    assert [e.host for e in a.errors] == ["gpu01"]


def test_only_a_literal_is_read() -> None:
    assert decode_arguments("{'cmd': ['nvidia-smi'], 'ok': True}") == {"cmd": ["nvidia-smi"], "ok": True}
    assert decode_arguments("{'command': __import__('os').system('id')}") is None
    assert decode_arguments("{'command': 'unterminated}") is None


def test_arguments_fenced_as_markdown_are_the_object_inside(tmp_path: Path) -> None:
    # earendil-works/pi issue #8858: DeepSeek through an OpenAI-compatible gateway
    messages = [
        {"role": "user", "content": "Is gpu01 out of disk?"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
            "name": "bash", "arguments": "```json\n{\"command\": \"ssh gpu01 df -h /models\"}\n```"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "/dev/nvme0n1  3.5T  3.5T  0 100% /models"},
    ]
    path = tmp_path / "fenced.json"
    path.write_text(json.dumps(messages))
    assert [(c.command, c.host) for c in analyze_path(path).commands] == [("ssh gpu01 df -h /models", "gpu01")]
