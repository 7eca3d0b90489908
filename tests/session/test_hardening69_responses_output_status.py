"""An agent on the Responses API hands its tool's output back as a ``function_call_output`` item. The
exit code the output says was read only when Codex's own ``Exit code: N`` header opened it: OpenHands'
SDK (which talks to GPT-5 models over the Responses API) ends its terminal output with ``[The command
completed with exit code N.]`` (OpenHands/software-agent-sdk ``openhands-tools/openhands/tools/terminal/
terminal/terminal_session.py``, ``definition.py`` ``to_llm_content``) and sends it as the item's output
(``openhands-sdk/openhands/sdk/llm/utils/responses_serialization.py``, ``_tool_to_responses_items``).
The same text in a chat ``role: tool`` message was read; in the item, a failed build was no failure."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path


def _terminal(output: str, code: int) -> str:
    """A TerminalObservation as the model reads it."""
    return (f"{output}\n[The command completed with exit code {code}.]\n"
            f"[Current working directory: /workspace/sglang]\n[Command finished with exit code {code}]")


def _call(call_id: str, command: str) -> dict:
    return {"type": "function_call", "call_id": call_id, "name": "terminal",
            "arguments": json.dumps({"command": command, "security_risk": "LOW"})}


def _output(call_id: str, text: str) -> dict:
    return {"type": "function_call_output", "call_id": call_id, "output": text}


def _request(tmp_path: Path, items: list) -> Path:
    path = tmp_path / "request.json"
    path.write_text(json.dumps({"model": "gpt-5", "instructions": "You are OpenHands agent.", "input": items,
                                "tools": [], "store": False}))
    return path


def test_openhands_terminal_status_in_a_function_call_output(tmp_path: Path) -> None:
    items = [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "build the eagle3 kernels"}]},
        _call("call_1", "pip install -e python/"),
        _output("call_1", _terminal("Successfully installed sglang-0.5.6", 0)),
        _call("call_2", "python -m sglang.launch_server --speculative-algorithm EAGLE3"),
        _output("call_2", _terminal("Traceback (most recent call last):\nRuntimeError: CUDA error: out of memory", 1)),
    ]
    doc = analyze_path(_request(tmp_path, items)).to_json()
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [
        ("pip install -e python/", 0),
        ("python -m sglang.launch_server --speculative-algorithm EAGLE3", 1)]


def test_a_trailing_status_line_of_an_own_loop(tmp_path: Path) -> None:
    """The line a loop of one's own appends reads as in a chat ``role: tool`` message
    (common.shell_result): the last line alone."""
    items = [_call("call_1", "nvidia-smi"), _output("call_1", "NVIDIA-SMI has failed\nexit code: 9"),
             _call("call_2", "grep 'exit code: 9' notes.txt"), _output("call_2", "exit code: 9 means the driver\nok")]
    doc = analyze_path(_request(tmp_path, items)).to_json()
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [
        ("nvidia-smi", 9), ("grep 'exit code: 9' notes.txt", None)]
