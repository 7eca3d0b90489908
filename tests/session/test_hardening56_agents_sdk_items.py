"""Responses API items one a line, as an OpenAI Agents SDK loop saves ``result.to_input_list()``: the
prompt ``{"content", "role": "user"}`` (no ``type``: openai/openai-agents-python ``src/agents/items.py``,
``ItemHelpers.input_to_new_input_list``), then ``reasoning``, ``function_call``/``function_call_output``
paired by ``call_id``, and the answer ``message``. The same items in one JSON array were read as OpenAI
chat; one a line they were taken for an old Codex rollout (bare items, but no rollout header), where
every output has its exit status, so a command whose program said it failed ("cat: ...: No such file or
directory", no status recorded) read as a success."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

_DECODE = ("Decode batch, #running-req: 1, #token: 90, token usage: 0.01, accept len: 1.21, accept rate: 0.05, "
           "cuda graph: True, gen throughput (token/s): 45.30, #queue-req: 0")
ITEMS = [
    {"content": "accept length on gpu07 is 1.2 since the upgrade; find why", "role": "user"},
    {"type": "reasoning", "id": "rs_01", "summary": [{"type": "summary_text", "text": "Read the server log first."}]},
    {"type": "function_call", "id": "fc_01", "call_id": "call_01", "name": "run_shell", "status": "completed",
     "arguments": json.dumps({"cmd": "ssh gpu07 tail -n 1 /var/log/sglang.log"})},
    {"type": "function_call_output", "call_id": "call_01", "output": [{"type": "input_text", "text": _DECODE}]},
    {"type": "function_call", "id": "fc_02", "call_id": "call_02", "name": "run_shell", "status": "completed",
     "arguments": json.dumps({"cmd": "ssh gpu07 cat /opt/draft/config.jsn"})},
    {"type": "function_call_output", "call_id": "call_02", "output": "cat: /opt/draft/config.jsn: No such file or directory"},
    {"type": "message", "id": "msg_01", "role": "assistant", "status": "completed",
     "content": [{"type": "output_text", "text": "The draft config path is wrong.", "annotations": []}]},
]


def _shape(path: Path) -> tuple:
    a = analyze_path(path)
    return (a.format, [(c.command, c.host, c.is_error) for c in a.commands], [e.kind for e in a.errors],
            [(m.name, m.value) for m in a.metrics if m.name == "accept_length"])


def test_agents_sdk_items_one_a_line_are_read_as_the_same_items_in_an_array(tmp_path):
    lines = tmp_path / "agent_items.jsonl"
    lines.write_text("".join(json.dumps(item) + "\n" for item in ITEMS))
    array = tmp_path / "agent_items.json"
    array.write_text(json.dumps(ITEMS, indent=1))
    expected = ("openai", [("ssh gpu07 tail -n 1 /var/log/sglang.log", "gpu07", False),
                           ("ssh gpu07 cat /opt/draft/config.jsn", "gpu07", True)],
                ["tool_error"], [("accept_length", 1.21)])
    assert _shape(array) == expected
    assert _shape(lines) == expected
