"""AI SDK 4's ``UIMessage`` keeps the assistant's text in ``content`` beside its ``parts`` (the calls
``{type: "tool-invocation", toolInvocation: {state, toolCallId, toolName, args, result}}``), and AI
SDK 3 kept the calls in ``toolInvocations`` with no parts (vercel/ai ``packages/ui-utils/src/types.ts``
of those releases). Apps saved ``useChat``'s messages so.

Before: the ``content`` was read and the calls beside it were not: no command, the failed launch's
output lost. Now the calls are read with their results, the text once."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.analysis import analyze_path

LAUNCH = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 --port 30000"
OOM = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
CALL = {"state": "result", "toolCallId": "call_1", "toolName": "bash", "args": {"command": LAUNCH},
        "result": {"stdout": "", "stderr": OOM, "exitCode": 1}}


def _analyzed(tmp_path: Path, assistant: dict):
    path = tmp_path / "chat.json"
    path.write_text(json.dumps([{"id": "u1", "role": "user", "content": "start the EAGLE-3 server",
                                 "parts": [{"type": "text", "text": "start the EAGLE-3 server"}]},
                                {"id": "a1", "role": "assistant", **assistant}], indent=2))
    return analyze_path(path)


def test_ai_sdk_4_content_beside_parts(tmp_path: Path) -> None:
    a = _analyzed(tmp_path, {"content": "It failed.", "parts": [
        {"type": "step-start"}, {"type": "tool-invocation", "toolInvocation": CALL},
        {"type": "text", "text": "It failed."}]})
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [(LAUNCH, 1, True)]
    assert [e.kind for e in a.errors] == ["cuda_oom"]


def test_ai_sdk_3_tool_invocations(tmp_path: Path) -> None:
    a = _analyzed(tmp_path, {"content": "It failed.", "toolInvocations": [CALL]})
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [(LAUNCH, 1, True)]
    assert [e.kind for e in a.errors] == ["cuda_oom"]
