"""A ``local_shell_call`` (the ``codex-mini`` model's tool) and its output are matched by more
than ``call_id``: Codex answers a call whose ``call_id`` is null under its item ``id`` (openai/codex
``codex-rs/core`` takes ``call_id`` or ``id`` for a ``LocalShellCall``; rollouts hold
``"call_id": null``), and the API's ``local_shell_call_output`` names the call by ``id``, which
proxies fill with the call item's id. Before: the result matched no call, the command's exit
code was lost."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path


def _commands(path) -> list:
    return [(c["command"], c["exit_code"], c["is_error"]) for c in analyze_path(path).to_json()["commands"]]


def test_a_rollout_local_shell_call_without_call_id_is_answered_under_its_item_id(tmp_path):
    lines = [
        {"timestamp": "2025-08-03T10:00:00.000Z", "type": "session_meta",
         "payload": {"id": "x", "timestamp": "2025-08-03T10:00:00.000Z", "cwd": "/w", "cli_version": "0.20.0"}},
        {"timestamp": "2025-08-03T10:00:02.000Z", "type": "response_item", "payload": {
            "type": "local_shell_call", "id": "lsh_1", "call_id": None, "status": "completed",
            "action": {"type": "exec", "command": ["bash", "-lc", "nvidia-smi"]}}},
        {"timestamp": "2025-08-03T10:00:03.000Z", "type": "response_item", "payload": {
            "type": "function_call_output", "call_id": "lsh_1",
            "output": json.dumps({"output": "NVIDIA-SMI has failed\n", "metadata": {"exit_code": 9}})}},
    ]
    path = tmp_path / "rollout-2025-08-03T10-00-00-x.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert _commands(path) == [("nvidia-smi", 9, True)]


def test_a_local_shell_call_output_naming_the_call_item_id_is_the_calls(tmp_path):
    items = [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "run the tests"}]},
        {"type": "local_shell_call", "id": "lsh_item", "call_id": "c-l", "status": "completed",
         "action": {"type": "exec", "command": ["make", "test"]}},
        {"type": "local_shell_call_output", "id": "lsh_item", "status": "completed",
         "output": json.dumps({"output": "FAIL\n", "metadata": {"exit_code": 2}})},
    ]
    path = tmp_path / "items.json"
    path.write_text(json.dumps(items))
    assert _commands(path) == [("make test", 2, True)]
