"""analyze: an edit tool of an OpenAI chat log (Anthropic's text editor tool
``str_replace_based_edit_tool``, OpenCode's edit) is a change by the text it wrote, not by its
arguments as sent: the call's text is its JSON arguments (formats.common.call_text), whose
``old_str`` holds the lines the edit left as they were. A str_replace of the draft's layer ids
whose old and new text both hold an unchanged ``"use_cuda_graph": true`` line "changed" the CUDA
graph guess's words, so "That fixed it" settled that guess and left the layer-ids guess open."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

LAUNCH = ("ssh gpu01 'python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /models/e3 --speculative-num-steps 3 --port 30000'")
LAYERS = "I suspect the draft was trained on other aux hidden state layer ids than SGLang captures."
GRAPH = "Maybe the CUDA graph capture is disabled for the draft."
FIXED = "That fixed it: 96.8 tok/s now."
KEEP = '  "use_cuda_graph": true,\n'
OLD = KEEP + '  "eagle_aux_hidden_state_layer_ids": [1, 23, 44],'
NEW = KEEP + '  "eagle_aux_hidden_state_layer_ids": [2, 16, 29],'


def _call(call_id: str, name: str, args: dict) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]}


def _result(call_id: str, output: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": output}


@pytest.mark.parametrize("name, args", [
    ("str_replace_based_edit_tool", {"command": "str_replace", "path": "/models/e3/config.json",
                                     "old_str": OLD, "new_str": NEW}),
    ("edit", {"filePath": "/models/e3/config.json", "oldString": OLD, "newString": NEW}),
])
def test_a_str_replace_of_the_layer_ids_confirms_the_layer_ids_guess(tmp_path: Path, name: str, args: dict) -> None:
    messages = [
        {"role": "system", "content": "You debug EAGLE-3 speculative decoding."},
        {"role": "user", "content": "EAGLE-3 gives 60 tok/s on gpu01."},
        _call("c1", "bash", {"command": LAUNCH}), _result("c1", "The server is fired up and ready to roll!"),
        {"role": "assistant", "content": LAYERS}, {"role": "assistant", "content": GRAPH},
        _call("e1", name, args), _result("e1", "The file /models/e3/config.json has been edited."),
        _call("c2", "bash", {"command": LAUNCH}), _result("c2", "The server is fired up and ready to roll!"),
        {"role": "assistant", "content": FIXED}]
    path = tmp_path / "chat.jsonl"
    path.write_text(json.dumps({"model": "gpt-4o", "messages": messages}) + "\n")
    a = analyze_path(path)
    assert [(h.text, h.status) for h in a.hypotheses] == [(LAYERS, "confirmed"), (GRAPH, "open")]


def test_the_text_editor_tool_runs_no_command(tmp_path: Path) -> None:
    # its "command" (view, str_replace) was read as a shell command typed where the agent ran
    messages = [
        {"role": "user", "content": "EAGLE-3 gives 60 tok/s on gpu01."},
        _call("v1", "str_replace_based_edit_tool", {"command": "view", "path": "/models/e3/config.json"}),
        _result("v1", '{"eagle_aux_hidden_state_layer_ids": [1, 23, 44]}'),
        _call("e1", "str_replace_based_edit_tool", {"command": "str_replace", "path": "/models/e3/config.json",
                                                    "old_str": OLD, "new_str": NEW}),
        _result("e1", "The file /models/e3/config.json has been edited.")]
    path = tmp_path / "chat.jsonl"
    path.write_text(json.dumps({"model": "gpt-4o", "messages": messages}) + "\n")
    a = analyze_path(path)
    assert a.commands == []
    assert [(e.path, e.tool) for e in a.file_edits] == [("/models/e3/config.json", "Edit")]


def test_the_text_editor_tool_in_an_anthropic_messages_log(tmp_path: Path) -> None:
    # the tool's native home: Messages API requests saved by an agent loop (tool_use blocks)
    def use(call_id: str, args: dict) -> dict:
        return {"role": "assistant", "content": [
            {"type": "tool_use", "id": call_id, "name": "str_replace_based_edit_tool", "input": args}]}

    def result(call_id: str, output: str) -> dict:
        return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call_id, "content": output}]}

    messages = [
        {"role": "user", "content": "EAGLE-3 gives 60 tok/s on gpu01."},
        use("v1", {"command": "view", "path": "/models/e3/config.json"}),
        result("v1", '{"eagle_aux_hidden_state_layer_ids": [1, 23, 44]}'),
        use("e1", {"command": "str_replace", "path": "/models/e3/config.json", "old_str": OLD, "new_str": NEW}),
        result("e1", "The file /models/e3/config.json has been edited.")]
    path = tmp_path / "messages.jsonl"
    path.write_text(json.dumps({"model": "claude-sonnet-4-5", "max_tokens": 4096, "messages": messages}) + "\n")
    a = analyze_path(path)
    assert a.commands == []
    assert [(e.path, e.tool) for e in a.file_edits] == [("/models/e3/config.json", "Edit")]


def test_the_text_editor_tool_in_an_anthropic_messages_log(tmp_path: Path) -> None:
    # the tool's native home: Messages API requests saved by an agent loop (tool_use blocks)
    def use(call_id: str, args: dict) -> dict:
        return {"role": "assistant", "content": [
            {"type": "tool_use", "id": call_id, "name": "str_replace_based_edit_tool", "input": args}]}

    def result(call_id: str, output: str) -> dict:
        return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call_id, "content": output}]}

    messages = [
        {"role": "user", "content": "EAGLE-3 gives 60 tok/s on gpu01."},
        use("v1", {"command": "view", "path": "/models/e3/config.json"}),
        result("v1", '{"eagle_aux_hidden_state_layer_ids": [1, 23, 44]}'),
        use("e1", {"command": "str_replace", "path": "/models/e3/config.json", "old_str": OLD, "new_str": NEW}),
        result("e1", "The file /models/e3/config.json has been edited.")]
    path = tmp_path / "messages.jsonl"
    path.write_text(json.dumps({"model": "claude-sonnet-4-5", "max_tokens": 4096, "messages": messages}) + "\n")
    a = analyze_path(path)
    assert a.commands == []
    assert [(e.path, e.tool) for e in a.file_edits] == [("/models/e3/config.json", "Edit")]
