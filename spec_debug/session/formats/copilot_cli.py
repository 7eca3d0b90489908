"""GitHub Copilot CLI sessions (``~/.copilot/session-state/<sessionId>/events.jsonl``).

Copilot CLI appends one event a line, ``{type, data, id, timestamp, parentId}``:
``session.start{sessionId, producer: "copilot-agent", copilotVersion, …}``,
``user.message{content}``, ``assistant.reasoning{content}``, ``assistant.message{content,
toolRequests[{toolCallId, name, arguments}]}``, ``tool.execution_start{toolCallId, toolName,
arguments}``, ``tool.execution_complete{toolCallId, success, result{content}, error?}``,
``session.error{errorType, message}``, ``abort``, ``session.truncation``/``session.compaction_*``,
and a sub-agent's (the ``task`` tool's) events carry the ``parentToolCallId`` of the call that
started it, between ``subagent.started`` and ``subagent.completed``. Its shell tools (``bash``,
``powershell``) end their output with ``<exited with exit code N>``. Shapes as the events of
real sessions trimmed into jazzyalex/agent-sessions ``Resources/Fixtures/stage0/agents/copilot``
show them; the exit-code line as Copilot's own ``/share`` export of a session quotes it.

Read as Claude Code (a ``type`` on each line), every event was of an unknown type: no command.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from spec_debug.session.agents import AgentTree
from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats.common import Cursor, block_text, decode_arguments, remote_host, shell_command, \
    tool_path
from spec_debug.session.reader import iter_json_records

SHELL_TOOLS = frozenset({"bash", "shell", "powershell"})
_EXIT = re.compile(r"<exited with exit code (-?\d+)>\s*\Z")
_TYPES = frozenset({"session.start", "user.message", "assistant.message", "assistant.turn_start",
                    "tool.execution_start", "tool.execution_complete", "assistant.reasoning"})


def looks_like(obj: dict) -> bool:
    """An event of Copilot CLI's own types, its fields under ``data``."""
    kind = obj.get("type")
    return isinstance(kind, str) and kind in _TYPES and isinstance(obj.get("data"), dict)


def read(path: Path, cursor: Cursor, stats: ReadStats, tree: AgentTree | None = None) -> Iterator[Event]:
    calls: dict[str, tuple[str, bool]] = {}  # call id -> (agent, is a shell call)
    agents: dict[str, str] = {}  # the call that started a sub-agent -> the agent
    for index, lineno, obj in iter_json_records(path, stats):
        cursor.records = index + 1
        seq = cursor.seq_base + index
        ts = obj.get("timestamp") if isinstance(obj.get("timestamp"), str) else None
        data = obj.get("data") if isinstance(obj.get("data"), dict) else {}
        agent = _agent(data, agents, cursor, tree)

        def event(kind, role, block=0, **kw) -> Event:
            return Event(session=cursor.session, seq=seq, agent=agent, role=role, kind=kind,
                         block=block, timestamp=ts, file=cursor.file, line=lineno, **kw)

        yield from _event(obj.get("type"), data, event, calls, agents, cursor, tree, stats)


def _agent(data: dict, agents: dict[str, str], cursor: Cursor, tree: AgentTree | None) -> str:
    """The agent an event is of: a sub-agent's carry the id of the call that started it."""
    parent_call = data.get("parentToolCallId")
    if not isinstance(parent_call, str) or not parent_call:
        return cursor.agent
    if parent_call not in agents:
        agents[parent_call] = _new_agent(parent_call, data, cursor, tree)
    return agents[parent_call]


def _new_agent(call_id: str, data: dict, cursor: Cursor, tree: AgentTree | None) -> str:
    name = data.get("agentName") if isinstance(data.get("agentName"), str) and data["agentName"] else "subagent"
    agent = f"{name}:{call_id}"
    if tree is not None:
        info = tree.get(agent, parent=cursor.agent)
        info.parent, info.spawned_by = cursor.agent, call_id
        info.agent_type = info.agent_type or name
        if isinstance(data.get("agentDescription"), str):
            info.description = info.description or data["agentDescription"]
    return agent


def _event(kind, data: dict, event, calls, agents, cursor, tree, stats: ReadStats) -> Iterator[Event]:
    if kind == "session.start":
        yield event("system", "system", raw_type="session_meta",
                    text=f"sessionId={data.get('sessionId')} copilotVersion={data.get('copilotVersion')}")
    elif kind == "user.message":
        text = block_text(data.get("content"))
        yield event("prompt", "user", text=text) if text.strip() else event("other", "user", raw_type=kind)
    elif kind == "assistant.reasoning":
        text = block_text(data.get("content"))
        yield event("thinking", "assistant", text=text) if text.strip() else event("other", "assistant", raw_type=kind)
    elif kind == "assistant.message":
        yield from _reply(data, event, calls)
    elif kind == "tool.execution_start":
        call_id = data.get("toolCallId")
        if isinstance(call_id, str) and call_id not in calls and isinstance(data.get("toolName"), str):
            yield _call(call_id, data["toolName"], data.get("arguments"), event, calls, 0)
        else:
            yield event("other", "system", raw_type=kind)
    elif kind == "tool.execution_complete":
        yield _result(data, event, calls)
    elif kind == "subagent.started":
        call_id = data.get("toolCallId")
        if isinstance(call_id, str) and call_id and call_id not in agents:
            agents[call_id] = _new_agent(call_id, data, cursor, tree)
        yield event("system", "system", raw_type=kind, text=str(data.get("agentDisplayName") or ""))
    elif kind == "session.error":
        said = data.get("message") if isinstance(data.get("message"), str) else ""
        yield event("system", "system", raw_type="error", text=said or str(data.get("errorType") or "error"))
    elif kind == "session.truncation" or (isinstance(kind, str) and kind.startswith("session.compaction")):
        yield event("compaction", "system", raw_type=kind)
    elif isinstance(kind, str) and kind.split(".", 1)[0] in _BOOKKEEPING or kind == "abort":
        yield event("system" if kind in ("abort", "system.notification") else "other", "system", raw_type=kind,
                    text=block_text(data.get("content")) or str(data.get("reason") or ""))
    else:
        stats.unknown_types += 1
        yield event("other", "system", raw_type=str(kind))


_BOOKKEEPING = frozenset({"session", "hook", "system", "assistant", "subagent", "tool", "user"})
"""Event families whose other members (``session.model_change``, ``hook.start``,
``assistant.turn_end``, ``session.usage_checkpoint``, …) say nothing of a command."""


def _reply(data: dict, event, calls) -> Iterator[Event]:
    block = 0
    text = block_text(data.get("content"))
    if text.strip():
        yield event("text", "assistant", block, text=text)
        block += 1
    requests = data.get("toolRequests") if isinstance(data.get("toolRequests"), list) else []
    for request in requests:
        if isinstance(request, dict) and isinstance(request.get("toolCallId"), str) \
                and isinstance(request.get("name"), str) and request["toolCallId"] not in calls:
            yield _call(request["toolCallId"], request["name"], request.get("arguments"), event, calls, block)
            block += 1
    if block == 0:
        yield event("other", "assistant", raw_type="assistant.message")


def _call(call_id: str, name: str, arguments, event, calls, block: int) -> Event:
    args = decode_arguments(arguments) if isinstance(arguments, str) else arguments
    command = shell_command(args) if name in SHELL_TOOLS or remote_host(args) else None
    said = args.get("description") if isinstance(args, dict) else None
    ev = event("tool_call", "assistant", block, tool_name=name, call_id=call_id, command=command,
               description=said if isinstance(said, str) else None, path=tool_path(args), host=remote_host(args),
               text=command or str(args)[:2000])
    calls[call_id] = (ev.agent, command is not None)
    return ev


def _result(data: dict, event, calls) -> Event:
    call_id = data.get("toolCallId") if isinstance(data.get("toolCallId"), str) else None
    result = data.get("result") if isinstance(data.get("result"), dict) else {}
    error = data.get("error") if isinstance(data.get("error"), dict) else {}
    text = block_text(result.get("content")) or (error.get("message") if isinstance(error.get("message"), str) else "")
    code = None
    if call_id in calls and calls[call_id][1]:
        found = _EXIT.search(text[-200:])
        if found:
            code = int(found.group(1))
            text = text[:len(text) - len(text[-200:]) + found.start()].rstrip()
    return event("tool_result", "tool", call_id=call_id, text=text, exit_code=code,
                 is_error=data.get("success") is False or bool(code))
