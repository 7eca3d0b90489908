"""Codex sub-agent threads: each has a rollout of its own that names its parent thread, and
starts with a copy of the parent's history. Read as agents of the parent's session."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from spec_debug.session.agents import AgentTree
from spec_debug.session.events import MAIN_AGENT, Event, ReadStats
from spec_debug.session.formats import codex, codex_exec
from spec_debug.session.formats.common import Cursor
from spec_debug.session.reader import iter_json_records


class Rollout(Protocol):
    """What :func:`read_session` needs of a session source."""

    id: str
    path: Path
    thread: Thread | None
    children: list
    forked_from: Path | None


@dataclass(slots=True)
class Thread:
    """Who a rollout is, from its first ``session_meta``: a sub-agent names its parent in
    ``source: {"subagent": {"thread_spawn": {parent_thread_id, depth, agent_nickname,
    agent_role}}}`` (openai/codex ``codex-rs/protocol/src/protocol.rs`` ``SessionSource::SubAgent``,
    ``SubAgentSource::ThreadSpawn``; ``agent_nickname``/``agent_role`` also at the top of the
    payload)."""

    id: str
    parent: str | None = None
    nickname: str = ""
    role: str = ""
    agent_path: str | None = None
    """``thread_spawn.agent_path`` (``/root/docs_review``) of a MultiAgentV2 sub-agent: what the
    parent's ``spawn_agent`` result names, in place of the thread id (see ``codex._response_item``)."""
    forked_from: str | None = None
    """``forked_from_id``: the thread a session forked by the person (``/fork``) copied its
    history from; that copy heads its rollout as a sub-agent's does (ccusage test
    ``skips_replayed_parent_token_history_in_forked_session_files``)."""
    internal: bool = False
    """An approval reviewer's thread (:func:`_internal`): no work of the session's own."""
    own_from: int | None = None
    """``subagent_history_start_ordinal``: the ordinal of the first line that is the sub-agent's own,
    as 2026 CLIs write it; the lines after its own ``session_meta`` and before that one are the
    parent's history copied (their ordinals count the file's lines from 0; rollout readers skip
    ``ordinal < start`` as inherited). Not ``history_base.end_ordinal_exclusive``: that counts the
    lines of the *base's* rollout, and a rollout with a history base holds none of them, only its
    own lines, their ordinals going on from it (codex-cli 0.154 forks, per a fork-history probe of
    an app-server client; openai/codex ``codex-rs`` thread store tests build a history-base child
    with ``end_ordinal_exclusive`` = the source rollout's last ordinal + 1). Taken as a span of this
    file, it dropped the sub-agent's own first lines, its commands and errors."""


def thread_of(path: Path) -> Thread | None:
    """The :class:`Thread` of a rollout, from the session_meta among its first lines; of a
    ``codex exec --json`` log, from its ``thread.started{thread_id}`` (the id the sub-agents'
    rollouts name as their parent)."""
    stats = ReadStats()
    records = iter_json_records(path, stats)
    for index, _lineno, obj in records:
        if index >= _META_WITHIN:
            break
        if obj.get("type") == "thread.started" and isinstance(obj.get("thread_id"), str):
            return Thread(id=obj["thread_id"])
        if obj.get("type") != "session_meta" or not isinstance(obj.get("payload"), dict):
            continue
        thread = _thread(obj["payload"])
        if thread is not None and thread.parent is None and thread.forked_from is None:
            thread.forked_from = _copied_origin(next(records, None), thread.id)
        return thread
    return None


def _copied_origin(record: tuple | None, own_id: str) -> str | None:
    """The thread a fork written before ``forked_from_id`` existed copied its history from: the
    ``session_meta`` of another thread right after the fork's own. Codex CLIs of late 2025 forked
    (``/fork``, Esc Esc to edit an earlier prompt) by reading the source's rollout whole and
    persisting its items, its ``session_meta`` first, after the new thread's own meta (openai/codex
    ``codex-rs/core/src/conversation_manager.rs`` ``fork_conversation``:
    ``RolloutRecorder::get_rollout_history`` then ``InitialHistory::Forked``, persisted by
    ``record_initial_history``), and no field of the new meta named the source. Unread, the copy
    was read as the fork's own work: the origin's commands and failures twice in a folder."""
    if record is None or record[2].get("type") != "session_meta":
        return None
    payload = record[2].get("payload")
    origin = payload.get("id") if isinstance(payload, dict) else None
    return origin if isinstance(origin, str) and origin and origin != own_id else None


_META_WITHIN = 64
"""How many of a rollout's first records may come before its ``session_meta``. Codex writes it
first, but rollouts are found with items ahead of it (Codex's own lister takes the meta from any
of the first 10 records, openai/codex ``codex-rs/core/src/rollout/list.rs`` ``read_head_and_tail``;
session indexers test sub-agent rollouts whose meta is not the first line, opensession's
``rollout-subagent-shifted``, and look through the first 50, a Go lister's
``TestCodexSessionMetaNotFirstLine``). Read with the first 8 only, a sub-agent whose meta came
tenth was a session of its own, its parent unknown."""


def _thread(payload: dict) -> Thread | None:
    if not isinstance(payload.get("id"), str):
        return None
    spawn = _thread_spawn(payload.get("source"))

    def text(key: str) -> str | None:
        value = spawn.get(key) or payload.get(key)
        return value if isinstance(value, str) and value else None

    return Thread(id=payload["id"], parent=text("parent_thread_id"), nickname=text("agent_nickname") or "",
                  role=text("agent_role") or text("agent_type") or "", agent_path=text("agent_path"),
                  forked_from=text("forked_from_id"), internal=_internal(payload.get("source")),
                  own_from=_own_from(payload))


def _internal(source) -> bool:
    """``source: {"subagent": {"other": "guardian"}}``: the auto-reviewer's thread, which Codex
    starts to judge an approval request (openai/codex ``codex-rs/core/src/guardian/
    review_session_setup.rs``, ``SubAgentSource::Other(GUARDIAN_REVIEWER_NAME)``) and keeps as a
    rollout of its own. Its first message quotes the agent's history ("The following is the Codex
    agent history whose request action you are assessing...", chenhg5/cc-connect issue #1271):
    read in a scan, each reading the session quoted counted again, in a session (or a sub-agent)
    of its own. Its verdict is in the parent's rollout, as the refused call's output."""
    if not isinstance(source, dict):
        return False
    sub = source.get("subagent", source.get("sub_agent"))
    return isinstance(sub, dict) and sub.get("other") == "guardian"


def _own_from(payload: dict) -> int | None:
    start = payload.get("subagent_history_start_ordinal")
    return start if type(start) is int and start > 1 else None


def copied_span(thread: Thread | None) -> tuple[int, int] | None:
    """Record indices ``[1, start)`` of the parent's history a sub-agent's rollout copies, told by its
    own ``session_meta`` (:attr:`Thread.own_from`; a record's index is its ordinal in a rollout as
    written), with or without the parent's rollout at hand."""
    return (1, thread.own_from) if thread is not None and thread.own_from is not None else None


def _thread_spawn(source) -> dict:
    """``{"subagent": {"thread_spawn": {...}}}``; ``sub_agent`` as some readers spell it."""
    if not isinstance(source, dict):
        return {}
    sub = source.get("subagent", source.get("sub_agent"))
    spawn = sub.get("thread_spawn") if isinstance(sub, dict) else None
    return spawn if isinstance(spawn, dict) else {}


def replayed_span(path: Path, own_id: str, parent_path: Path) -> tuple[int, int] | None:
    """Record indices ``[start, end)`` of the parent's history a sub-agent rollout copies at its
    head: right after the child's own ``session_meta`` comes the parent's (another ``id``),
    then the parent's lines, then the child's first turn. Rollout readers that count tokens
    skip that block (ryoppippi/ccusage ``rust/crates/ccusage/src/adapter/codex`` test
    ``skips_replayed_parent_token_history_in_thread_spawn_subagent_files``), but its end has no
    marker: the copy holds the parent's own ``turn_context`` and ``task_started`` lines, and its
    timestamps may be rewritten to the time of the fork. So the block is what matches the
    parent's rollout line for line (type and payload; a few parent lines may be missing from
    the copy), and it ends at the first line that does not."""
    stats = ReadStats()
    start: int | None = None
    parent = _fingerprints(parent_path)
    ahead: deque[int] = deque()
    for index, _lineno, obj in iter_json_records(path, stats):
        line_type = obj.get("type")
        if start is None:
            payload = obj.get("payload") if isinstance(obj.get("payload"), dict) else {}
            if line_type == "session_meta" and payload.get("id") not in (None, own_id):
                start = index
            elif line_type != "session_meta" or index >= 8:
                return None  # the child's own lines came first: nothing was copied
            else:
                continue
        if not _pop_match(_fingerprint(obj), ahead, parent):
            return (start, index) if index > start else None
    return None if start is None else (start, stats.records)


_LOOKAHEAD = 64


def _pop_match(fingerprint: int, ahead: deque[int], parent: Iterator[int]) -> bool:
    """Consume the parent's lines up to the one equal to ``fingerprint`` within the next
    :data:`_LOOKAHEAD`; False (nothing consumed) when there is none."""
    for at, seen in enumerate(ahead):
        if seen == fingerprint:
            for _ in range(at + 1):
                ahead.popleft()
            return True
    while len(ahead) < _LOOKAHEAD:
        seen = next(parent, None)
        if seen is None:
            return False
        if seen == fingerprint:
            ahead.clear()
            return True
        ahead.append(seen)
    return False


def _fingerprints(path: Path) -> Iterator[int]:
    for _index, _lineno, obj in iter_json_records(path, ReadStats()):
        yield _fingerprint(obj)


def _fingerprint(obj: dict) -> int:
    """A line without its envelope timestamp (a copy may carry the time of the fork)."""
    return hash((str(obj.get("type")), json.dumps(obj.get("payload"), sort_keys=True, default=str)))


def read_session(source: Rollout, cursor: Cursor, stats: ReadStats, tree: AgentTree) -> Iterator[Event]:
    """A rollout (or a ``codex exec --json`` log), then its sub-agent rollouts breadth first, each
    an agent named by its thread id and linked to the ``spawn_agent`` call whose result named that
    thread."""
    spawned: dict[str, str] = {}  # thread id -> id of the call that started it
    stopped: dict[str, bool] = {}  # sub-agent thread -> its last turn was stopped by hand
    ended: dict[str, str] = {}  # thread id or agent path -> how its parent was told it ended

    def watch(events: Iterator[Event]) -> Iterator[Event]:
        for ev in events:
            if ev.agent_ref and ev.call_id:
                spawned.setdefault(ev.agent_ref, ev.call_id)
            for ref, status, _message, _codex in ev.agent_states or ():
                ended[ref] = status  # the last word: a sub-agent sent more work may end twice
            if ev.agent != MAIN_AGENT:
                if ev.raw_type == "event_msg:turn_aborted":
                    # TurnAbortedEvent{reason: interrupted}: Esc (openai/codex protocol.rs)
                    stopped[ev.agent] = ev.text.endswith(": interrupted")
                elif ev.kind in _WORK:
                    stopped[ev.agent] = False
            yield ev

    thread = source.thread
    if thread is not None and thread.parent is not None:
        # The parent's rollout is not under PATH: say whose sub-agent this is.
        main = tree.get(MAIN_AGENT)
        main.agent_type = thread.role or "sub-agent"
        main.description = f"{thread.nickname or 'sub-agent'} of Codex thread {thread.parent} (not under PATH)"
    elif thread is not None and thread.forked_from and source.forked_from is None:
        # A fork whose origin's rollout was found nowhere (sources._fork_origins_elsewhere): the
        # origin's history copied at its head cannot be told from its own lines, and is read.
        tree.get(MAIN_AGENT).description = (f"forked from Codex thread {thread.forked_from} (its rollout not found: "
                                            "the history copied from it is read as this session's)")
    skip = None
    if getattr(source, "exec_events", False):
        # `codex exec --json` output: its collab_tool_call spawn_agent items name the threads
        trunk = codex_exec.read(source.path, cursor, stats)
    else:
        if thread is not None and source.forked_from is not None:
            skip = replayed_span(source.path, thread.id, source.forked_from)
        elif thread is not None and thread.parent is not None:
            skip = copied_span(thread)  # a sub-agent named alone: the parent's copied lines are not its work
        trunk = codex.read(source.path, cursor, stats, skip=skip)
    yield from watch(trunk)
    seq_base = cursor.records
    queue = deque((child, MAIN_AGENT, source.path) for child in source.children)
    paths: dict[str, str | None] = {}  # each sub-agent read -> its agent path (MultiAgentV2)
    while queue:
        child, parent, parent_path = queue.popleft()
        agent_id = child.thread.id if child.thread else child.id
        info = tree.get(agent_id, parent=parent)
        path = child.thread.agent_path if child.thread else None
        info.parent, info.file = parent, str(child.path)
        info.spawned_by = spawned.get(agent_id) or (spawned.get(path) if path else None)
        info.agent_type = (child.thread.role if child.thread else "") or "sub-agent"
        info.description = child.thread.nickname if child.thread else ""
        sub = Cursor(session=cursor.session, agent=agent_id, file=str(child.path), seq_base=seq_base)
        # The parent's history copied at the child's head was read once already, in the parent.
        skip = copied_span(child.thread) or replayed_span(child.path, agent_id, parent_path)
        yield from watch(codex.read(child.path, sub, stats, skip=skip))
        info.spawned_by = info.spawned_by or spawned.get(agent_id) or (spawned.get(path) if path else None)
        paths[agent_id] = path
        seq_base += sub.records
        queue.extend((grandchild, agent_id, child.path) for grandchild in child.children)
    for agent_id, last in stopped.items():
        info = tree.agents.get(agent_id)
        if last and info is not None and info.status == "unknown":
            info.status = "interrupted"  # it ended in the stop, not in a reply
    for agent_id, path in paths.items():
        # What the parent's wait (or notification) said of it: an agent whose model stream broke
        # ran no failed command, and was read as completed.
        status = ended.get(agent_id) or (ended.get(path) if path else None)
        info = tree.agents.get(agent_id)
        if status is not None and info is not None and not (status == "missing" and info.events):
            info.status = status


_WORK = frozenset({"prompt", "text", "tool_call", "tool_result"})
