"""Responses API items a program saved one a line, its messages typed as the API's own input list
({"type": "message", "role": "user", "content": [{"type": "input_text"}]}), with more tool items
than messages: the vote went to the Codex reader, which reads an output with no exit code as a
command that worked, so a program's own shell tool answering "NVIDIA-SMI has failed" was no error.
A headerless rollout of the old Codex CLI (bare items calling Codex's own ``shell``) stays Codex."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

NVSMI_FAILED = ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
                "Make sure that the latest NVIDIA driver is installed and running.")


def _write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def _items(tool: str, output: str):
    # the shape of openai/openai-python's ResponseInputItemParam list (types/responses/), as an
    # agent loop appends each model output item and each function_call_output to its `input`
    return [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "is the gpu ok on the box?"}]},
        {"type": "function_call", "name": tool, "call_id": "call_a1",
         "arguments": json.dumps({"command": "nvidia-smi"} if tool != "shell" else {"command": ["nvidia-smi"]})},
        {"type": "function_call_output", "call_id": "call_a1", "output": output},
        {"type": "function_call", "name": tool, "call_id": "call_a2",
         "arguments": json.dumps({"command": "lsmod"} if tool != "shell" else {"command": ["lsmod"]})},
        {"type": "function_call_output", "call_id": "call_a2", "output": "Module  Size  Used by"},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "The driver is not loaded."}]},
    ]


def test_program_items_with_typed_messages_read_as_chat_and_failure_seen(tmp_path):
    out = analyze_path(_write(tmp_path / "agent_items.jsonl", _items("run_shell", NVSMI_FAILED))).to_json()
    assert out["format"] == "openai"
    (nvsmi, _lsmod) = out["commands"]
    assert nvsmi["command"] == "nvidia-smi" and nvsmi["is_error"] is True
    assert [e["message"] for e in out["errors"]] == [NVSMI_FAILED]


def test_headerless_codex_items_stay_codex(tmp_path):
    wrapped = json.dumps({"output": NVSMI_FAILED, "metadata": {"exit_code": 9, "duration_seconds": 0.1}})
    out = analyze_path(_write(tmp_path / "cut-rollout.jsonl", _items("shell", wrapped))).to_json()
    assert out["format"] == "codex"
    assert out["commands"][0]["exit_code"] == 9


def test_a_program_tool_named_shell_taking_a_string_is_no_codex_call(tmp_path):
    # Codex's own shell tool takes an argv (openai/codex codex-rs/core/src/tools/spec.rs); an app's
    # function tool that happens to be called "shell" takes the command line as a string
    items = _items("shell", NVSMI_FAILED)
    for item in items:
        if item["type"] == "function_call":
            item["arguments"] = json.dumps({"command": json.loads(item["arguments"])["command"][0]})
    out = analyze_path(_write(tmp_path / "app_items.jsonl", items)).to_json()
    assert out["format"] == "openai"
    assert out["commands"][0]["is_error"] is True
