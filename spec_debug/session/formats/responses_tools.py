"""The Responses API's built-in shell and apply_patch tools, as their items are saved.

GPT-5.1 and later models call OpenAI's ``shell`` tool with a ``shell_call`` item, ``{call_id,
action: {commands: [...], timeout_ms, max_output_length}}``, answered by ``shell_call_output``,
``{call_id, output: [{stdout, stderr, outcome: {type: "exit", exit_code} | {type: "timeout"}}]}``,
one entry a command; the ``apply_patch`` tool's ``apply_patch_call``, ``{call_id, operation:
{type: create_file | update_file | delete_file, path, diff}}``, is answered by
``apply_patch_call_output``, ``{call_id, status: completed | failed, output}`` (openai/openai-python
``types/responses/response_function_shell_tool_call.py``, ``response_function_shell_call_output_
content.py``, ``response_apply_patch_tool_call.py``; the same shapes in several independent
proxies' and SDKs' fixtures). The older ``local_shell`` tool's output is ``local_shell_call_output``,
``{id: <the call's call_id>, output}`` (``response_input_item_param.py`` ``LocalShellCallOutput``).
The hosted tools' items hold the call and its
result in one: ``mcp_call{server_label, name, arguments, output, error}`` (a remote MCP server
the API called) and ``code_interpreter_call{code, outputs: [{type: logs, logs}], status}``
(``response_output_item.py`` ``McpCall``, ``response_code_interpreter_tool_call.py``).
A program that keeps its Responses items (the OpenAI Agents SDK's ``to_input_list()``, a JSONL
log of them) holds these beside ``function_call`` items; read as unknown items, their commands,
exit codes and failed patches were lost.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from spec_debug.session.events import Event
from spec_debug.session.formats.common import block_text, decode_arguments, remote_host, shell_command

_QUIET = frozenset({"mcp_list_tools", "mcp_approval_request", "mcp_approval_response", "file_search_call",
                    "image_generation_call", "computer_call", "computer_call_output"})
"""Items of the API's other hosted tools: known, kept as ``other``; none runs a command."""
ITEM_TYPES = frozenset({"shell_call", "shell_call_output", "apply_patch_call", "apply_patch_call_output",
                        "local_shell_call_output", "mcp_call", "code_interpreter_call"}) | _QUIET
SHELL_TOOL = "shell"
PATCH_TOOL = "apply_patch"
_TIMED_OUT = "command timed out"
"""Written after a command whose outcome is ``timeout`` (the item has no text for it)."""


def events(item: dict, item_type: str, event: Callable[..., Event]) -> Iterator[Event]:
    """The events of one item of :data:`ITEM_TYPES` but ``local_shell_call_output`` (read as a
    ``function_call_output``, see :func:`output_call_id`)."""
    call_id = item.get("call_id") if isinstance(item.get("call_id"), str) else None
    if item_type == "shell_call":
        yield from _shell_calls(item, call_id, event)
    elif item_type == "shell_call_output":
        yield from _shell_outputs(item, call_id, event)
    elif item_type == "apply_patch_call":
        operation = item.get("operation") if isinstance(item.get("operation"), dict) else {}
        path = operation.get("path") if isinstance(operation.get("path"), str) else None
        diff = operation.get("diff") if isinstance(operation.get("diff"), str) else ""
        kind = operation.get("type") if isinstance(operation.get("type"), str) else "patch"
        yield event("tool_call", "assistant", tool_name=PATCH_TOOL, call_id=call_id, path=path,
                    text=f"{kind} {path or '?'}\n{diff}".rstrip())
    elif item_type == "mcp_call":
        yield from _mcp_call(item, event)
    elif item_type == "code_interpreter_call":
        yield from _code_interpreter(item, event)
    elif item_type in _QUIET:
        yield event("other", "assistant", raw_type=f"response_item:{item_type}")
    elif item_type == "apply_patch_call_output":
        output = item.get("output") if isinstance(item.get("output"), str) else ""
        yield event("tool_result", "tool", call_id=call_id, text=output, is_error=item.get("status") == "failed")


def output_call_id(item: dict) -> str | None:
    """A ``local_shell_call_output``'s call: its ``call_id``, else its ``id`` (the API names the
    call by ``id`` there)."""
    for key in ("call_id", "id"):
        if isinstance(item.get(key), str):
            return item[key]
    return None


def _nth(call_id: str | None, n: int) -> str | None:
    """The call id of the n-th command of a shell call: each command has an output entry of its
    own, its own exit code and errors, so each is a call of its own (the first keeps the id)."""
    return call_id if n == 0 or call_id is None else f"{call_id}#{n + 1}"


def _shell_calls(item: dict, call_id: str | None, event) -> Iterator[Event]:
    action = item.get("action") if isinstance(item.get("action"), dict) else {}
    commands = action.get("commands")
    if isinstance(commands, str):
        commands = [commands]
    lines = [c for c in commands if isinstance(c, str) and c.strip()] if isinstance(commands, list) else []
    if not lines:
        yield event("tool_call", "assistant", tool_name=SHELL_TOOL, call_id=call_id, text="")
    for n, command in enumerate(lines):
        yield event("tool_call", "assistant", n, tool_name=SHELL_TOOL, call_id=_nth(call_id, n),
                    command=command, text=command)


def _shell_outputs(item: dict, call_id: str | None, event) -> Iterator[Event]:
    output = item.get("output")
    if isinstance(output, str):
        yield event("tool_result", "tool", call_id=call_id, text=output)  # a program's own shape
        return
    entries = [e for e in output if isinstance(e, dict)] if isinstance(output, list) else []
    for n, entry in enumerate(entries):
        texts = [entry[k].rstrip("\n") for k in ("stdout", "stderr") if isinstance(entry.get(k), str) and entry[k]]
        outcome = entry.get("outcome") if isinstance(entry.get("outcome"), dict) else {}
        code = outcome.get("exit_code")
        code = code if isinstance(code, int) and not isinstance(code, bool) else None
        timed_out = outcome.get("type") == "timeout"
        if timed_out:
            texts.append(_TIMED_OUT)
        yield event("tool_result", "tool", n, call_id=_nth(call_id, n), text="\n".join(texts),
                    exit_code=code, is_error=timed_out or bool(code))


def _mcp_call(item: dict, event) -> Iterator[Event]:
    """A call the API made to a remote MCP server, with its output or error. Named
    ``mcp__<server>__<tool>`` as Codex and Claude Code name MCP tools; a tool whose arguments
    hold a command (an SSH tool's ``{host, command}``) runs one, as a saved function call's does."""
    call_id = item.get("id") if isinstance(item.get("id"), str) else None
    server = item.get("server_label") if isinstance(item.get("server_label"), str) else "?"
    name = f"mcp__{server}__{item.get('name') if isinstance(item.get('name'), str) else '?'}"
    raw = item.get("arguments")
    args = decode_arguments(raw)
    command = shell_command(args) if isinstance(args, dict) else None
    yield event("tool_call", "assistant", tool_name=name, call_id=call_id, command=command,
                text=command or (raw if isinstance(raw, str) else ""),
                host=remote_host(args) if command is not None else None)
    error = item.get("error") if isinstance(item.get("error"), str) and item["error"] else None
    output = item.get("output") if isinstance(item.get("output"), str) else ""
    if error is not None or output or item.get("status") in ("completed", "failed", "incomplete"):
        yield event("tool_result", "tool", 1, call_id=call_id, text=error or output,
                    is_error=error is not None or item.get("status") == "failed")


def _code_interpreter(item: dict, event) -> Iterator[Event]:
    """Python the API ran in its own container (not a shell on the person's hosts): the call and
    the logs it printed."""
    call_id = item.get("id") if isinstance(item.get("id"), str) else None
    code = item.get("code") if isinstance(item.get("code"), str) else ""
    yield event("tool_call", "assistant", tool_name="code_interpreter", call_id=call_id, text=code)
    outputs = item.get("outputs")
    logs = [o["logs"] for o in outputs if isinstance(o, dict) and isinstance(o.get("logs"), str)] \
        if isinstance(outputs, list) else []
    if logs or item.get("status") in ("completed", "failed", "incomplete"):
        yield event("tool_result", "tool", 1, call_id=call_id, text="\n".join(logs) or block_text(outputs),
                    is_error=item.get("status") == "failed")
