"""Kimi CLI's wire log, ``~/.kimi/sessions/<work_dir_hash>/<session_id>/wire.jsonl``, written beside
``context.jsonl`` (:mod:`formats.kimi_cli`) by later releases.

It records every message of the session's wire, with its time (MoonshotAI/kimi-cli
``src/kimi_cli/wire/file.py``): a ``{"type": "metadata", "protocol_version"}`` first line, then
``{"timestamp": <epoch seconds>, "message": {"type": <class name>, "payload": {...}}}`` (the message
classes are in ``src/kimi_cli/wire/types.py``):

- ``TurnBegin{user_input}`` (and ``SteerInput``, input added to a running turn): the prompt, a string
  or content parts.
- ``ContentPart``: kosong's ``TextPart{type: "text", text}`` or ``ThinkPart{type: "think", think}``,
  streamed: one reply is many parts in a row, read here as one text (or thinking) event.
- ``ToolCall{id, function: {name, arguments}}`` followed by its ``ToolCallPart{arguments_part}``
  chunks (the arguments as they stream).
- ``ToolResult{tool_call_id, return_value: {is_error, output, message, display}}``: the Shell tool's
  ``message`` is its status, ``Command failed with exit code: N.`` or ``Command executed
  successfully.`` (``src/kimi_cli/tools/shell/__init__.py``), the same notes context.jsonl wraps in
  ``<system>`` tags.
- ``SubagentEvent{parent_tool_call_id, agent_id, subagent_type, event: {type, payload}}``: a
  sub-agent's message, wrapped.
- Control and status messages (``StepBegin``, ``TurnEnd``, ``StatusUpdate``, approvals, hooks, ...).

The times are what context.jsonl lacks: a session read from it had no first or last time.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from spec_debug.session.agents import AgentTree
from spec_debug.session.events import MAIN_AGENT, Event, ReadStats
from spec_debug.session.formats import kimi_cli, kimi_code
from spec_debug.session.formats.common import Cursor, block_text, call_text, decode_arguments, remote_host, \
    shell_command, tool_path
from spec_debug.session.formats.instants import stamp
from spec_debug.session.reader import iter_json_records

TRANSCRIPT = "wire.jsonl"
_CONTROL = frozenset({
    "TurnEnd", "StepBegin", "CompactionBegin", "CompactionEnd", "MCPLoadingBegin", "MCPLoadingEnd",
    "HookTriggered", "HookResolved", "StatusUpdate", "Notification", "PlanDisplay", "ApprovalRequest",
    "ApprovalResponse", "ApprovalRequestResolved", "QuestionRequest", "QuestionResponse", "ToolCallRequest",
    "ToolCallPart",
})
"""Messages that steer or report on the session, no talk of its own (``ApprovalRequestResolved`` is
wire v1's name of ``ApprovalResponse``)."""
_ASIDE = frozenset({"SubagentEvent", "StatusUpdate", "Notification", "MCPLoadingBegin", "MCPLoadingEnd",
                    "HookTriggered", "HookResolved"})
"""Messages that may come between a call and the rest of its streamed arguments (a sub-agent's
talk, a status report): they leave the agent's reply or call being assembled open."""
_MAX_NESTING = 8


def looks_like(obj: dict) -> bool:
    """A wire log line: its metadata line, or a timed message envelope ``{type, payload}`` (a
    Claude Code line's ``message`` has a ``role``; a Codex rollout's ``payload`` is not wrapped)."""
    if obj.get("type") == "metadata":
        return "protocol_version" in obj and "message" not in obj
    message = obj.get("message")
    return (isinstance(message, dict) and isinstance(message.get("payload"), dict)
            and isinstance(message.get("type"), str) and "role" not in message and "timestamp" in obj)


def has_records(path: Path) -> bool:
    """The wire log holds a message beyond its metadata line (an empty one is no session)."""
    try:
        with open(path, "rb") as f:
            first = f.readline(1 << 16)
            return bool(f.read(1 << 12).strip()) or b'"message"' in first
    except OSError:
        return False


class _Stream:
    """One agent's talk as it streams: the reply parts and the tool call being assembled."""

    def __init__(self, agent: str) -> None:
        self.agent = agent
        self.part: list | None = None  # [kind, texts, seq, lineno, ts]
        self.call: list | None = None  # [payload, argument chunks, seq, lineno, ts]

    def flush(self, cursor: Cursor) -> Iterator[Event]:
        if self.part is not None:
            kind, texts, seq, lineno, ts = self.part
            self.part = None
            text = "".join(texts)
            if text.strip():
                yield Event(session=cursor.session, seq=seq, agent=self.agent, role="assistant", kind=kind,
                            timestamp=ts, file=cursor.file, line=lineno, text=text)
        if self.call is not None:
            payload, chunks, seq, lineno, ts = self.call
            self.call = None
            yield _call(payload, "".join(chunks), Event(session=cursor.session, seq=seq, agent=self.agent,
                                                          role="assistant", kind="tool_call", timestamp=ts,
                                                          file=cursor.file, line=lineno))


def read(path: Path, cursor: Cursor, stats: ReadStats, tree: AgentTree | None = None,
         sub_agents: kimi_code.SubAgents | None = None) -> Iterator[Event]:
    streams: dict[str, _Stream] = {cursor.agent: _Stream(cursor.agent)}
    code = kimi_code.Reader(cursor, stats, sub_agents)
    for index, lineno, obj in iter_json_records(path, stats):
        cursor.records = index + 1
        seq = cursor.seq_base + index
        message = obj.get("message")
        if kimi_code.looks_like(obj):
            yield from code.record(obj, seq, lineno)  # Kimi Code's records (formats.kimi_code)
            continue
        if obj.get("type") == "metadata" and not isinstance(message, dict):
            yield Event(session=cursor.session, seq=seq, agent=cursor.agent, role="system", kind="system",
                        file=cursor.file, line=lineno, raw_type="metadata",
                        text=f"protocol_version={obj.get('protocol_version')}")
            continue
        ts = stamp(obj.get("timestamp"))
        yield from _message(message, cursor.agent, seq, lineno, ts, streams, cursor, stats, tree, 0)
    for stream in streams.values():
        yield from stream.flush(cursor)


def read_agents(path: Path, agents: list[Path], cursor: Cursor, stats: ReadStats, tree: AgentTree | None) \
        -> Iterator[Event]:
    """A Kimi Code session (:mod:`formats.kimi_code`): its main agent's log, then each sub-agent's,
    ``agents/<subagentId>/wire.jsonl``, read as an agent of the session started by the call its
    ``subagent.spawned`` record names (:class:`kimi_code.SubAgents`). A sub-agent's log is read
    after the log that spawned it; one no record names, last. Read as sessions of their own, a
    sub-agent's commands had no part in the call that started them."""
    known = kimi_code.SubAgents()
    yield from read(path, cursor, stats, tree, known)
    seq_base = cursor.seq_base + cursor.records
    pending = {wire.parent.name: wire for wire in agents}
    while pending:
        spawned = [a for a in known.spawned if a in pending]
        agent = spawned[0] if spawned else sorted(pending)[0]
        wire = pending.pop(agent)
        if tree is not None:
            _link(tree.get(agent, parent=_parent(known.spawned.get(agent), tree)), known, wire)
        sub = Cursor(session=cursor.session, agent=agent, file=str(wire), seq_base=seq_base)
        yield from read(wire, sub, stats, tree, known)
        seq_base += sub.records


def _parent(spawned: dict | None, tree: AgentTree) -> str:
    parent = spawned.get("parentAgentId") if spawned else None
    return parent if isinstance(parent, str) and parent in tree.agents else MAIN_AGENT


def _link(info, known: kimi_code.SubAgents, wire: Path) -> None:
    spawned = known.spawned.get(info.id) or {}
    call = spawned.get("parentToolCallId")
    info.spawned_by = call if isinstance(call, str) and call else None
    name, description = spawned.get("subagentName"), spawned.get("description")
    info.agent_type = name if isinstance(name, str) and name else "agent"
    info.description = description if isinstance(description, str) else ""
    info.file = str(wire)
    if info.id in known.ended:
        info.status = known.ended[info.id]


def _message(message, agent: str, seq: int, lineno: int, ts, streams: dict, cursor: Cursor, stats: ReadStats,
             tree: AgentTree | None, depth: int) -> Iterator[Event]:
    kind = message.get("type") if isinstance(message, dict) else None
    payload = message.get("payload") if isinstance(message, dict) else None
    if not isinstance(payload, dict):
        payload = {}
    stream = streams.setdefault(agent, _Stream(agent))
    if kind == "ToolCallPart" and stream.call is not None:
        chunk = payload.get("arguments_part")
        if isinstance(chunk, str):
            stream.call[1].append(chunk)
        return
    part = payload.get("type") if kind == "ContentPart" else None
    part_kind = {"text": "text", "think": "thinking"}.get(part) if isinstance(part, str) else None
    text = payload.get("text" if part == "text" else "think")
    if part_kind is not None and stream.part is not None and stream.part[0] == part_kind and stream.call is None:
        stream.part[1].append(text if isinstance(text, str) else "")
        return
    if kind not in _ASIDE:
        yield from stream.flush(cursor)

    def event(kind_, role, **kw) -> Event:
        return Event(session=cursor.session, seq=seq, agent=agent, role=role, kind=kind_, timestamp=ts,
                     file=cursor.file, line=lineno, **kw)

    if part_kind is not None:
        stream.part = [part_kind, [text if isinstance(text, str) else ""], seq, lineno, ts]
    elif kind == "ToolCall":
        arguments = payload.get("function", {}).get("arguments") if isinstance(payload.get("function"), dict) else None
        stream.call = [payload, [arguments] if isinstance(arguments, str) else [], seq, lineno, ts]
    elif kind in ("TurnBegin", "SteerInput"):
        yield event("prompt", "user", text=block_text(payload.get("user_input")))
    elif kind == "ToolResult":
        yield _result(payload, event, agent)
    elif kind == "SubagentEvent" and depth < _MAX_NESTING:
        inner = payload.get("event")
        sub = _subagent(payload, agent, tree)
        yield from _message(inner, sub, seq, lineno, ts, streams, cursor, stats, tree, depth + 1)
    elif kind == "StepInterrupted":
        yield event("system", "system", raw_type=kind, text="step interrupted")
    elif kind in _CONTROL or kind == "ContentPart":
        yield event("other", "system", raw_type=kind)
    else:
        stats.unknown_types += 1
        yield event("other", "system", raw_type=str(kind))


def _call(payload: dict, arguments: str, base: Event) -> Event:
    function = payload.get("function") if isinstance(payload.get("function"), dict) else {}
    name = function.get("name") if isinstance(function.get("name"), str) else "?"
    args = decode_arguments(arguments) if arguments else None
    command = shell_command(args) if isinstance(args, dict) else None
    call_id = payload.get("id") if isinstance(payload.get("id"), str) else f"call-{base.seq}"
    base.tool_name, base.call_id, base.command = name, _scoped(call_id, base.agent), command
    base.text, base.path = call_text(command, arguments), tool_path(args)
    base.host = remote_host(args) if command is not None else None
    return base


def _result(payload: dict, event, agent: str) -> Event:
    value = payload.get("return_value") if isinstance(payload.get("return_value"), dict) else {}
    output = block_text(value.get("output"))
    note = value.get("message") if isinstance(value.get("message"), str) else ""
    code = kimi_cli.shell_exit_code(note)
    failed = value.get("is_error") is True or bool(code)
    if code is None and not failed and note.strip() == kimi_cli.SUCCEEDED:
        code = 0
    # the status note last, as kimi_cli.result_text puts it; any other note (a timeout, the
    # reason a call was refused) first: it is what went wrong
    said = note if code is None and note.strip() != kimi_cli.SUCCEEDED else ""
    status = note if not said else ""
    text = "\n".join(p.strip("\n") for p in (said, output, status) if p.strip())
    call_id = payload.get("tool_call_id") if isinstance(payload.get("tool_call_id"), str) else None
    return event("tool_result", "tool", call_id=_scoped(call_id, agent) if call_id else None, text=text,
                 exit_code=code, is_error=failed)


def _scoped(call_id: str, agent: str) -> str:
    """A sub-agent's call ids are its own (``Shell:0`` again): kept apart from the main agent's."""
    return call_id if ":" not in agent else f"{agent}/{call_id}"


def _subagent(payload: dict, parent: str, tree: AgentTree | None) -> str:
    kind = payload.get("subagent_type") if isinstance(payload.get("subagent_type"), str) else "subagent"
    ident = next((payload[k] for k in ("agent_id", "parent_tool_call_id", "task_tool_call_id")
                  if isinstance(payload.get(k), str) and payload[k]), "?")
    agent = f"{kind or 'subagent'}:{ident}"
    if tree is not None and agent not in tree.agents:
        info = tree.get(agent, parent=parent)
        spawned = payload.get("parent_tool_call_id", payload.get("task_tool_call_id"))
        info.spawned_by = _scoped(spawned, parent) if isinstance(spawned, str) else None
        info.agent_type = kind or "subagent"
    return agent
