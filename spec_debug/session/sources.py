"""Finding sessions under PATH, detecting their format, and streaming their events.

PATH may be a transcript file, a Claude Code session folder (``<sessionId>/`` beside
``<sessionId>.jsonl``), or any directory of sessions. Claude Code sub-agents are read after
their trunk, breadth first, linked by ``toolUseResult.agentId`` (trunk only) or by the
``agent-<id>.meta.json`` ``toolUseId`` (every depth; daaain/claude-code-log PR #218).
"""

from __future__ import annotations

import codecs
import json
import os
import re
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from spec_debug.errors import UsageError
from spec_debug.session import parallel, reader
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import MAIN_AGENT, Event, ReadStats, Spawn
from spec_debug.session.formats import asciicast, claude_code, codex, openai_chat, text_log
from spec_debug.session.formats.common import Cursor

INPUT_FORMATS = ("auto", "claude-code", "codex", "openai", "text")
_SESSION_SUFFIXES = (".jsonl", ".json", ".txt", ".md", ".log", ".cast")
_NOT_SESSION_DIRS = frozenset({"subagents", "tool-results", "workflows", "__pycache__", "node_modules", "site-packages"})
_SNIFF_BYTES = 256 * 1024
_SNIFF_LINES = 50


@dataclass(slots=True)
class SessionSource:
    id: str
    path: Path
    format: str
    """claude-code | codex | openai | text (detected or forced)."""
    array: bool = False
    """openai only: the file is one JSON array (or {"messages": [...]}) rather than JSONL."""
    thread: codex.Thread | None = None
    """codex only: the rollout's thread, and the parent thread of a sub-agent."""
    children: list[SessionSource] = field(default_factory=list)
    """codex only: sub-agent rollouts under PATH that name this one's thread as their parent;
    they are read as agents of this session, not as sessions of their own."""
    recording: bool = False
    """text only: an asciinema terminal recording (:mod:`formats.asciicast`)."""
    forked_from: Path | None = None
    """codex only: the rollout under PATH of the thread this session was forked from (/fork):
    the history copied from it is read there, not twice."""


def discover(path: Path, input_format: str | None = None) -> list[SessionSource]:
    fmt = None if input_format in (None, "auto") else input_format
    if fmt is not None and fmt not in INPUT_FORMATS:
        raise UsageError(f"unknown input format {input_format!r}", hint=f"use one of {', '.join(INPUT_FORMATS)}")
    if not str(path).strip():
        raise UsageError("PATH is empty", hint="pass a transcript file, a session folder or a directory of sessions")
    if not path.exists():
        raise UsageError(f"{path}: no such file or directory")
    if path.is_file():
        files = [path]
    elif not path.is_dir():
        raise UsageError(f"{path}: not a regular file or a directory",
                         hint="save the stream to a file first (a pipe cannot be read twice)")
    else:
        sibling = path.parent / f"{path.name}.jsonl"
        files = [sibling] if sibling.is_file() and _is_session_folder(path) else _session_files(path)
        if not files:
            raise UsageError(f"{path}: no transcript files found",
                             hint="expected *.jsonl, *.json, *.txt, *.md or *.log session files")
    scanning = not path.is_file()
    sources = [source for file in files if (source := _source(file, fmt, scanning)) is not None]
    if not scanning and len(sources) == 1 and sources[0].format == "codex":
        sources = _with_sub_agent_rollouts(sources[0])
    else:
        sources = _without_resumed_copies(_nest_codex_threads(sources))
    _unique_ids(sources, path)
    if not sources:
        raise UsageError(f"{path}: no transcript files found (none of {len(files)} candidate file(s) is one)",
                         hint="expected Claude Code, Codex or OpenAI chat JSON(L), or *.txt, *.md or *.log logs")
    return sources


def _source(file: Path, fmt: str | None, scanning: bool) -> SessionSource | None:
    """The session in ``file``, or None when a folder scan should pass it by (a pipe, an
    archive, an unreadable file, JSON that is no transcript); for a file named on the command
    line those are usage errors instead."""
    if scanning and not file.is_file():
        return None  # a pipe or socket in the folder: opening it would wait forever
    try:
        packed = _compression(file)
        detected, array, recognized = _sniff(file)
    except OSError as e:
        if scanning:
            return None  # one unreadable file does not stop the others
        raise UsageError(f"{file}: cannot be read ({e.strerror or e})") from None
    if packed:
        if scanning:
            return None
        raise UsageError(f"{file}: a {packed} archive, not a transcript",
                         hint=f"decompress it first (e.g. zcat, zstdcat or unzip) to {file.stem}")
    if scanning and fmt is None and not recognized and file.suffix.lower() in (".json", ".jsonl"):
        return None  # a config or data file in the folder, not a transcript
    recording = detected == "asciicast"
    if recording:
        detected = "text"  # a shell log, timed
    if fmt is not None:
        array = array and fmt == "openai"
        recording = recording and fmt == "text"
        detected = fmt
    return SessionSource(id=file.stem, path=file, format=detected, array=array, recording=recording)


def _nest_codex_threads(sources: list[SessionSource]) -> list[SessionSource]:
    """Codex writes each sub-agent thread to a rollout of its own, beside its parent's in the
    day folder; the child names its parent in ``session_meta`` (:class:`codex.Thread`). A child
    whose parent is among the sources goes under it; one whose parent is not stays a session."""
    rollouts = [s for s in sources if s.format == "codex"]
    if len(rollouts) < 2:
        for source in rollouts:
            source.thread = codex.thread_of(source.path)
        return sources
    by_thread: dict[str, SessionSource] = {}
    for source in rollouts:
        source.thread = codex.thread_of(source.path)
        if source.thread is not None:
            by_thread.setdefault(source.thread.id, source)
    nested: set[int] = set()
    for source in rollouts:
        thread = source.thread
        origin = by_thread.get(thread.forked_from) if thread and thread.forked_from and not thread.parent else None
        if origin is not None and origin is not source:
            source.forked_from = origin.path
        parent = by_thread.get(source.thread.parent) if source.thread and source.thread.parent else None
        if parent is not None and parent is not source and not _descends(parent, source, by_thread):
            parent.children.append(source)
            nested.add(id(source))
    return [s for s in sources if id(s) not in nested]


def _with_sub_agent_rollouts(source: SessionSource) -> list[SessionSource]:
    """A rollout named on the command line, with the sub-agent rollouts beside it in its day
    folder (``sessions/YYYY/MM/DD/``) that descend from it, as Claude Code sub-agents come
    with their session file."""
    siblings = [source]
    for file in sorted(source.path.parent.glob("rollout-*.jsonl")):
        if file != source.path and file.is_file():
            siblings.append(SessionSource(id=file.stem, path=file, format="codex"))
    if len(siblings) == 1:
        source.thread = codex.thread_of(source.path)
        return [source]
    _nest_codex_threads(siblings)
    return [source]


def _descends(source: SessionSource, ancestor: SessionSource, by_thread: dict[str, SessionSource]) -> bool:
    """``source`` is ``ancestor`` or below it (a parent loop in damaged metadata)."""
    seen: set[int] = set()
    node: SessionSource | None = source
    while node is not None and id(node) not in seen:
        if node is ancestor:
            return True
        seen.add(id(node))
        node = by_thread.get(node.thread.parent) if node.thread and node.thread.parent else None
    return False


def _without_resumed_copies(sources: list[SessionSource]) -> list[SessionSource]:
    """Drop a Claude Code session that a later one holds whole. ``claude --resume`` and
    ``--continue`` write a new session file that starts with the resumed session's lines, same
    ``uuid``s (anthropics/claude-code issues #4926 and #28463; Clawdi-AI/clawdi PR #81: "B's
    first 1776 uuid match A exactly"), so a folder holding both would count that history twice.
    A is dropped when its uuids come, in order, at the head of B's."""
    claude = [s for s in sources if s.format == "claude-code"]
    if len(claude) < 2:
        return sources
    by_first: dict[tuple[Path, str], list[SessionSource]] = {}
    for source in claude:
        first = next(_uuids(source.path, limit=_SNIFF_LINES), None)
        if first is not None:
            by_first.setdefault((source.path.parent, first), []).append(source)
    dropped: set[int] = set()
    for group in by_first.values():
        for a in group:
            if any(b is not a and id(b) not in dropped and _holds(b.path, a.path) for b in group):
                dropped.add(id(a))
    return [s for s in sources if id(s) not in dropped]


def _holds(bigger: Path, smaller: Path) -> bool:
    """Every uuid of ``smaller`` is in ``bigger``, in the same order, from its start (a few lines
    of ``bigger`` may come between: a resume writes bookkeeping of its own)."""
    if bigger.stat().st_size <= smaller.stat().st_size:
        return False
    theirs = _uuids(bigger)
    for uuid in _uuids(smaller):
        for _ in range(64):
            if next(theirs, None) == uuid:
                break
        else:
            return False
    return True


def _uuids(path: Path, limit: int | None = None) -> Iterator[str]:
    """The top-level ``uuid`` of each line of a Claude Code file that has one."""
    stats = ReadStats()
    for index, _lineno, obj in reader.iter_json_records(path, stats):
        if limit is not None and index >= limit:
            return
        uuid = obj.get("uuid")
        if isinstance(uuid, str):
            yield uuid


def _unique_ids(sources: list[SessionSource], root: Path) -> None:
    """Session ids are file stems (a Claude Code session id, a Codex rollout name); two logs of
    one name in different folders (``gpu01/notes.log``, ``gpu02/notes.log``) get their path."""
    stems = Counter(s.id for s in sources)
    for source in sources:
        if stems[source.id] > 1:
            source.id = source.path.relative_to(root).with_suffix("").as_posix()


def _is_session_folder(path: Path) -> bool:
    """``<sessionId>/`` beside ``<sessionId>.jsonl``: sub-agents (``subagents/``, or CLI 2.0.x
    ``agent-*.jsonl``) and large tool outputs (``tool-results/``), never sessions."""
    return (path / "subagents").is_dir() or (path / "tool-results").is_dir() or (path / "workflows").is_dir() \
        or any(path.glob("agent-*.jsonl"))


def _session_files(root: Path) -> list[Path]:
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        names = set(filenames)
        home = _agent_home(names, set(dirnames))
        if home is not None:
            dirnames[:] = sorted(home)  # only where the CLI keeps its transcripts
            continue
        # A <sessionId>/ folder beside <sessionId>.jsonl holds sub-agents, not sessions.
        dirnames[:] = sorted(
            d for d in dirnames
            if d not in _NOT_SESSION_DIRS and not d.startswith(".") and not d.endswith((".dist-info", ".egg-info"))
            and f"{d}.jsonl" not in names and not _is_auto_memory(Path(dirpath) / d, names)
        )
        for name in sorted(filenames):
            lower = name.lower()
            if not lower.endswith(_SESSION_SUFFIXES) or lower.endswith(".meta.json"):
                continue
            if lower.startswith(("readme", "license", "agent-")) or lower == "journal.jsonl":
                continue
            found.append(Path(dirpath) / name)
    return found


def _agent_home(files: set[str], folders: set[str]) -> set[str] | None:
    """The transcript folders of a CLI's home folder, when PATH is (or holds) one: everything
    else there (settings, instructions, agent and command definitions in Markdown, logs) is no
    session. Claude Code keeps sessions in ``~/.claude/projects/``; Codex in ``~/.codex/sessions/``
    and ``archived_sessions/`` beside ``config.toml``, ``auth.json``, ``history.jsonl`` and
    ``log/codex-tui.log`` (TRANSCRIPTS.md section 1; Sinity/polylogue
    ``docs/providers/openai-codex.md``)."""
    if "projects" in folders and (files & _CLAUDE_HOME_FILES or folders & _CLAUDE_HOME_FOLDERS):
        return {"projects"}
    if "sessions" in folders and (files & _CODEX_HOME_FILES or "log" in folders):
        return {"sessions", "archived_sessions"} & folders
    return None


_CLAUDE_HOME_FILES = frozenset({"settings.json", "settings.local.json", ".credentials.json", "CLAUDE.md",
                                "history.jsonl"})
_CLAUDE_HOME_FOLDERS = frozenset({"todos", "statsig", "shell-snapshots", "plugins", "file-history", "session-env"})
_CODEX_HOME_FILES = frozenset({"config.toml", "auth.json", "history.jsonl", "version.json"})


def _is_auto_memory(folder: Path, beside: set[str]) -> bool:
    """Claude Code's auto memory, ``~/.claude/projects/<project>/memory/`` (``MEMORY.md`` and
    topic notes in Markdown, beside the project's session files): notes, not sessions
    (code.claude.com docs, "Manage Claude's memory")."""
    return folder.name == "memory" and (
        (folder / "MEMORY.md").is_file() or any(name.endswith(".jsonl") for name in beside))


def detect_format(path: Path) -> tuple[str, bool]:
    """Sniff the head of a file: ``(format, is_json_array)``."""
    detected, array, _ = _sniff(path)
    return ("text" if detected == "asciicast" else detected), array


def _compression(path: Path) -> str | None:
    with open(path, "rb") as f:
        head = f.read(8)
    return next((name for magic, name in _COMPRESSED if head.startswith(magic)), None)


def _sniff(path: Path) -> tuple[str, bool, bool]:
    """``(format, is_json_array, recognized)``: recognized is False when nothing in the head
    looked like a transcript line (the format is then a fallback guess)."""
    with open(path, "rb") as f:
        head = f.read(_SNIFF_BYTES)
    if head[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        # PowerShell's ">" (see reader.is_utf16); the window may end inside a character.
        head = head.decode("utf-16", "replace").encode("utf-8", "surrogatepass")
    head = head.removeprefix(codecs.BOM_UTF8)  # Windows editors save UTF-8 with a byte-order mark
    stripped = head.lstrip()
    if not stripped:
        return "text", False, False
    lines = stripped.splitlines()
    first = lines[0]
    if stripped[:1] in (b"[", b"{"):
        try:
            value = json.loads(first)
        except ValueError:
            value = None
        if value is None and (partial := _sniff_partial(first)):
            return partial, False, True  # a first line longer than the sniff window
        opens_array = stripped[:1] == b"[" and stripped[1:].lstrip()[:1] in (b"{", b"]")
        if value is None and (opens_array or (stripped[:1] == b"{" and b'"messages"' in head)):
            return "openai", True, True
        if isinstance(value, list) and value and all(isinstance(v, dict) and openai_chat.looks_like(v) for v in value):
            return "openai", True, True
        if isinstance(value, dict) and codex.looks_like_legacy(value) and "type" not in value:
            return "codex", False, True  # the header line of a rollout from before the envelope
        if isinstance(value, dict) and asciicast.looks_like(value):
            return "asciicast", False, True
    votes = {"claude-code": 0, "codex": 0, "openai": 0}
    seen = 0
    for raw in lines[:_SNIFF_LINES]:
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except ValueError:
            partial = _sniff_partial(raw)
            if partial:
                votes[partial] += 1
            continue
        if not isinstance(obj, dict):
            continue
        seen += 1
        if codex.looks_like(obj):
            votes["codex"] += 1
        elif claude_code.looks_like(obj):
            votes["claude-code"] += 1
        elif openai_chat.looks_like(obj):
            votes["openai"] += 1
    best = max(votes, key=lambda k: votes[k])
    if votes[best]:
        return best, False, True
    return ("claude-code" if seen else "text"), False, False


_COMPRESSED = ((b"\x1f\x8b", "gzip"), (b"\x28\xb5\x2f\xfd", "zstd"), (b"\xfd7zXZ\x00", "xz"), (b"BZh", "bzip2"),
               (b"PK\x03\x04", "zip"))
"""Magic numbers of archives people keep old sessions in (RFC 1952, RFC 8878, the xz, bzip2
and zip file formats)."""
_CLAUDE_PREFIX = re.compile(rb'"type":\s?"(?:user|assistant|system|summary)"')
_CLAUDE_ENVELOPE = re.compile(rb'"(?:sessionId|parentUuid)":|"message":\s?\{"role":')
_CODEX_PREFIX = re.compile(rb'^\{"timestamp":\s?"[^"]*",\s?"type":\s?"(?:session_meta|response_item|event_msg|turn_context)"')


def _sniff_partial(line: bytes) -> str | None:
    """The format of a JSONL line that does not parse, from its start: a line cut by the sniff
    window (a pasted screenshot travels base64 inside the first prompt's line, easily past
    256 KiB) or broken. Claude Code writes the envelope keys (``sessionId``, ``type``) before
    ``message``; Codex writes ``timestamp`` and ``type`` before ``payload``."""
    start = line[:8192]
    if _CODEX_PREFIX.match(start):
        return "codex"
    if _CLAUDE_PREFIX.search(start) and _CLAUDE_ENVELOPE.search(start):
        return "claude-code"
    return None


def iter_events(source: SessionSource, stats: ReadStats, tree: AgentTree) -> Iterator[Event]:
    """All events of one session: the trunk, then its sub-agents (Claude Code)."""
    main = tree.get(MAIN_AGENT)
    main.file = str(source.path)
    cursor = Cursor(session=source.id, agent=MAIN_AGENT, file=str(source.path))
    if source.format == "codex":
        yield from _codex_session(source, cursor, stats, tree)
    elif source.format == "openai":
        yield from openai_chat.read(source.path, cursor, stats, array=source.array)
    elif source.format == "text" and source.recording:
        yield from asciicast.read(source.path, cursor, stats)
    elif source.format == "text":
        yield from text_log.read(source.path, cursor, stats)
    else:
        yield from _claude_session(source, cursor, stats, tree)


def _codex_session(source: SessionSource, cursor: Cursor, stats: ReadStats, tree: AgentTree) -> Iterator[Event]:
    """A rollout, then its sub-agent rollouts breadth first, each an agent named by its thread id
    and linked to the ``spawn_agent`` call whose result named that thread."""
    spawned: dict[str, str] = {}  # thread id -> id of the call that started it

    def watch(events: Iterator[Event]) -> Iterator[Event]:
        for ev in events:
            if ev.agent_ref and ev.call_id:
                spawned.setdefault(ev.agent_ref, ev.call_id)
            yield ev

    thread = source.thread
    if thread is not None and thread.parent is not None:
        # The parent's rollout is not under PATH: say whose sub-agent this is.
        main = tree.get(MAIN_AGENT)
        main.agent_type = thread.role or "sub-agent"
        main.description = f"{thread.nickname or 'sub-agent'} of Codex thread {thread.parent} (not under PATH)"
    skip = None
    if thread is not None and source.forked_from is not None:
        skip = codex.replayed_span(source.path, thread.id, source.forked_from)
    yield from watch(codex.read(source.path, cursor, stats, skip=skip))
    seq_base = cursor.records
    queue = deque((child, MAIN_AGENT, source.path) for child in source.children)
    while queue:
        child, parent, parent_path = queue.popleft()
        agent_id = child.thread.id if child.thread else child.id
        info = tree.get(agent_id, parent=parent)
        info.parent, info.spawned_by, info.file = parent, spawned.get(agent_id), str(child.path)
        info.agent_type = (child.thread.role if child.thread else "") or "sub-agent"
        info.description = child.thread.nickname if child.thread else ""
        sub = Cursor(session=source.id, agent=agent_id, file=str(child.path), seq_base=seq_base)
        # The parent's history copied at the child's head was read once already, in the parent.
        yield from watch(codex.read(child.path, sub, stats, skip=codex.replayed_span(child.path, agent_id, parent_path)))
        info.spawned_by = info.spawned_by or spawned.get(agent_id)
        seq_base += sub.records
        queue.extend((grandchild, agent_id, child.path) for grandchild in child.children)


def _claude_session(source: SessionSource, cursor: Cursor, stats: ReadStats, tree: AgentTree) -> Iterator[Event]:
    files, by_tool_use, runs = _subagent_files(source.path)
    read: set[str] = set()
    queue: deque[str] = deque()
    seq_base = 0

    def enqueue(agent_id: str) -> None:
        if agent_id in files and agent_id not in read and agent_id not in queue:
            queue.append(agent_id)

    def link_run(run_id: str, parent: str | None, call_id: str | None, spawn: Spawn | None) -> None:
        """A Workflow run is a node of its own (``workflow:<runId>``), the parent of the agents
        its script started; their files sit in the run's folder, which names no agent."""
        node = tree.get(claude_code.WORKFLOW_PREFIX + run_id, parent=parent)
        node.parent, node.spawned_by, node.agent_type = parent, call_id or node.spawned_by, "workflow"
        if spawn is not None:
            node.description = node.description or spawn.description
        run = runs.get(run_id)
        if run is None:
            node.status = "missing"
            if f"subagents/workflows/{run_id}/" not in stats.missing_files:
                stats.missing_files.append(f"subagents/workflows/{run_id}/")
            return
        node.file = node.file or run.folder
        node.description = node.description or run.name
        node.status = run.status
        for agent_id in run.agents:
            info = tree.get(agent_id, parent=node.id)
            info.parent, info.spawned_by = node.id, call_id
            enqueue(agent_id)

    def watch(events: Iterator[Event]) -> Iterator[Event]:
        spawns: list[str] = []
        refs: dict[str, tuple[str, str | None]] = {}
        for ev in events:
            if ev.spawn is not None and ev.call_id:
                spawns.append(ev.call_id)
                tree.get(ev.agent)
                pending[ev.call_id] = (ev.agent, ev.spawn)  # not the event: its prompt may be long
            elif ev.kind == "tool_result" and ev.agent_ref and ev.call_id:
                refs[ev.call_id] = (ev.agent_ref, ev.agent_status)
            elif ev.agent_ref and ev.agent_status and ev.call_id is None:
                notified[ev.agent_ref] = ev.agent_status  # <task-notification>: a background agent ended
            yield ev
        for call_id in spawns:
            parent, spawn = pending.pop(call_id)
            agent_id, status = refs.get(call_id, (by_tool_use.get(call_id), None))
            if agent_id is None:
                continue
            if agent_id.startswith(claude_code.WORKFLOW_PREFIX):
                link_run(agent_id[len(claude_code.WORKFLOW_PREFIX):], parent, call_id, spawn)
                continue
            info = tree.get(agent_id, parent=parent)
            info.parent, info.spawned_by = parent, call_id
            info.description = info.description or spawn.description
            info.agent_type = info.agent_type or spawn.agent_type
            if status:
                info.status = status
            if agent_id in files:
                enqueue(agent_id)
            elif agent_id not in cursor.inline_agents \
                    and f"agent-{agent_id}.jsonl" not in stats.missing_files:
                # Referenced but not on disk: keep the node, say so, never fail.
                stats.missing_files.append(f"agent-{agent_id}.jsonl")
                info.status = "missing"

    pending: dict[str, tuple[str, Spawn]] = {}
    notified: dict[str, str] = {}
    yield from watch(_read_claude(source.path, cursor, stats))
    seq_base = cursor.records
    read.add(MAIN_AGENT)
    # Linked sub-agents breadth first, then any file nothing pointed at.
    leftovers = iter(sorted(files))
    while True:
        if queue:
            agent_id = queue.popleft()
        else:
            agent_id = next((a for a in leftovers if a not in read), None)
            if agent_id is None:
                break
            read.add(agent_id)  # before its run is linked: that queues the run's other agents
            run_id = files[agent_id][2]
            if run_id is not None:
                # A run nothing in the trunk launched (a trunk cut short): the agent still
                # hangs under its run, whose spawner is unknown, rather than looking like a trunk.
                link_run(run_id, None, None, None)
            else:
                tree.get(agent_id, parent=None)
        read.add(agent_id)
        path, meta, _ = files[agent_id]
        info = tree.get(agent_id)
        info.file = str(path)
        info.agent_type = info.agent_type or str(meta.get("agentType", ""))
        info.description = info.description or str(meta.get("description", ""))
        sub = Cursor(session=source.id, agent=agent_id, file=str(path), seq_base=seq_base)
        yield from watch(_read_claude(path, sub, stats))
        seq_base += sub.records
    for agent_id, status in notified.items():
        info = tree.agents.get(agent_id)
        if info is not None and info.status != "missing":
            info.status = status
    for run_id, run in sorted(runs.items()):  # runs that died before starting an agent, never linked
        if run.status != "unknown" and tree.agents.get(claude_code.WORKFLOW_PREFIX + run_id) is None:
            link_run(run_id, None, None, None)


def _read_claude(path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    # Worker processes cut a file at byte offsets, which a UTF-16 file does not allow.
    if reader.is_utf16(path):
        return claude_code.read(path, cursor, stats)
    return parallel.read_claude(path, cursor, stats)


@dataclass(slots=True)
class WorkflowRun:
    """One Workflow run of a session (daaain/claude-code-log ``claude_code_log/workflow.py``):
    ``subagents/workflows/<runId>/`` holds ``journal.jsonl`` (``started``/``result`` rows keyed
    by ``agentId``) and the agents' files; ``workflows/<runId>.json`` is written when the run
    ends (``status``, ``workflowName``). A run that failed before starting an agent has only
    the latter."""

    folder: str | None
    agents: list[str]
    status: str
    """The snapshot's status; else from the journal: running until every started agent has
    a result."""
    name: str = ""


def _subagent_files(session_file: Path) -> tuple[dict[str, tuple[Path, dict, str | None]], dict[str, str],
                                                  dict[str, WorkflowRun]]:
    """``{agent_id: (file, meta, workflow run id)}``, ``{toolUseId: agent_id}`` and the
    session's Workflow runs.

    Layouts, newest first: ``<id>/subagents/**/agent-*.jsonl``, ``<id>/agent-*.jsonl``, and
    (CLI 2.0.x) ``agent-*.jsonl`` beside the session file when its lines name this session.
    Compaction agents (``agent-acompact-*``) are internal and skipped
    (sonnes/chitragupt ``docs/specs/004-subagents.md``).
    """
    folder = session_file.parent / session_file.stem
    candidates: list[Path] = []
    if folder.is_dir():
        candidates += sorted(folder.glob("subagents/**/agent-*.jsonl"))
        candidates += sorted(folder.glob("agent-*.jsonl"))
    for beside in sorted(session_file.parent.glob("agent-*.jsonl")):
        if _names_session(beside, session_file.stem):
            candidates.append(beside)
    files: dict[str, tuple[Path, dict, str | None]] = {}
    by_tool_use: dict[str, str] = {}
    run_agents: dict[str, list[str]] = {}
    workflows = folder / "subagents" / "workflows"
    for path in candidates:
        agent_id = path.name[len("agent-"):-len(".jsonl")]
        if agent_id.startswith("acompact") or agent_id in files:
            continue
        meta = _read_meta(path.with_name(f"agent-{agent_id}.meta.json"))
        run_id = path.parent.name if path.parent.parent == workflows else None
        files[agent_id] = (path, meta, run_id)
        if run_id is not None:
            run_agents.setdefault(run_id, []).append(agent_id)
        if isinstance(meta.get("toolUseId"), str):
            by_tool_use[meta["toolUseId"]] = agent_id
    return files, by_tool_use, _workflow_runs(folder, run_agents)


def _workflow_runs(folder: Path, run_agents: dict[str, list[str]]) -> dict[str, WorkflowRun]:
    runs: dict[str, WorkflowRun] = {}
    workflows = folder / "subagents" / "workflows"
    run_ids = set(run_agents)
    if workflows.is_dir():
        run_ids.update(p.name for p in workflows.iterdir() if (p / "journal.jsonl").is_file())
    snapshots = folder / "workflows"
    if snapshots.is_dir():
        run_ids.update(p.stem for p in snapshots.glob("*.json"))
    for run_id in sorted(run_ids):
        run_dir = workflows / run_id
        started, finished = _journal(run_dir / "journal.jsonl")
        agents = run_agents.get(run_id, [])
        snapshot = _read_meta(snapshots / f"{run_id}.json")
        status = snapshot.get("status")
        if not isinstance(status, str) or not status:
            status = "running" if started - finished else ("completed" if started or agents else "unknown")
        name = snapshot.get("workflowName")
        runs[run_id] = WorkflowRun(folder=str(run_dir) if run_dir.is_dir() else None, agents=agents,
                                   status=status, name=name if isinstance(name, str) else "")
    return runs


def _journal(path: Path) -> tuple[set[str], set[str]]:
    """Agent ids a run's ``journal.jsonl`` says were started, and those with a result."""
    started: set[str] = set()
    finished: set[str] = set()
    try:
        with open(path, "rb") as f:
            for raw in f:
                try:
                    row = json.loads(raw)
                except ValueError:
                    continue  # the line being written, or a broken one
                if isinstance(row, dict) and isinstance(row.get("agentId"), str):
                    (finished if row.get("type") == "result" else started).add(row["agentId"])
    except OSError:
        pass
    return started | finished, finished


def _read_meta(path: Path) -> dict:
    try:
        if path.stat().st_size > 1 << 20:
            return {}
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _names_session(path: Path, session_id: str) -> bool:
    """The first line of a CLI 2.0.x ``agent-*.jsonl`` names its session. Only its start is
    read: ``sessionId`` precedes ``message`` (claude-code-log ``models.py``), and the line may
    hold a pasted image megabytes long."""
    try:
        with open(path, "rb") as f:
            start = f.readline(_NAME_BYTES)
    except OSError:
        return False
    m = _SESSION_ID.search(start)
    return m is not None and m.group(1).decode("utf-8", "replace") == session_id


_NAME_BYTES = 64 * 1024
_SESSION_ID = re.compile(rb'"sessionId":\s?"([^"]*)"')
