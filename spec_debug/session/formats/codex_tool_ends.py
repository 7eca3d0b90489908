"""How a call ended, from the UI's copy in a Codex rollout (``event_msg`` lines).

The model's copy of a result (``function_call_output``) does not always say that the call
failed: an MCP tool that answers ``{"isError": true, content}`` comes back to the model as its
bare content (openai/codex ``codex-rs/protocol/src/models.rs``, ``FunctionCallOutputPayload``
``from(&CallToolResult)`` serializes only the content), and a patch that could not be written
comes back as the tool's text. The UI's copy says so, and newer CLIs keep it in the rollout:
``mcp_tool_call_end`` and ``patch_apply_end`` are persisted by default since about 0.15x, and
``item_completed`` carries the same ends as turn items (openai/codex ``codex-rs/rollout/src/
policy.rs`` ``should_persist_event_msg``; ``codex-rs/app-server-protocol`` thread history
replays ``item_completed`` ``CommandExecution`` items from rollouts).

Each function here reads one such payload into a :class:`ToolEnd`; ``codex.read`` reports it
as the call's result when the call is in the file and has no result yet (the
``function_call_output`` that follows is then dropped, as for ``exec_command_end``).
"""

from __future__ import annotations

from dataclasses import dataclass

from spec_debug.session.events import Event
from spec_debug.session.extract import Extracted
from spec_debug.session.failures import ErrorInfo
from spec_debug.session.formats.common import block_text

END_EVENTS = frozenset({"mcp_tool_call_end", "patch_apply_end"})
DECLINED = "declined"
"""``ExecCommandStatus``/``PatchApplyStatus``/``CommandExecutionStatus`` of a call that was refused
before it ran (``exec_command_end``, ``patch_apply_end``, ``item_completed``, ``codex exec --json``'s
``command_execution``): openai/codex ``codex-rs/core/src/tools/events.rs`` ends every
``ToolError::Rejected`` so, with ``exit_code: -1`` and the refusal as its output."""
USER_DECLINED = ("exec command rejected by user", "patch rejected by user", "user rejected MCP tool call",
                 "user cancelled MCP tool call")
"""What Codex hands the model for a command or patch the person declined at the approval prompt
(``ReviewDecision::Denied`` or ``Abort``): ``reject_if_not_approved`` fails with ``"rejected by
user"``, which ``ToolEmitter::finish`` words per tool (openai/codex ``codex-rs/core/src/tools/
orchestrator.rs``, ``tools/events.rs``; CLIs of 2025 wrote the first from ``codex.rs``
``handle_container_exec_with_params``); for an MCP tool call declined or dismissed at its approval
prompt, ``user rejected MCP tool call`` / ``user cancelled MCP tool call`` (``codex-rs/core/src/
mcp_tool_call.rs`` ``handle_mcp_tool_call``, an error result whose text alone reaches the rollout,
and the ``mcp_tool_call_end`` ``{"Err": ...}`` of newer CLIs). Any other refusal (the auto-reviewer's "This action was
rejected due to unacceptable risk.", a PermissionRequest hook's message, an exec policy's
``Forbidden`` reason) is the permission system's, not the person's."""
AUTO_REVIEW_REJECTED = "This action was rejected due to unacceptable risk.\n"
"""How the auto-reviewer's refusal begins (openai/codex ``codex-rs/core/src/guardian/``
``guardian_rejection_message``: this line, ``Reason: …``, then what the agent must not do)."""
PATCH_POLICY_REJECTED = "patch rejected: "
"""How Codex answers an ``apply_patch`` its safety check turned away before any file was
touched: ``format!("patch rejected: {reason}")`` (openai/codex ``codex-rs/core/src/apply_patch.rs``,
``SafetyCheck::Reject``), the reason being ``writing outside of the project; rejected by user
approval settings`` under ``approval_policy = never`` (``codex-rs/core/src/safety.rs``
``assess_patch_safety``): the approval policy's refusal, no edit made. No ``patch_apply_end``
follows (the call never reaches the runtime), so the model's copy is all the rollout has."""
MCP_BLOCKED = "MCP tool call blocked by app configuration"
"""An app's MCP tool the configuration disables (``codex-rs/core/src/mcp_tool_call.rs``): refused
before it ran, by the configuration."""
ESCALATION_REFUSED = ("approval policy is ", "; reject command")
"""How the unified exec tool turns away a command that asked to run outside the sandbox
(``sandbox_permissions: require_escalated``) under an approval policy that cannot ask:
``approval policy is {policy:?}; reject command — you cannot ask for escalated permissions if the
approval policy is {policy:?}`` (openai/codex ``codex-rs/core/src/tools/handlers/unified_exec.rs``;
the shell tools' ``… you should not ask …``, ``tools/handlers/shell.rs`` ``run_exec_like``). The
policy's refusal: the command never ran."""
HOOK_BLOCKED = ("Command blocked by PreToolUse hook: ", "Tool call blocked by PreToolUse hook: ")
"""How Codex answers a call a ``PreToolUse`` hook of the person's turned away before it ran:
``Command blocked by PreToolUse hook: {reason}. Command: {command}`` for the shell and
``apply_patch``, ``Tool call blocked by PreToolUse hook: {reason}. Tool: {tool}`` for any other
(openai/codex ``codex-rs/core/src/hook_runtime.rs`` ``run_pre_tool_use_hooks``; ``tools/registry.rs``
before). The hook's refusal (``hook_blocked``, as Claude Code's), never a command that ran."""
EMPTY_PATCH_REJECTED = "patch rejected: empty patch"
"""The other reason of ``assess_patch_safety``: the model sent a patch with no change, its own
mistake (a failed edit, ``codex._PATCH_FAILED``), not a refusal of the permission system."""
_FAILED = frozenset({"failed", "declined", "error", "errored"})
"""Terminal statuses of a turn item that mean the call did not succeed (``CommandExecutionStatus``,
``McpToolCallStatus``, ``PatchApplyStatus`` in openai/codex ``codex-rs/protocol/src/items.rs``;
serialized ``Failed`` by the protocol crate and ``failed`` by ``codex exec --json``)."""
_TOOL_ITEMS = {"commandexecution": "command", "command_execution": "command",
               "mcptoolcall": "mcp", "mcp_tool_call": "mcp",
               "filechange": "patch", "file_change": "patch"}
"""``item_completed`` item types that end a tool call, by their spellings (``CommandExecution``
in rollouts, ``commandExecution`` in the app-server's camelCase, ``command_execution`` in
``codex exec --json``), lower-cased."""


@dataclass(slots=True)
class ToolEnd:
    call_id: str
    text: str
    is_error: bool
    exit_code: int | None = None
    declined: bool = False
    """The call never ran (:data:`DECLINED`)."""


def from_event(ptype: str, payload: dict) -> ToolEnd | None:
    """``mcp_tool_call_end{call_id, invocation, duration, result: {"Ok": CallToolResult} |
    {"Err": message}}`` or ``patch_apply_end{call_id, stdout, stderr, success}`` (openai/codex
    ``codex-rs/protocol/src/protocol.rs`` ``McpToolCallEndEvent``, ``PatchApplyEndEvent``)."""
    call_id = payload.get("call_id")
    if not isinstance(call_id, str):
        return None
    if ptype == "mcp_tool_call_end":
        return _mcp_result(call_id, payload.get("result"))
    parts = (payload.get("stdout"), payload.get("stderr"))
    text = "\n".join(p for p in parts if isinstance(p, str) and p)
    status = payload.get("status")  # newer CLIs: completed | failed | declined
    return ToolEnd(call_id, text, payload.get("success") is False,
                   declined=isinstance(status, str) and status.lower() == DECLINED)


def from_item(item: dict) -> ToolEnd | None:
    """An ``item_completed`` turn item that ends a call: its ``id`` is the call's id."""
    kind = item.get("type")
    kind = _TOOL_ITEMS.get(kind.lower()) if isinstance(kind, str) else None
    call_id = item.get("id")
    if kind is None or not isinstance(call_id, str):
        return None
    status = item.get("status")
    failed = isinstance(status, str) and status.lower() in _FAILED
    declined = isinstance(status, str) and status.lower() == DECLINED
    if kind == "command":
        output = item.get("aggregated_output", item.get("aggregatedOutput"))
        code = item.get("exit_code", item.get("exitCode"))
        code = code if type(code) is int else None
        return ToolEnd(call_id, output if isinstance(output, str) else "", failed or code not in (None, 0), code,
                       declined)
    if kind == "mcp":
        error = item.get("error")
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return ToolEnd(call_id, error["message"], True)
        end = _mcp_result(call_id, {"Ok": item.get("result")} if isinstance(item.get("result"), dict) else None)
        if end is not None:
            end.is_error = end.is_error or failed
        return end or ToolEnd(call_id, "", failed)
    # a patch: what it printed (FileChangeItem's stdout and stderr in newer CLIs, openai/codex
    # codex-rs/protocol/src/items.rs; the error of one that did not apply), else its status alone
    said = "\n".join(p for p in (item.get("stdout"), item.get("stderr")) if isinstance(p, str) and p)
    return ToolEnd(call_id, said or str(status or ""), failed, declined=declined)


def refused(output: str) -> bool:
    """The whole of a result is Codex's text for a call refused before it ran: declined by the
    person (:data:`USER_DECLINED`), by the auto-reviewer (:data:`AUTO_REVIEW_REJECTED`), by the
    approval policy (a patch, :data:`PATCH_POLICY_REJECTED`; an escalation, :data:`ESCALATION_REFUSED`)
    or by the configuration (:data:`MCP_BLOCKED`)."""
    return output[:1] in "epTauM" and (output.strip() in USER_DECLINED or output.startswith(AUTO_REVIEW_REJECTED)
                                       or output.startswith(MCP_BLOCKED)
                                       or (output.startswith(PATCH_POLICY_REJECTED)
                                           and not output.startswith(EMPTY_PATCH_REJECTED))
                                       or (output.startswith(ESCALATION_REFUSED[0])
                                           and ESCALATION_REFUSED[1] in output[:200]))


def not_run(result: Event, kind: str | None = None) -> Event:
    """``result`` as the end of a call that never ran: an error result with no exit status
    (Codex writes ``-1``), whose error is ``rejected`` when the person declined it at the
    approval prompt and ``denied`` when the permission system did (failures.NOT_RUN: no loop,
    no pivot, "not run" in the timeline). Codex says so in a structured field the text scan of
    the analysis never sees, so the finding is handed over with the event, as the scans of the
    parallel reader hand theirs (``Event.extracted``); a refusal has no output to scan. ``kind``:
    who refused, when the result says so in a field of its own (:func:`ts_declined`)."""
    text = result.text.strip()
    kind = kind or ("rejected" if text in USER_DECLINED else "denied")
    message = text.splitlines()[0] if text else "declined before it ran"
    result.is_error, result.exit_code = True, None
    result.extracted = Extracted(errors=(ErrorInfo(kind, None, message[:300]),))
    return result


def _mcp_result(call_id: str, result) -> ToolEnd | None:
    """``{"Ok": {content, isError}}`` or ``{"Err": message}``: a Rust ``Result`` as serde writes it."""
    if not isinstance(result, dict):
        return None
    if "Err" in result:
        error = result["Err"]
        return ToolEnd(call_id, error if isinstance(error, str) else str(error), True)
    ok = result.get("Ok", result if "content" in result or "structuredContent" in result else None)
    if not isinstance(ok, dict):
        return None
    # isError is the MCP spelling (modelcontextprotocol.io schema, CallToolResult); is_error
    # appears where a reader re-serialized it in snake case
    is_error = ok.get("isError") is True or ok.get("is_error") is True
    content = ok.get("content")
    return ToolEnd(call_id, block_text(content) if isinstance(content, list) else "", is_error)


_TS_DECLINED = "aborted"


def ts_declined(wrapped: dict) -> str | None:
    """Who refused a call of the TypeScript Codex CLI (2025) that never ran, from its output
    ``{"output": "aborted", "metadata": {...}}`` (openai/codex ``codex-cli/src/utils/agent/
    handle-exec-command.ts``): ``rejected`` for the person's no at the approval prompt
    (``metadata: {}``), ``denied`` for the approval policy's refusal (``metadata: {error:
    "command rejected", reason}``). A call cut by an interrupt is answered ``aborted`` with
    ``exit_code: 1``: no refusal (:func:`ts_interrupted`)."""
    if wrapped.get("output") != _TS_DECLINED:
        return None
    meta = wrapped.get("metadata")
    if not isinstance(meta, dict) or "exit_code" in meta:
        return None
    return "denied" if meta.get("error") == "command rejected" else "rejected" if not meta else None


def ts_interrupted(wrapped: dict) -> bool:
    """The TypeScript Codex CLI's answer to a call the person cut with Esc: the calls left
    unanswered by the cancelled turn are answered, on the next turn, ``{"output": "aborted",
    "metadata": {"exit_code": 1, "duration_seconds": 0}}`` (openai/codex ``codex-cli/src/utils/
    agent/agent-loop.ts`` ``pendingAborts``), only so the API gets an output for each call. The
    ``1`` is no status the command returned: it is the Rust CLI's ``aborted by user``, an
    interrupt (a real command's exit 1 comes with its own output and duration)."""
    meta = wrapped.get("metadata")
    return wrapped.get("output") == _TS_DECLINED and isinstance(meta, dict) and meta.get("exit_code") == 1 \
        and not meta.get("duration_seconds")


def bare_aborted(output: str) -> bool:
    """A result that is the bare word ``aborted``: the Rust CLI's answer for a call an Esc cut
    before the answer said for how long (``ToolCallRuntime::aborted_response`` then answered
    ``"aborted"``, and the user shell task recorded such a command ``incomplete``: openai/codex
    ``codex-rs/core/src/tasks/user_shell.rs`` of autumn 2025). A command's own output never
    comes bare: Codex wraps it with its exit code."""
    return output == _TS_DECLINED


def interrupted(result: Event) -> Event:
    """``result`` as the end of a call the person interrupted: an error with no exit status,
    whose finding is ``interrupted`` (the analysis counts it as steering, not as a failure), as
    the text scan finds for the Rust CLI's ``aborted by user``; handed over with the event, as
    :func:`not_run` hands its refusals."""
    result.is_error, result.exit_code = True, None
    result.extracted = Extracted(errors=(ErrorInfo("interrupted", None, result.text.strip()[:300] or _TS_DECLINED),))
    return result
