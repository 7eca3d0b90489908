"""``codex exec --json`` output: the event stream a scripted or CI run of Codex prints.

One JSON object a line, tagged ``type``: ``thread.started{thread_id}``, ``turn.started``,
``item.started|item.updated|item.completed{item}``, ``turn.completed{usage}``,
``turn.failed{error}`` and ``error{message}``. An item is ``{id, type, ...}``: ``agent_message
{text}``, ``reasoning{text}``, ``command_execution{command, aggregated_output, exit_code,
status}``, ``file_change{changes[{path, kind}], status}``, ``mcp_tool_call{server, tool,
arguments, result, error, status}``, ``collab_tool_call{tool, receiver_thread_ids, prompt,
agents_states, status}`` (a sub-agent started, asked or waited for), ``web_search``, ``todo_list``,
``error{message}`` (a warning; openai/codex ``codex-rs/exec/src/exec_events.rs``). It is no
rollout: the prompt is not in it, and a command is one item, started and then completed under the
same id.

Before that stream (CLI 0.43 and older), ``codex exec --json`` printed the protocol's own events:
a line of settings (``{"model", "sandbox", "approval", "workdir", ...}``), ``{"prompt": ...}``,
then ``{"id": <turn>, "msg": {"type": ...}}`` per event: ``agent_reasoning{text}``,
``agent_message{message}``, ``exec_command_begin{call_id, command[], cwd}``, ``exec_command_end
{call_id, stdout, stderr, exit_code}``, ``patch_apply_begin{call_id, changes}``,
``patch_apply_end{call_id, stdout, stderr, success}``, ``error{message}``, ``task_complete``
(openai/codex ``codex-rs/protocol/src/protocol.rs`` ``Event``/``EventMsg`` of that time; the same
lines in CI wrappers' captures, e.g. BloopAI/vibe-kanban ``crates/executors/src/executors/codex.rs``
tests). Those are read too (:func:`_legacy_event`).
"""

from __future__ import annotations

import shlex
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path

from spec_debug.session.events import Event, ReadStats, Spawn
from spec_debug.session.formats import codex
from spec_debug.session.formats import codex_agent_states as agent_states
from spec_debug.session.formats import codex_tool_ends as tool_ends
from spec_debug.session.formats.common import (Cursor, block_text, process_result, remote_host, shell_command,
                                                stream_result)
from spec_debug.session.reader import iter_json_records

STREAM_TYPES = frozenset({"thread.started", "turn.started", "turn.completed", "turn.failed", "item.started",
                          "item.updated", "item.completed", "item.plan.delta", "request_user_input"})
"""``item.plan.delta{item_id, delta}`` (plan mode's text as it streams; the ``plan`` item has it
whole) and ``request_user_input{id, call_id, questions[{question, …}]}`` are the newer ones
(openai/codex ``codex-rs/exec/src/exec_events.rs`` ``ThreadEvent``)."""
_ITEM_LINES = frozenset({"item.started", "item.updated", "item.completed"})
_RECONNECTING = "Reconnecting... "
"""How a retried model request reads in this stream: the exec writes a ``StreamError`` (the CLI
retrying a dropped stream, "Reconnecting... 2/5 (stream disconnected before completion: ...)") as
the same top-level ``error{message}`` as a fatal ``Error`` (openai/codex
``codex-rs/exec/src/event_processor_with_jsonl_output.rs``: ``EventMsg::StreamError`` ->
``ThreadEvent::Error``; the message from codex-rs/core's turn loop, ``notify_stream_error(...,
format!("Reconnecting... {retries}/{max_retries}"), ...)``; "Reconnecting... waiting for network";
older CLIs: "stream error: {e}; retrying {retries}/{max_retries} in {delay:?}…"). A run whose
retry worked said
"Reconnecting... 1/5" as its error; when the retries run out, an ``error`` of its own and
``turn.failed`` follow."""
_OLD_ITEM_NAMES = {"assistant_message": "agent_message"}
"""The first releases of this stream tagged an item ``item_type``, not ``type``, named the model's
answer ``assistant_message`` and opened with ``session.created{session_id}`` (openai/codex
``codex-rs/exec/src/exec_events.rs`` of then: ``ConversationItemDetails`` ``#[serde(tag =
"item_type")]``, ``AssistantMessage``, ``CommandExecution{command, aggregated_output, exit_code,
status}``; the captures CI wrappers still test against, ``{"type": "item.completed", "item": {"id",
"item_type": "command_execution", ...}}``). Read as the same items; they were all ``other``: a
run's commands and failures were not in its analysis."""
_QUIET_ITEMS = frozenset({"web_search", "todo_list"})
"""Items kept as ``other``: no command, no output the analysis reads."""


def looks_like(obj: dict) -> bool:
    line_type = obj.get("type")
    return (isinstance(line_type, str) and line_type in STREAM_TYPES and "payload" not in obj) or looks_like_legacy(obj)


def looks_like_legacy(obj: dict) -> bool:
    """A line of ``codex exec --json`` from CLI 0.43 and older: ``{"id", "msg": {"type"}}``."""
    msg = obj.get("msg")
    return isinstance(msg, dict) and isinstance(msg.get("type"), str) and "id" in obj and "type" not in obj


def read(path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    called: OrderedDict[str, None] = OrderedDict()  # items whose call was already given
    runs = 0  # thread.started lines so far: one per `codex exec` process
    for index, lineno, obj in iter_json_records(path, stats):
        cursor.records = index + 1
        seq = cursor.seq_base + index
        line_type = obj.get("type") if isinstance(obj.get("type"), str) else None

        def event(kind, role, block=0, **kw) -> Event:
            return Event(session=cursor.session, seq=seq, agent=cursor.agent, role=role, kind=kind,
                         block=block, file=cursor.file, line=lineno, **kw)

        item = obj.get("item")
        if line_type is None and isinstance(obj.get("msg"), dict):
            yield from _legacy_event(obj["msg"], event, stats)
        elif line_type is None and isinstance(obj.get("prompt"), str):
            yield event("prompt", "user", text=obj["prompt"])
        elif line_type is None and isinstance(obj.get("model"), str):
            settings = " ".join(f"{k}={v}" for k, v in obj.items() if isinstance(v, (str, int, float, bool)))
            yield event("system", "system", raw_type="settings", text=settings[:2000])
        elif line_type in _ITEM_LINES and isinstance(item, dict):
            if runs > 1 and isinstance(item.get("id"), str):
                # Each `codex exec` process numbers its items from item_0 (openai/codex codex-rs/exec/
                # src/event_processor_with_jsonl_output.rs get_next_item_id), so the output of a
                # `codex exec resume --json` appended to the first run's reuses its ids: a second
                # run's item_1 read as the first run's, and its command was never called.
                item = {**item, "id": f"{item['id']}@run{runs}"}
            yield from _item(item, line_type == "item.completed", event, called, stats)
        elif line_type == "thread.started" or line_type == "session.created":
            # (session.created: the first releases' name. Not in STREAM_TYPES: other tools' event
            # streams name a line so too; this format is told by its items.)
            runs += 1
            started = obj.get("thread_id") if line_type == "thread.started" else obj.get("session_id")
            yield event("system", "system", raw_type=line_type, text=f"thread_id={started}")
        elif line_type in ("turn.failed", "error"):
            error = obj.get("error") if isinstance(obj.get("error"), dict) else obj
            message = error.get("message")
            said = message if isinstance(message, str) else ""
            if line_type == "error" and (said.startswith(_RECONNECTING)
                                         or (said.startswith("stream error: ") and "; retrying " in said)):
                line_type = "stream_error"  # a retry the turn may survive: no failure of the agent
            yield event("system", "system", raw_type=line_type, text=said)
        elif line_type == "request_user_input":
            # the model stopped to ask the person: its questions, in the CLI's words
            questions = obj.get("questions") if isinstance(obj.get("questions"), list) else []
            asked = [q.get("question") for q in questions if isinstance(q, dict)]
            yield event("system", "system", raw_type=line_type, text="\n".join(q for q in asked if isinstance(q, str)))
        elif line_type in STREAM_TYPES:
            yield event("other", "system", raw_type=str(line_type))
        else:
            stats.unknown_types += 1
            yield event("other", "system", raw_type=str(line_type))


def _item(item: dict, done: bool, event, called: OrderedDict, stats: ReadStats) -> Iterator[Event]:
    item_type = item.get("type") if isinstance(item.get("type"), str) else None
    if item_type is None and isinstance(item.get("item_type"), str):
        item_type = _OLD_ITEM_NAMES.get(item["item_type"], item["item_type"])  # (see _OLD_ITEM_NAMES)
    item_id = item.get("id") if isinstance(item.get("id"), str) else None
    text = item.get("text") if isinstance(item.get("text"), str) else ""
    if item_type in ("agent_message", "plan"):
        if done:
            yield event("text", "assistant", text=text)
    elif item_type == "reasoning":
        if done:
            yield event("thinking", "assistant", text=text)
    elif item_type in ("command_execution", "mcp_tool_call"):
        if item_id is None or item_id not in called:
            yield _call(item, item_type, item_id, event)
            if item_id is not None:
                _bounded(called, item_id)
        if done:
            yield _result(item, item_type, item_id, event)
    elif item_type == "collab_tool_call":
        if item_id is None or item_id not in called:
            yield _collab_call(item, item_id, event)
            if item_id is not None:
                _bounded(called, item_id)
        if done:
            yield _collab_result(item, item_id, event)
    elif item_type == "file_change":
        if done:
            changes = [c for c in item.get("changes") or [] if isinstance(c, dict)] \
                if isinstance(item.get("changes"), list) else []
            paths = [str(c.get("path")) for c in changes if isinstance(c.get("path"), str)]
            listing = "\n".join(f"{c.get('kind')} {c.get('path')}" for c in changes)
            yield event("tool_call", "assistant", tool_name="apply_patch", call_id=item_id, text=listing,
                        path=paths[0] if paths else None)
            yield event("tool_result", "tool", 1, call_id=item_id, text=str(item.get("status", "")),
                        is_error=item.get("status") == "failed")
    elif item_type == "error":
        if done:
            # A warning, not a failure: the exec writes its Warning, ConfigWarning, DeprecationNotice
            # and ModelRerouted notices as error items ("Heads up: Long threads and multiple
            # compactions ...", "model rerouted: ..."), and a failed turn as the top-level error and
            # turn.failed (openai/codex codex-rs/exec/src/event_processor_with_jsonl_output.rs
            # collect_warning, collect_thread_events). Read as failures, a clean run said errors.
            message = item.get("message")
            yield event("system", "system", raw_type="item:warning", text=message if isinstance(message, str) else "")
    elif done:
        if item_type not in _QUIET_ITEMS:
            stats.unknown_types += 1
        yield event("other", "assistant", raw_type=f"item:{item_type}")


def _call(item: dict, item_type: str, item_id: str | None, event) -> Event:
    if item_type == "command_execution":
        command = _unwrapped(item.get("command"))
        return event("tool_call", "assistant", tool_name="shell", call_id=item_id, command=command,
                     text=command or "")
    args = item.get("arguments")
    host = remote_host(args)  # an MCP server's SSH tool: {host, command}
    command = shell_command(args) if host is not None else None
    name = f"{item.get('server')}.{item.get('tool')}"
    return event("tool_call", "assistant", tool_name=name, call_id=item_id, command=command, host=host,
                 text=command or str(args)[:2000])


def _bounded(called: OrderedDict, item_id: str) -> None:
    called[item_id] = None
    if len(called) > 4096:
        called.popitem(last=False)


def _collab_call(item: dict, item_id: str | None, event) -> Event:
    """A call of a multi-agent tool: ``collab_tool_call{tool: spawn_agent | send_input | wait |
    close_agent, sender_thread_id, receiver_thread_ids, prompt, agents_states, status}``
    (openai/codex ``codex-rs/exec/src/exec_events.rs`` ``CollabToolCallItem``). ``spawn_agent``
    starts a sub-agent thread, as the tool of the same name does in a rollout (``codex.SPAWN_TOOLS``)."""
    tool = item.get("tool") if isinstance(item.get("tool"), str) else "collab_tool_call"
    prompt = item.get("prompt") if isinstance(item.get("prompt"), str) else ""
    spawn = Spawn(description=prompt[:200]) if tool in codex.SPAWN_TOOLS else None
    return event("tool_call", "assistant", tool_name=tool, call_id=item_id, spawn=spawn,
                 text=prompt or " ".join(_receivers(item)))


def _collab_result(item: dict, item_id: str | None, event) -> Event:
    """The end of a multi-agent call: a ``spawn_agent`` that completed names the new thread in
    ``receiver_thread_ids`` (empty while it starts), the id of the sub-agent's rollout
    (``codex_threads`` links that rollout to this call); ``agents_states{thread: {status,
    message}}`` is what the agents answered a ``wait``."""
    receivers = _receivers(item)
    states = item.get("agents_states") if isinstance(item.get("agents_states"), dict) else {}
    replies = [f"{thread}: {state.get('status')}" + (f": {state['message']}" if isinstance(state.get("message"), str)
                                                      else "")
               for thread, state in states.items() if isinstance(state, dict)]
    spawned = isinstance(item.get("tool"), str) and item["tool"] in codex.SPAWN_TOOLS and bool(receivers)
    ended = tuple(s for s in (agent_states.state(thread, st) for thread, st in states.items()) if s is not None)
    return event("tool_result", "tool", 1, call_id=item_id, text="\n".join(replies),
                 is_error=item.get("status") == "failed", agent_ref=receivers[0] if spawned else None,
                 agent_states=ended or None)


def _receivers(item: dict) -> list[str]:
    receivers = item.get("receiver_thread_ids")
    return [r for r in receivers if isinstance(r, str)] if isinstance(receivers, list) else []


def _result(item: dict, item_type: str, item_id: str | None, event) -> Event:
    status = item.get("status")
    if item_type == "command_execution":
        output = item.get("aggregated_output")
        code = item.get("exit_code") if isinstance(item.get("exit_code"), int) else None
        failed = status in ("failed", "declined") or code not in (None, 0)
        result = event("tool_result", "tool", 1, call_id=item_id, text=output if isinstance(output, str) else "",
                       exit_code=code, is_error=failed)
        return tool_ends.not_run(result) if status == tool_ends.DECLINED else result
    result = item.get("result") if isinstance(item.get("result"), dict) else {}
    error = item.get("error") if isinstance(item.get("error"), dict) else {}
    output = block_text(result.get("content")) or str(error.get("message") or "")
    failed = status == "failed" or bool(error)
    # An SSH or shell MCP server that answers with the process it ran, {"stdout", "stderr",
    # "exitCode"} (as its structured_content, or as JSON text: common._STREAM_EXIT_KEYS): the call
    # "completed" whatever the command's exit, as the server did not say isError, so a command that
    # exited 1 was a success with its traceback inside escaped JSON (the same servers' results in
    # Claude Code: claude_code._tool_result).
    structured = result.get("structured_content")
    process = process_result(structured) if isinstance(structured, dict) else None
    if process is None and output[:1] == "{":
        process = stream_result(output)
    if process is not None:
        output, code = process
        return event("tool_result", "tool", 1, call_id=item_id, text=output, exit_code=code,
                     is_error=failed or code != 0)
    return event("tool_result", "tool", 1, call_id=item_id, text=output, is_error=failed)


def _legacy_event(msg: dict, event, stats: ReadStats) -> Iterator[Event]:
    """One ``{"id", "msg"}`` line of the old ``codex exec --json`` (see the module doc)."""
    msg_type = msg.get("type")
    call_id = msg.get("call_id") if isinstance(msg.get("call_id"), str) else None

    def text(key: str) -> str:
        value = msg.get(key)
        return value if isinstance(value, str) else ""

    if msg_type == "agent_message":
        yield event("text", "assistant", text=text("message"))
    elif msg_type in ("agent_reasoning", "agent_reasoning_raw_content"):
        yield event("thinking", "assistant", text=text("text"))
    elif msg_type == "exec_command_begin":
        command = msg.get("command")
        command = shell_command({"command": command}) if isinstance(command, list) else _unwrapped(command)
        cwd = msg.get("cwd")  # where it ran (ExecCommandBeginEvent.cwd)
        yield event("tool_call", "assistant", tool_name="shell", call_id=call_id, command=command,
                    text=command or "", cwd=cwd if isinstance(cwd, str) and cwd and command else None)
    elif msg_type in ("exec_command_end", "patch_apply_end"):
        output = text("aggregated_output") or "\n".join(part for part in (text("stdout"), text("stderr")) if part)
        code = msg.get("exit_code") if type(msg.get("exit_code")) is int else None
        failed = code not in (None, 0) or msg.get("success") is False
        yield event("tool_result", "tool", call_id=call_id, text=output, exit_code=code, is_error=failed)
    elif msg_type == "patch_apply_begin":
        changes = msg.get("changes") if isinstance(msg.get("changes"), dict) else {}
        paths = [path for path in changes if isinstance(path, str)]
        yield event("tool_call", "assistant", tool_name="apply_patch", call_id=call_id, text="\n".join(paths),
                    path=paths[0] if paths else None)
    elif msg_type == "mcp_tool_call_begin" and isinstance(msg.get("invocation"), dict):
        invocation = msg["invocation"]
        yield _call({"type": "mcp_tool_call", "server": invocation.get("server"), "tool": invocation.get("tool"),
                     "arguments": invocation.get("arguments")}, "mcp_tool_call", call_id, event)
    elif msg_type == "mcp_tool_call_end":
        # ``result`` is a Rust ``Result`` as serde writes it: {"Ok": CallToolResult} or {"Err": message}
        result = msg.get("result") if isinstance(msg.get("result"), dict) else {}
        ok = result.get("Ok") if isinstance(result.get("Ok"), dict) else {}
        error = result.get("Err")
        output = block_text(ok.get("content")) or (error if isinstance(error, str) else "")
        yield event("tool_result", "tool", call_id=call_id, text=output,
                    is_error="Err" in result or ok.get("isError") is True)
    elif msg_type in ("error", "stream_error"):
        yield event("system", "system", raw_type=f"msg:{msg_type}", text=text("message"))
    elif msg_type == "turn_aborted":
        yield event("system", "system", raw_type=f"msg:{msg_type}", text=f"turn aborted: {text('reason') or 'unknown'}")
    else:
        if not isinstance(msg_type, str) or msg_type not in _LEGACY_QUIET:
            stats.unknown_types += 1
        yield event("other", "system", raw_type=f"msg:{msg_type}")


_LEGACY_QUIET = frozenset({
    "task_started", "task_complete", "token_count", "session_configured", "exec_command_output_delta",
    "agent_message_delta", "agent_reasoning_delta", "agent_reasoning_raw_content_delta", "background_event",
    "turn_diff", "plan_update", "exec_approval_request",
    "apply_patch_approval_request", "agent_reasoning_section_break", "get_history_entry_response",
})
"""Old ``EventMsg`` types kept as ``other`` without calling them unknown."""
_SHELLS = frozenset({"bash", "sh", "zsh", "pwsh", "powershell", "cmd"})


def _unwrapped(command) -> str | None:
    """The command the model wrote: Codex runs it as ``/bin/bash -lc "<cmd>"`` and prints
    that whole line (``"command":"bash -lc ls"``)."""
    if not isinstance(command, str):
        return None
    try:
        argv = shlex.split(command)
    except ValueError:
        return command
    if len(argv) >= 3 and argv[0].replace("\\", "/").rsplit("/", 1)[-1].lower().removesuffix(".exe") in _SHELLS:
        # On Windows the line is `pwsh -Command '<cmd>'` or `"C:\\Program Files\\PowerShell\\7\\pwsh.exe"
        # -Command '<cmd>'` (codex-cli 0.159 on Windows, as quoted by exec --json readers' tests):
        # the same unwrapping as a rollout's argv (common.shell_command), so `ssh gpu01 ...` keeps its host.
        script = shell_command({"command": argv})
        if script is not None and script != shlex.join(argv):
            return script
    return command
