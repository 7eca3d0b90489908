"""The Anthropic API's MCP connector inside a message: a call the API made to a remote MCP
server for the model, and the server's answer, both in the assistant's ``content``.

``{"type": "mcp_tool_use", "id": "mcptoolu_…", "name": "exec", "server_name": "gpu-ssh",
"input": {…}}`` is answered by ``{"type": "mcp_tool_result", "tool_use_id": "mcptoolu_…",
"is_error": false, "content": "…" | [{"type": "text", "text": "…"}]}`` (anthropics/
anthropic-sdk-php ``src/Models/Beta/BetaMCPToolUseBlock.php``; the Python SDK's
``types/beta/beta_request_mcp_tool_result_block_param.py``).

Unlike the API's own server tools (:mod:`formats.server_tools`), the server is the user's: an
SSH server's ``exec{host, command}`` ran the command on that host, as the same tool called by
Claude Code itself (``mcp__<server>__<tool>``) does, so the call is read the same way: the
command and the host of a shell-running tool (:func:`formats.common.remote_host`).
"""

from __future__ import annotations

from typing import Any


def as_tool_use(block: dict) -> dict[str, Any]:
    """The block as the ``tool_use`` Claude Code writes for the same MCP tool, named
    ``mcp__<server>__<tool>`` (the CLI's name for an MCP server's tool)."""
    name = block.get("name") if isinstance(block.get("name"), str) and block.get("name") else "?"
    server = block.get("server_name")
    if isinstance(server, str) and server:
        name = f"mcp__{server}__{name}"
    args = block.get("input")
    return {"type": "tool_use", "id": block.get("id"), "name": name, "input": args if isinstance(args, dict) else {}}
