"""analyze: a shell tool's bare-string arguments are its command in Responses API items as in chat messages.

``arguments`` is "a JSON string" in a chat tool call and in a Responses ``function_call`` item
alike (openai/openai-python types/chat/chat_completion_message_function_tool_call.py,
types/responses/response_function_tool_call.py); some stacks send the bare command string
(``"arguments": "nvidia-smi"``). The chat reader took it as the command; the Responses reader
(saved item lists, request logs) did not: the call ran no command, its failure was nobody's.
Arguments cut short inside a JSON object stay no command in both, and so does a bare string
given to a tool that is no shell.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

GPU = "nvidia-smi --query-gpu=memory.used --format=csv"
COMPARE = "python compare_draft.py --ckpt /models/e3"
CRASH = "Traceback (most recent call last):\nRuntimeError: mat1 and mat2 shapes cannot be multiplied"


def _responses(tmp_path: Path, calls: list[tuple[str, str, str]]) -> Path:
    items = [{"type": "message", "role": "user",
              "content": [{"type": "input_text", "text": "Why does the drafter diverge on gpu01?"}]}]
    for n, (name, arguments, output) in enumerate(calls):
        items += [{"type": "function_call", "name": name, "call_id": f"call_{n}", "arguments": arguments},
                  {"type": "function_call_output", "call_id": f"call_{n}", "output": output}]
    path = tmp_path / "items.jsonl"
    path.write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")
    return path


def _chat(tmp_path: Path, calls: list[tuple[str, str, str]]) -> Path:
    messages = [{"role": "user", "content": "Why does the drafter diverge on gpu01?"}]
    for n, (name, arguments, output) in enumerate(calls):
        messages += [{"role": "assistant", "content": None, "tool_calls": [
                         {"id": f"call_{n}", "type": "function", "function": {"name": name, "arguments": arguments}}]},
                     {"role": "tool", "tool_call_id": f"call_{n}", "content": output}]
    path = tmp_path / "chat.jsonl"
    path.write_text("".join(json.dumps(m) + "\n" for m in messages), encoding="utf-8")
    return path


# Items of a program's own tools (a bare-string "shell", which Codex's argv tool never takes) with
# typed messages are read as OpenAI chat items (test_hardening59_responses_typed_items.py)
READERS = {"responses items": (_responses, "openai"), "chat messages": (_chat, "openai")}


@pytest.mark.parametrize(("build", "fmt"), READERS.values(), ids=READERS.keys())
def test_a_bare_command_string_is_the_shell_call_command(tmp_path, build, fmt):
    a = analyze_path(build(tmp_path, [("shell", GPU, "memory.used [MiB]\n80000 MiB"), ("bash", COMPARE, CRASH)]))
    assert a.sessions[0]["format"] == fmt
    assert [c.command for c in a.commands] == [GPU, COMPARE]
    [error] = [e for e in a.errors if e.exception == "RuntimeError"]
    assert error.command_seq == a.commands[1].seq  # the failure is the comparison's


@pytest.mark.parametrize(("build", "fmt"), READERS.values(), ids=READERS.keys())
def test_arguments_cut_short_or_for_another_tool_are_no_command(tmp_path, build, fmt):
    cut = '{"command": "nvidia-smi --query'  # a stream cut inside the JSON object
    a = analyze_path(build(tmp_path, [("shell", cut, ""), ("search_docs", "eagle3 hidden states", "no hits")]))
    assert a.sessions[0]["format"] == fmt
    assert a.commands == [] and a.stats["tool_calls"] == 2
