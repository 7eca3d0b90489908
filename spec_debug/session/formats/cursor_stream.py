"""The tool lines of Cursor CLI's ``cursor-agent -p --output-format stream-json``.

Its ``system``/``user``/``assistant``/``result`` lines have Claude Code's stream-json shapes and
are read as those; its tools come on lines of their own, ``{"type": "tool_call", "subtype":
"started" | "completed", "call_id", "tool_call": {"<tool>ToolCall": {"args": {...}, "result":
{...}}}, "session_id"}``: ``shellToolCall`` with ``args.command`` and a result ``success`` or
``failure`` of ``{command, exitCode, stdout, stderr}``, ``readToolCall``/``editToolCall``/
``writeToolCall`` with ``args.path``, a result ``error{message}``, or a refusal (``rejected``,
``permissionDenied``, ``writePermissionDenied``) for a call that never ran; a tool of no known
kind is ``{"function": {"name", "arguments"}}`` (the shapes as several independent runners'
fixtures of the CLI's output write them, e.g. a ``-p`` run's auto-deny of a command not
allowed). With ``--stream-partial-output`` the reasoning comes as ``thinking`` deltas, kept as
bookkeeping. Read as Claude Code lines of unknown types, the commands, exit codes and errors
were lost.
"""

from __future__ import annotations

from collections.abc import Callable

from spec_debug.session.events import Event
from spec_debug.session.formats import codex_tool_ends as tool_ends
from spec_debug.session.formats.common import decode_arguments, shell_command, tool_path

LINE_TYPES = frozenset({"tool_call", "thinking", "connection", "retry"})
_BOOKKEEPING = frozenset({"connection", "retry"})
"""The CLI's own notes of its link to Cursor's servers, ``{"type": "connection", "subtype":
"reconnecting", "attempt", "endpoint_url"}`` and ``{"type": "retry", "subtype": "starting",
"attempt", "is_resume"}`` (as a runner's fixture captured from the CLI writes them): a reconnect,
as Codex's ``stream_error``, is no failure of the session; kept, not unknown lines."""
_SUFFIX = "ToolCall"
_SHELL = "shell"
_CLAUDE_NAMES = {"read": "Read", "edit": "Edit", "write": "Write", "grep": "Grep", "glob": "Glob"}
"""Cursor's file tools by Claude Code's names, which the analysis knows them by (a read of a
source file whose ``except torch.cuda.OutOfMemoryError`` is no error, an edit that is a change
of approach): under their own lower-case names they were unknown tools, and a read file's text
was scanned as a command's output. A ``function`` call names its tool capitalized (``Shell``)."""
_REFUSED = ("rejected", "permissionDenied", "writePermissionDenied")
"""Result keys of a call that never ran: refused by the CLI's permissions (a ``-p`` run denies
what its allowlist does not name)."""


def events(obj: dict, event: Callable[..., Event]) -> list[Event]:
    """The events of one line of :data:`LINE_TYPES` (see the module doc)."""
    kind = obj.get("type")
    if kind in _BOOKKEEPING:
        return [event("other", "system", raw_type=f"{kind}:{obj.get('subtype')}")]
    if kind == "thinking":
        # a delta a few tokens long, as Claude Code's stream_event lines are: kept, not read as
        # a thought each (a run writes thousands)
        return [event("other", "assistant", raw_type=f"thinking:{obj.get('subtype')}")]
    holder = obj.get("tool_call") if isinstance(obj.get("tool_call"), dict) else {}
    name, call = _tool(holder)
    call_id = obj.get("call_id") if isinstance(obj.get("call_id"), str) else \
        holder.get("toolCallId") if isinstance(holder.get("toolCallId"), str) else None
    if call is None:
        return [event("other", "assistant", raw_type="tool_call")]
    if obj.get("subtype") == "completed":
        return [_result(call, call_id, event)]
    args = call.get("args") if name != "function" else decode_arguments(call.get("arguments"))
    if name == "function" and isinstance(call.get("name"), str):
        name = call["name"]
    name = _SHELL if name.lower() == _SHELL else _CLAUDE_NAMES.get(name.lower(), name)
    args = args if isinstance(args, dict) else {}
    command = shell_command(args) if name == _SHELL else None
    return [event("tool_call", "assistant", tool_name=name, call_id=call_id, command=command,
                  text=command or str(args)[:2000], path=tool_path(args))]


def _tool(holder: dict) -> tuple[str, dict | None]:
    """The tool's name and its ``{args, result}``: the one ``<tool>ToolCall`` key (beside it
    the line may carry ``toolCallId``, ``startedAtMs``, ``hookAdditionalContexts``)."""
    for key, value in holder.items():
        if isinstance(value, dict) and key.endswith(_SUFFIX):
            return key[:-len(_SUFFIX)] or key, value
    function = holder.get("function")
    return ("function", function) if isinstance(function, dict) else ("", None)


def _result(call: dict, call_id: str | None, event) -> Event:
    result = call.get("result") if isinstance(call.get("result"), dict) else {}
    refused = next((result[k] for k in _REFUSED if k in result), None)
    if refused is not None:
        said = refused.get("reason") or refused.get("error") if isinstance(refused, dict) else refused
        return tool_ends.not_run(event("tool_result", "tool", call_id=call_id, text=str(said or "")), "denied")
    outcome = next((result[k] for k in ("success", "failure", "error") if k in result), None)
    body = outcome if isinstance(outcome, dict) else {}
    texts = [body[k] for k in ("stdout", "stderr", "content", "message", "error")
             if isinstance(body.get(k), str) and body[k]]
    if isinstance(outcome, str):
        texts.append(outcome)
    code = body.get("exitCode")
    code = code if isinstance(code, int) and not isinstance(code, bool) else None
    return event("tool_result", "tool", call_id=call_id, text="\n".join(t.rstrip("\n") for t in texts),
                 exit_code=code, is_error=bool(code) or "failure" in result or "error" in result)
