"""Messages an agent loop built on the Vercel AI SDK saves (``ModelMessage[]``: the ``messages`` it
sends, ``response.messages`` appended): the assistant's calls are ``{type: "tool-call", toolCallId,
toolName, input}`` parts (``args`` before AI SDK 5), the results ``role: "tool"`` messages of
``{type: "tool-result", toolCallId, toolName, output}`` parts, ``output`` one of ``{type: "text" |
"json" | "error-text" | "error-json" | "content", value}`` or ``{type: "execution-denied", reason}``
(vercel/ai ``packages/provider-utils/src/types/content-part.ts``; ``result`` and ``isError``
before AI SDK 5).

Before: such a file read as chat messages with no call at all: ``tool_calls: 0``, no command, no
error; the failed launch of the server and its traceback were lost. Now each part is the call or
the result it is: its command, its output, its exit status, its error."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.analysis import analyze_path

LAUNCH = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 --port 30000"
TRACE = ("Traceback (most recent call last):\n  File \"/srv/launch.py\", line 3, in <module>\n"
         "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB")


def _write(tmp_path: Path, messages: list[dict], name: str = "agent-messages.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(messages) if name.endswith(".json") else "".join(json.dumps(m) + "\n" for m in messages))
    return path


def _turn(call_id: str, tool: str, arguments: dict, output: dict, v4: bool = False) -> list[dict]:
    call = {"type": "tool-call", "toolCallId": call_id, "toolName": tool}
    call["args" if v4 else "input"] = arguments
    result = {"type": "tool-result", "toolCallId": call_id, "toolName": tool, **output}
    return [{"role": "assistant", "content": [{"type": "text", "text": "Running it."}, call]},
            {"role": "tool", "content": [result]}]


def test_ai_sdk_5_calls_and_results(tmp_path: Path) -> None:
    messages = [{"role": "system", "content": "You are a coding agent."},
                {"role": "user", "content": [{"type": "text", "text": "start the EAGLE-3 server"}]}]
    messages += _turn("call_1", "bash", {"command": LAUNCH},
                      {"output": {"type": "json", "value": {"stdout": "", "stderr": TRACE, "exitCode": 1}}})
    messages += _turn("call_2", "bash", {"command": "nvidia-smi --query-gpu=memory.used --format=csv"},
                      {"output": {"type": "text", "value": "memory.used [MiB]\n79000 MiB"}})
    messages += _turn("call_3", "bash", {"command": "pkill -f sglang"},
                      {"output": {"type": "execution-denied", "reason": "not now"}})
    messages.append({"role": "assistant", "content": [{"type": "text", "text": "The GPU is full."}]})
    for name in ("agent-messages.json", "agent-messages.jsonl"):
        a = analyze_path(_write(tmp_path, messages, name))
        assert a.stats["tool_calls"] == 3
        assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [
            (LAUNCH, 1, True),
            ("nvidia-smi --query-gpu=memory.used --format=csv", None, False),
            ("pkill -f sglang", None, True)]
        assert [(e.kind, e.command_seq) for e in a.errors] == [("cuda_oom", 2), ("rejected", 6)]
        assert a.errors[1].message == "not now"


def test_an_error_output_fails_its_call(tmp_path: Path) -> None:
    messages = [{"role": "user", "content": "is the server up?"}]
    messages += _turn("c1", "bash", {"command": "curl -sf localhost:30000/health"},
                      {"output": {"type": "error-text",
                                  "value": "curl: (7) Failed to connect to localhost port 30000: Connection refused"}})
    a = analyze_path(_write(tmp_path, messages))
    assert [(c.command, c.is_error) for c in a.commands] == [("curl -sf localhost:30000/health", True)]
    assert [e.message for e in a.errors] == ["curl: (7) Failed to connect to localhost port 30000: Connection refused"]


def test_ai_sdk_4_args_and_result(tmp_path: Path) -> None:
    messages = [{"role": "user", "content": "start the server"}]
    messages += _turn("c1", "runCommand", {"command": LAUNCH}, {"result": TRACE, "isError": True}, v4=True)
    a = analyze_path(_write(tmp_path, messages))
    assert [(c.command, c.is_error) for c in a.commands] == [(LAUNCH, True)]
    assert [e.kind for e in a.errors] == ["cuda_oom"]


def test_a_reasoning_part_is_thinking_not_the_reply(tmp_path: Path) -> None:
    from spec_debug.session.events import MAIN_AGENT, ReadStats
    from spec_debug.session.formats import openai_chat
    from spec_debug.session.formats.common import Cursor

    path = _write(tmp_path, [
        {"role": "user", "content": "why is the acceptance rate 0?"},
        {"role": "assistant", "content": [
            {"type": "reasoning", "text": "The draft's hidden size may not match the target's."},
            {"type": "text", "text": "Check the draft's config.json: hidden_size must be 4096."}]}], "m.jsonl")
    events = list(openai_chat.read(path, Cursor(session="s", agent=MAIN_AGENT, file=str(path)), ReadStats(),
                                   array=False))
    assert [(e.kind, e.text) for e in events[1:]] == [
        ("thinking", "The draft's hidden size may not match the target's."),
        ("text", "Check the draft's config.json: hidden_size must be 4096.")]
