"""Gemini CLI sub-agents: each records a session of its own, read as an agent of its parent's.

A sub-agent (``codebase_investigator`` and the other agents a local agent definition makes
callable as a tool) runs with ``promptId`` = its agent id and ``parentSessionId`` = the main
session's id, and its chat is recorded with ``kind: "subagent"``
(google-gemini/gemini-cli ``packages/core/src/agents/local-executor.ts`` ``createChatObject``,
``chat.initialize(undefined, 'subagent')``). ``ChatRecordingService.initialize`` then writes it
to ``chats/<parentSessionId>/<agentId>.jsonl``, not ``chats/session-<time>-<id8>.jsonl``, its
header line ``{sessionId: <agentId>, projectHash, startTime, lastUpdated, kind: "subagent",
directories}``; the parent's call record names it in ``agentId`` (``chatRecordingTypes.ts``
``ToolCallRecord``, ``ConversationRecord.kind``).

Read alone, each such file was a session of its own, unlinked to the call that started it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from spec_debug.session.agents import AgentTree
from spec_debug.session.events import MAIN_AGENT, Event, ReadStats
from spec_debug.session.formats import gemini_cli
from spec_debug.session.formats.common import Cursor
from spec_debug.session.formats.compressed import read_head

_SESSION_ID = re.compile(rb'"sessionId"\s*:\s*"([^"\\]+)"')
_KIND = re.compile(rb'"kind"\s*:\s*"(main|subagent)"')
_START = re.compile(rb'"startTime"\s*:\s*"([^"\\]+)"')


@dataclass(slots=True)
class Header:
    """The recording's header line (or the JSON document's first keys)."""

    session_id: str
    kind: str
    start: str


def header(path: Path) -> Header | None:
    """The header of a recording: its keys come first, in the JSONL layout's first line and at
    the top of the older JSON document alike (the messages follow them)."""
    head = read_head(path, 4096).lstrip()
    first = head.split(b"\n", 1)[0]
    # The JSONL layout's header is its first line, whole; the JSON document's keys come one a
    # line after its "{" (a key found further on may be a message's, not the header's).
    scope = first if first.strip() != b"{" else head[:2048]
    found = _SESSION_ID.search(scope)
    if found is None:
        return None
    kind = _KIND.search(scope)
    start = _START.search(scope)
    return Header(found.group(1).decode("utf-8", "replace"), kind.group(1).decode() if kind else "main",
                  start.group(1).decode("utf-8", "replace") if start else "")


def is_subagent_of(path: Path, parent_id: str) -> bool:
    """``path`` is a sub-agent recording of the session ``parent_id``: in the folder named after
    it (``chats/<parentSessionId>/``), its header of kind ``subagent``."""
    if path.parent.name != parent_id:
        return False
    found = header(path)
    return found is not None and found.kind == "subagent" and found.session_id != parent_id


def beside(path: Path) -> list[Path]:
    """The sub-agent recordings of the main session in ``path``: the ``*.jsonl`` files of the
    folder beside it named after its session id."""
    found = header(path)
    if found is None or found.kind == "subagent":
        return []
    folder = path.parent / found.session_id
    if not folder.is_dir():
        return []
    return sorted(f for f in folder.iterdir() if f.is_file() and f.name.endswith(".jsonl")
                  and is_subagent_of(f, found.session_id))


def read_session(path: Path, children: list[Path], cursor: Cursor, stats: ReadStats,
                 tree: AgentTree) -> Iterator[Event]:
    """The main recording, then each sub-agent's (oldest first), an agent named by its id and
    linked to the call whose record names that id in ``agentId``."""
    spawned: dict[str, Event] = {}
    for ev in gemini_cli.read(path, cursor, stats):
        if ev.kind == "tool_call" and ev.agent_ref:
            spawned.setdefault(ev.agent_ref, ev)
        yield ev
    seq_base = cursor.records
    ordered = sorted(((header(child), child) for child in children), key=lambda hc: (hc[0].start if hc[0] else "",
                                                                                    hc[1].name))
    for found, child in ordered:
        agent_id = found.session_id if found else child.stem
        info = tree.get(agent_id, parent=MAIN_AGENT)
        info.parent, info.file = MAIN_AGENT, str(child)
        call = spawned.get(agent_id)
        info.spawned_by = call.call_id if call else None
        info.agent_type = call.tool_name if call and call.tool_name else "sub-agent"
        sub = Cursor(session=cursor.session, agent=agent_id, file=str(child), seq_base=seq_base)
        yield from gemini_cli.read(child, sub, stats)
        seq_base += sub.records
