"""The Responses API's built-in ``shell`` tool (GPT-5.1 and later) and ``apply_patch`` tool, as a
program's saved Responses items hold them (the OpenAI Agents SDK's ``to_input_list()`` dumped to
a file, a JSONL log of items, a response object): ``shell_call{action: {commands}}`` answered by
``shell_call_output{output: [{stdout, stderr, outcome: {type: exit, exit_code} | {type:
timeout}}]}``, one entry a command; ``apply_patch_call{operation: {type, path, diff}}`` answered by
``apply_patch_call_output{status: completed | failed}``; and the older ``local_shell_call_output``
(openai/openai-python ``types/responses/``; shapes as several independent proxies' fixtures
write them). Before: every one of them an unknown item; no command, exit code, timeout or
failed patch."""

from __future__ import annotations

import json

import pytest

from spec_debug.session import analyze_path

ITEMS = [
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "why is the drafter slow on gpu-node-3"}]},
    {"type": "shell_call", "id": "sh_1", "call_id": "call_1", "status": "completed",
     "action": {"commands": ["ssh gpu-node-3 nvidia-smi", "ssh gpu-node-3 'systemctl status vllm'"],
                "timeout_ms": 120000, "max_output_length": 4096}},
    {"type": "shell_call_output", "call_id": "call_1", "max_output_length": 4096, "output": [
        {"stdout": "NVIDIA-SMI 550.54\n", "stderr": "", "outcome": {"type": "exit", "exit_code": 0}},
        {"stdout": "", "stderr": "Unit vllm.service could not be found.\n", "outcome": {"type": "exit", "exit_code": 4}}]},
    {"type": "shell_call", "id": "sh_2", "call_id": "call_2", "status": "completed",
     "action": {"commands": ["ssh gpu-node-3 'tail -f /var/log/vllm.log'"], "timeout_ms": 1000}},
    {"type": "shell_call_output", "call_id": "call_2",
     "output": [{"stdout": "INFO speculative decoding enabled\n", "stderr": "", "outcome": {"type": "timeout"}}]},
    {"type": "local_shell_call", "id": "lsc_1", "call_id": "call_3", "status": "completed",
     "action": {"type": "exec", "command": ["bash", "-lc", "python3 -c 'import sys; sys.exit(3)'"]}},
    {"type": "local_shell_call_output", "id": "call_3", "output": "Process exited with code 3\n"},
    {"type": "apply_patch_call", "call_id": "call_4", "status": "completed",
     "operation": {"type": "update_file", "path": "launch.sh", "diff": "@@\n-x\n+y\n"}},
    {"type": "apply_patch_call_output", "call_id": "call_4", "status": "failed", "output": "Failed to find expected lines"},
    {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "vllm.service is missing."}]},
]
SMI, STATUS, TAIL = "ssh gpu-node-3 nvidia-smi", "ssh gpu-node-3 'systemctl status vllm'", "ssh gpu-node-3 'tail -f /var/log/vllm.log'"
EXIT_3 = "python3 -c 'import sys; sys.exit(3)'"


def _write(path, shape):
    if shape == "array":
        path.write_text(json.dumps(ITEMS, indent=2))
    elif shape == "jsonl":
        path.write_text("".join(json.dumps(item) + "\n" for item in ITEMS))
    else:  # a response object saved whole
        path.write_text(json.dumps({"id": "resp_1", "object": "response", "status": "completed", "output": ITEMS}))
    return path


@pytest.mark.parametrize("shape", ["array", "jsonl", "response"])
def test_shell_and_patch_items_are_calls_with_their_results(tmp_path, shape):
    doc = analyze_path(_write(tmp_path / "items.json", shape)).to_json()
    assert doc["stats"]["unknown_types"] == 0
    got = {c["command"]: (c["exit_code"], c["is_error"], c["host"]) for c in doc["commands"]}
    # each command of a shell call has its own output entry, exit code and errors
    assert got == {SMI: (0, False, "gpu-node-3"), STATUS: (4, True, "gpu-node-3"), TAIL: (None, True, "gpu-node-3"),
                   EXIT_3: (3, True, None)}
    kinds = {e["message"]: e["kind"] for e in doc["errors"]}
    assert kinds["Unit vllm.service could not be found."] == "exit_code"
    assert "timeout" in kinds.values()
    assert kinds["Failed to find expected lines"] == "tool_error"  # the failed patch
