"""Kimi Code's wire log (MoonshotAI/kimi-code, ``~/.kimi-code/sessions/wd_<project>_<hash>/
session_<id>/agents/<agent>/wire.jsonl``): the same metadata line as Kimi CLI's (:mod:`formats.kimi_wire`),
``{"type": "metadata", "protocol_version": "1.5", "created_at"}``, then one durable record a line,
``{"type", ...payload, "time"}`` with ``time`` in epoch milliseconds
(``packages/agent-core-v2/docs/wire-manifest.d.ts``, 55 record types). Read here:

- ``turn.prompt{input: [parts], origin}``: the person's turn when ``origin`` is ``{kind: "user"}``,
  else the CLI's (a skill, a hook result, a compaction summary, a retry); ``turn.steer``, the same
  fields, what the person typed while the turn ran;
- ``context.append_message{message: {role, content: [text | think parts], toolCalls, toolCallId,
  origin, isError}}``: the context's copy of a message (a user one repeats its ``turn.prompt``);
- ``context.append_loop_event{event}``: the agent loop's ``content.part{part}``, ``tool.call{toolCallId,
  name, args}``, ``tool.result{toolCallId, result: {output, isError, note}}``, ``step.begin``/``step.end``
  (``src/agent/contextMemory/loopEventFold.ts``);
- ``turn.ended{reason, error}``: a turn ``failed`` is the agent's failure.

The Bash tool ends a failed command's output with ``Command failed with exit code: N.``
(``src/agent/tools/os/bash/bashTool.ts``, ``src/tool/result-builder.ts``). Every other record type is
the CLI's bookkeeping, kept as such. Before, each record was one of an unknown type: no prompt, no
command.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats.common import Cursor, block_text, call_text, remote_host, shell_command, tool_path
from spec_debug.session.formats.instants import stamp

AGENTS_DIR = "agents"
_EXIT = re.compile(r"Command failed with exit code: (-?\d+)\.")


def _origin(origin) -> str | None:
    """A prompt's origin, ``{kind: "user" | "skill_activation" | "compaction_summary" ...}``
    (``PromptOrigin`` in ``packages/agent-core-v2/src/agent/contextMemory/types.ts``; the manifest
    sketches it by its kinds alone), by its kind; a bare string is taken as the kind. Compared
    whole, no origin was the person's: every prompt was read as the CLI's."""
    kind = origin.get("kind") if isinstance(origin, dict) else origin
    return kind if isinstance(kind, str) else None


def _is_person(origin) -> bool:
    return origin is None or _origin(origin) == "user"


def looks_like(obj: dict) -> bool:
    """A record of Kimi Code's wire log: a dotted ``type`` and its ``time``, no message envelope
    (Kimi CLI's ``{message: {type, payload}}``; Kimi Code's ``turn.step.interrupted`` has a
    ``message`` string)."""
    kind = obj.get("type")
    return isinstance(kind, str) and "." in kind and "time" in obj and not isinstance(obj.get("message"), dict) \
        or kind == "context.append_message" and isinstance(obj.get("message"), dict) \
        and "payload" not in obj["message"]


_RECORD_DOMAINS = frozenset((
    "config", "context", "cron", "environment", "file_history", "full_compaction", "goal", "interaction",
    "interruptionReminder", "llm", "mcp", "permission", "plan", "plan_mode", "plugin", "profile", "prompt",
    "subagent", "swarm_mode", "task", "token_counting", "tools", "tower_mode", "turn", "usage"))
"""The first word of each durable record type (the manifest's index of 64 types, wire-manifest.d.ts)."""


def is_wire_record(obj: dict) -> bool:
    """A record that tells a Kimi Code wire log by itself (detection, no metadata line read):
    :func:`looks_like`, of a record type of the manifest's domains, timed in epoch milliseconds.
    An application's own ``{type: "http.request", time}`` log lines are no Kimi session (before,
    any dotted type with a time was: the log read as an empty Kimi Code session)."""
    kind, time = obj.get("type"), obj.get("time")
    if not looks_like(obj) or not isinstance(kind, str) or kind.partition(".")[0] not in _RECORD_DOMAINS:
        return False
    return kind == "context.append_message" and time is None \
        or isinstance(time, (int, float)) and not isinstance(time, bool)


_TURN_DOMAINS = ("turn", "context")


def is_turn_record(obj: dict) -> bool:
    """A record of a turn or of the context (``turn.prompt``, ``context.append_loop_event``...): a
    wire log holds them wherever it is cut, as every turn writes them. The manifest's other domains
    (``task``, ``llm``, ``config``, ``usage``...) are words an application's own event log uses too:
    records of those alone tell no Kimi Code session (:func:`is_wire_record` is per record)."""
    kind = obj.get("type")
    return isinstance(kind, str) and kind.partition(".")[0] in _TURN_DOMAINS


class SubAgents:
    """What a session's wire logs say of its sub-agents, gathered as they are read: each one's
    ``subagent.spawned`` record (``subagentId``, ``subagentName``, ``parentToolCallId``,
    ``parentAgentId``, ``description``), written in the log of the agent that started it, and how it
    ended (``subagent.completed`` / ``failed`` / ``cancelled``); ``src/session/subagent/
    mirrorAgentRun.ts``. The sub-agent's own log, ``agents/<subagentId>/wire.jsonl``, says neither."""

    def __init__(self) -> None:
        self.spawned: dict[str, dict] = {}
        self.ended: dict[str, str] = {}

    def note(self, obj: dict) -> None:
        agent = obj.get("subagentId")
        if not isinstance(agent, str):
            return
        kind = obj.get("type")
        if kind == "subagent.spawned":
            self.spawned.setdefault(agent, obj)
        elif kind in _ENDS:
            self.ended[agent] = _ENDS[kind]


_ENDS = {"subagent.completed": "completed", "subagent.failed": "failed", "subagent.cancelled": "interrupted"}


class Reader:
    """One file's records; ``prompted`` once a ``turn.prompt`` was read (the context's copy of a
    user message then repeats it); ``agents`` gathers what the log says of sub-agents."""

    def __init__(self, cursor: Cursor, stats: ReadStats, agents: SubAgents | None = None) -> None:
        self.cursor, self.stats = cursor, stats
        self.prompted = False
        self.agents = agents if agents is not None else SubAgents()

    def record(self, obj: dict, seq: int, lineno: int) -> Iterator[Event]:
        ts = stamp(obj.get("time"))

        def event(kind, role, block=0, **kw) -> Event:
            return Event(session=self.cursor.session, seq=seq, agent=self.cursor.agent, role=role, kind=kind,
                         block=block, timestamp=ts, file=self.cursor.file, line=lineno, **kw)

        kind = obj.get("type")
        if kind in ("turn.prompt", "turn.steer"):
            text = block_text(obj.get("input"))
            person = _is_person(obj.get("origin")) and bool(text.strip())
            self.prompted = self.prompted or person
            yield event("prompt" if person else "system", "user", text=text,
                        raw_type=None if person else f"{kind}:{_origin(obj.get('origin'))}")
        elif kind == "context.append_message" and isinstance(obj.get("message"), dict):
            yield from self._message(obj["message"], event)
        elif kind == "context.append_loop_event" and isinstance(obj.get("event"), dict):
            yield from _loop_event(obj["event"], event)
        elif kind == "turn.ended" and obj.get("reason") == "failed":
            error = obj.get("error") if isinstance(obj.get("error"), dict) else {}
            said = error.get("message") if isinstance(error.get("message"), str) else "the turn failed"
            yield event("system", "assistant", raw_type="error", text=said)
        else:
            if isinstance(kind, str) and kind.startswith("subagent."):
                self.agents.note(obj)
            yield event("other", "system", raw_type=str(kind))

    def _message(self, message: dict, event) -> Iterator[Event]:
        role = message.get("role")
        content = message.get("content")
        if role == "user":
            person = _is_person(message.get("origin")) and not self.prompted
            yield event("prompt" if person else "system", "user", text=block_text(content),
                        raw_type=None if person else "context.append_message")
        elif role == "assistant":
            block = 0
            for part in content if isinstance(content, list) else ():
                found = _part(part, event, block)
                if found is not None:
                    yield found
                    block += 1
            for call in message.get("toolCalls") or ():
                if isinstance(call, dict):
                    args = _arguments(call.get("arguments"))
                    yield _call(call.get("id"), call.get("name"), args, event, block)
                    block += 1
        elif role == "tool":
            yield _result(message.get("toolCallId"), content, message.get("isError") is True, event)
        else:
            yield event("system", str(role), text=block_text(content))


def _loop_event(loop: dict, event) -> Iterator[Event]:
    kind = loop.get("type")
    if kind == "content.part":
        found = _part(loop.get("part"), event, 0)
        if found is not None:
            yield found
    elif kind == "tool.call":
        args = loop.get("args") if isinstance(loop.get("args"), dict) else _arguments(loop.get("args"))
        yield _call(loop.get("toolCallId"), loop.get("name"), args, event, 0)
    elif kind == "tool.result":
        result = loop.get("result") if isinstance(loop.get("result"), dict) else {}
        output = result.get("output")
        if isinstance(result.get("note"), str) and result["note"]:
            output = f"{block_text(output)}\n{result['note']}"
        yield _result(loop.get("toolCallId"), output, result.get("isError") is True, event)
    else:
        yield event("other", "assistant", raw_type=f"loop:{kind}")


def _part(part, event, block: int) -> Event | None:
    if not isinstance(part, dict):
        return None
    if part.get("type") == "text" and isinstance(part.get("text"), str) and part["text"].strip():
        return event("text", "assistant", block, text=part["text"])
    if part.get("type") == "think" and isinstance(part.get("think"), str) and part["think"].strip():
        return event("thinking", "assistant", block, text=part["think"])
    return None


def _arguments(raw) -> dict:
    if isinstance(raw, dict):
        return raw
    try:
        found = json.loads(raw) if isinstance(raw, str) else None
    except (ValueError, RecursionError):
        return {"input": raw}
    return found if isinstance(found, dict) else {}


def _call(call_id, name, args: dict, event, block: int) -> Event:
    command = shell_command(args)
    return event("tool_call", "assistant", block, tool_name=name if isinstance(name, str) else "?",
                 call_id=call_id if isinstance(call_id, str) else None, command=command,
                 text=call_text(command, args), path=tool_path(args),
                 host=remote_host(args) if command is not None else None)


def _result(call_id, output, is_error: bool, event) -> Event:
    text = block_text(output)
    stated = _EXIT.findall(text[-400:])
    code = int(stated[-1]) if stated else None
    return event("tool_result", "tool", call_id=call_id if isinstance(call_id, str) else None, text=text,
                 exit_code=code, is_error=is_error or bool(code))

