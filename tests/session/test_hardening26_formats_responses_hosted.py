"""A Responses API response holds its hosted tools' calls with their results in one item:
``mcp_call{server_label, name, arguments, output, error}`` (a remote MCP server the API called)
and ``code_interpreter_call{code, outputs: [{type: logs, logs}], status}`` (openai/openai-python
``types/responses/response_output_item.py`` ``McpCall``, ``response_code_interpreter_tool_call.py``);
the other hosted tools' items (``mcp_list_tools``, ``file_search_call``...) are known items.
Before: all of them unknown, an MCP SSH tool's command and its connection failure lost."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

RESPONSE = {"id": "resp_1", "object": "response", "status": "completed", "model": "gpt-5", "output": [
    {"id": "mcpl_1", "type": "mcp_list_tools", "server_label": "ops", "tools": [{"name": "run_remote", "input_schema": {}}]},
    {"id": "mcp_1", "type": "mcp_call", "server_label": "ops", "name": "run_remote",
     "arguments": json.dumps({"host": "gpu-node-3", "command": "nvidia-smi"}), "output": None,
     "error": "ssh: connect to host gpu-node-3 port 22: Connection timed out"},
    {"id": "mcp_2", "type": "mcp_call", "server_label": "docs", "name": "search", "arguments": "{\"q\": \"eagle3\"}",
     "output": "3 results", "error": None, "status": "completed"},
    {"id": "ci_1", "type": "code_interpreter_call", "status": "completed", "container_id": "cntr_1",
     "code": "import torch; print(torch.cuda.is_available())", "outputs": [{"type": "logs", "logs": "False\n"}]},
    {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
     "content": [{"type": "output_text", "text": "The host timed out.", "annotations": []}]},
]}


def test_hosted_tool_items_are_calls_with_their_results(tmp_path):
    path = tmp_path / "response.json"
    path.write_text(json.dumps(RESPONSE))
    doc = analyze_path(path).to_json()
    assert doc["stats"]["unknown_types"] == 0
    assert doc["stats"]["tool_calls"] == 3
    assert [(c["command"], c["is_error"], c["host"]) for c in doc["commands"]] == [("nvidia-smi", True, "gpu-node-3")]
    assert [(e["kind"], e["message"]) for e in doc["errors"]] == [
        ("connection", "ssh: connect to host gpu-node-3 port 22: Connection timed out")]
