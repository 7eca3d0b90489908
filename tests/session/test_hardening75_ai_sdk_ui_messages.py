"""What a chat app on the Vercel AI SDK saves is its ``UIMessage[]`` (what ``useChat`` holds, and
the server's ``onFinish`` gets): an assistant message has no ``content``, only ``parts``; a call is
one part ``{type: "tool-<name>" | "dynamic-tool", toolCallId, state, input, output | errorText}``
whose ``state`` says how it ended (``output-available``, ``output-error``, ``output-denied``), and
AI SDK 4 wrote ``{type: "tool-invocation", toolInvocation: {state: "result", toolName, args,
result}}`` (vercel/ai ``packages/ai/src/ui/ui-messages.ts``).

Before: the assistant's messages read as empty: no command, no error, the OOM of the launch lost.
Now each tool part is its call and, once it ended, its result: command, output, exit status; a
call the person denied is refused as such, one still waiting has no result."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.analysis import analyze_path

LAUNCH = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 --port 30000"
OOM = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"


def _write(tmp_path: Path, assistant_parts: list[dict]) -> Path:
    path = tmp_path / "chat-messages.json"
    path.write_text(json.dumps([
        {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "start the EAGLE-3 server"}]},
        {"id": "a1", "role": "assistant", "parts": assistant_parts}], indent=2))
    return path


def test_ai_sdk_5_tool_parts_are_calls_with_their_ends(tmp_path: Path) -> None:
    a = analyze_path(_write(tmp_path, [
        {"type": "step-start"},
        {"type": "reasoning", "text": "Check the GPU first.", "state": "done"},
        {"type": "tool-bash", "toolCallId": "call_1", "state": "output-available", "input": {"command": "nvidia-smi"},
         "output": {"stdout": "GPU 0: NVIDIA H100 80GB HBM3", "stderr": "", "exitCode": 0}},
        {"type": "step-start"},
        {"type": "tool-bash", "toolCallId": "call_2", "state": "output-error", "input": {"command": LAUNCH},
         "errorText": f"Traceback (most recent call last):\n{OOM}"},
        {"type": "dynamic-tool", "toolName": "bash", "toolCallId": "call_3", "state": "output-denied",
         "input": {"command": "sudo reboot"}, "approval": {"id": "ap_1", "approved": False, "reason": "no reboots"}},
        {"type": "tool-bash", "toolCallId": "call_4", "state": "input-available", "input": {"command": "sleep 600"}},
        {"type": "text", "text": "The launch ran out of GPU memory.", "state": "done"}]))
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [
        ("nvidia-smi", 0, False), (LAUNCH, None, True), ("sudo reboot", None, True), ("sleep 600", None, False)]
    assert [(e.kind, e.message, e.command_seq) for e in a.errors] == [
        ("cuda_oom", "CUDA out of memory. Tried to allocate 2.00 GiB", a.commands[1].seq),
        ("rejected", "no reboots", a.commands[2].seq)]
    assert [p.text for p in a.prompts] == ["start the EAGLE-3 server"]


def test_ai_sdk_4_tool_invocations_are_calls_with_their_results(tmp_path: Path) -> None:
    a = analyze_path(_write(tmp_path, [
        {"type": "tool-invocation", "toolInvocation": {
            "state": "result", "step": 0, "toolCallId": "call_1", "toolName": "bash", "args": {"command": LAUNCH},
            "result": {"stdout": "", "stderr": OOM, "exitCode": 1}}},
        {"type": "text", "text": "It failed."}]))
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [(LAUNCH, 1, True)]
    assert [e.kind for e in a.errors] == ["cuda_oom"]
