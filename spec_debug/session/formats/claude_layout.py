"""Where Claude Code keeps a session's parts on disk, and which files are no sessions.

``<sessionId>.jsonl`` has a ``<sessionId>/`` folder beside it: sub-agents (``subagents/``,
Workflow runs under ``subagents/workflows/<runId>/``, CLI 2.0.x ``agent-*.jsonl``), large tool
outputs (``tool-results/``) and Workflow snapshots (``workflows/``) (TRANSCRIPTS.md section 1a).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from spec_debug.session.events import ReadStats
from spec_debug.session.formats.compressed import (
    DAMAGE, SUFFIXES, open_transcript, read_head, transcript_stem, unpacked_name,
)
from spec_debug.session.reader import iter_json_records

_FIRST_LINES = 200


def is_session_folder(path: Path) -> bool:
    """``<sessionId>/`` beside ``<sessionId>.jsonl``: sub-agents (``subagents/``, or CLI 2.0.x
    ``agent-*.jsonl``), large tool outputs (``tool-results/``) and Workflow snapshots, never
    sessions."""
    if (path / "subagents").is_dir() or (path / "tool-results").is_dir() or (path / "workflows").is_dir():
        return True
    # CLI 2.0.x also wrote agent-*.jsonl into the project folder itself, beside the sessions'
    # <sessionId>.jsonl (TRANSCRIPTS.md 1a: `{project}/agent-{id}.jsonl` is tried first): a
    # folder that holds a session file is a project, whose sessions were all passed by.
    return bool(_agent_glob(path, "agent-*.jsonl")) and not any(
        not p.name.startswith("agent-") for p in _agent_glob(path, "*.jsonl"))


def trunk_candidates(folder: Path) -> list[Path]:
    """Where the trunk of the session folder ``<sessionId>/`` is: ``<sessionId>.jsonl`` beside
    it, or that file compressed (``gzip -r`` over a project folder)."""
    return [folder.parent / f"{folder.name}.jsonl{suffix}" for suffix in ("", *SUFFIXES)]


def agent_files(folder: Path) -> list[Path]:
    """The sub-agent transcripts under a session folder (or its ``subagents/``), compaction
    agents left out (see :func:`subagent_files`), and those another of them started (a nested
    agent, read with the agent that started it: :func:`spawners`)."""
    found = _own_agent_files(folder)
    nested = spawners(found)
    return [p for p in found if agent_id_of(p) not in nested]


def _own_agent_files(folder: Path) -> list[Path]:
    return sorted(p for p in _agent_glob(folder, "**/agent-*.jsonl")
                  if not agent_id_of(p).startswith(INTERNAL_AGENTS) and not is_warmup(p))


def nested_under(agent_file: Path, folder: Path) -> set[str]:
    """The agents of the session folder ``folder`` (its trunk gone, or ``agent_file`` named alone)
    that ``agent_file``'s agent started, at any depth (:func:`spawners`)."""
    owners = spawners(_own_agent_files(folder))
    children: dict[str, list[str]] = {}
    for child, parent in owners.items():
        children.setdefault(parent, []).append(child)
    found: set[str] = set()
    todo = [agent_id_of(agent_file)]
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def spawners(paths: list[Path]) -> dict[str, str]:
    """``{agent id: the agent id that started it}`` among the agent files ``paths`` (one session
    folder's): an agent whose spawning call (its sidecar's ``toolUseId``, the only link at every
    depth) is a call another of them made, the first in ``paths`` that holds it. The CLI's cleanup
    deletes ``<id>.jsonl`` and keeps ``<id>/subagents/`` (anthropics/claude-code issues #55407,
    #47717): read one session each, an agent its parent started hung under no one, its failure
    reaching no agent. Each file is read once, in blocks, for the ids of the calls it made
    (``"id":"toolu_…"``); a file that replays another's lines can hold its calls too, so a loop of
    such claims is cut (each agent is read once, under one agent or as a session of its own)."""
    try:
        key = tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in paths)
    except OSError:
        key = None
    if key is not None and key in _SPAWNERS:
        return _SPAWNERS[key]
    calls: dict[bytes, str] = {}
    for path in paths:
        call = read_meta(path.with_name(f"agent-{agent_id_of(path)}.meta.json")).get("toolUseId")
        if isinstance(call, str) and call and len(call) <= _CALL_ID_MAX:
            calls[call.encode("utf-8", "surrogatepass")] = agent_id_of(path)
    owners: dict[str, str] = {}
    for path in paths if calls else ():
        own = agent_id_of(path)
        try:
            with open_transcript(path) as stream:
                tail = b""
                while block := stream.read(1 << 20):
                    text = tail + block
                    for found in _CALL_ID.finditer(text):
                        child = calls.get(found.group(1))
                        if child is not None and child != own:
                            owners.setdefault(child, own)
                    tail = text[-(_CALL_ID_MAX + 16):]
        except (ValueError, *DAMAGE):
            continue  # unreadable or damaged: its reader says so; nothing nested is known of it
    for start in list(owners):
        seen, node = {start}, start
        while (parent := owners.get(node)) is not None:
            if parent in seen:
                del owners[node]  # a loop: its last link is cut, and that agent is a root
                break
            seen.add(parent)
            node = parent
    if key is not None:
        if len(_SPAWNERS) >= 16:
            _SPAWNERS.pop(next(iter(_SPAWNERS)))
        _SPAWNERS[key] = owners
    return owners


_SPAWNERS: dict[tuple, dict[str, str]] = {}
""":func:`spawners` of the folders read lately (a folder's agents are read as several sessions)."""
_CALL_ID_MAX = 200
_CALL_ID = re.compile(rb'"id":\s?"([^"\\]{1,200})"')


INTERNAL_AGENTS = ("acompact", "aprompt_suggestion", "aside_question")
"""Agent files the CLI writes for itself, that nothing in the session dispatched: compaction
(``agent-acompact-*``), the next prompt it suggests (``agent-aprompt_suggestion-*``, "[SUGGESTION
MODE: …]"), and a ``/btw`` side question (``agent-aside_question-*``, a fork that replays the
parent's messages first). Read as agents, each was a root agent of its own beside the trunk and
the suggestion prompt a prompt of the person's (sonnes/chitragupt ``docs/specs/004-subagents.md``
for compaction; the other two as several independent readers classify them, one measuring that
they "account for all 56 real sidecar-less transcripts" of its corpus)."""


WARMUP = "Warmup"
"""The whole prompt of the sub-agents the CLI starts by itself when a session starts, to fill the
prompt cache of each agent type (one ``agent-<id>.jsonl`` each, ``isSidechain``, no spawning call:
anthropics/claude-code issue #17457, "3 parallel warmup agents spawning per session", issue
#47922; anthropics/claude-agent-sdk-python issue #445, "The warmup requests are used by the CLI to
pre-populate the prompt cache")."""


def is_warmup(path: Path, meta: dict | None = None) -> bool:
    """The agent file at ``path`` is a warmup of the CLI's (:data:`WARMUP`): it opens with that
    prompt and no call spawned it (its sidecar names none). Read as an agent, each was a root
    agent beside the trunk, its "Warmup" a prompt of the person's and a phase of the session."""
    if meta is None:
        meta = read_meta(path.with_name(f"agent-{agent_id_of(path)}.meta.json"))
    if isinstance(meta.get("toolUseId"), str):
        return False
    prompt = first_prompt(path)
    return prompt is not None and prompt.strip() == WARMUP


def _agent_glob(folder: Path, pattern: str) -> list[Path]:
    """``folder.glob(pattern)`` for a ``*.jsonl`` pattern, compressed copies (``.jsonl.gz``,
    ``.bz2``, ``.xz``) included; regular files only. A dangling symlink (a session folder
    copied without what its links pointed at), a folder or a FIFO under an agent's name is no
    transcript: opening it would fail, or wait forever."""
    found = list(folder.glob(pattern))
    for suffix in SUFFIXES:
        found += folder.glob(pattern + suffix)
    return [path for path in found if path.is_file()]


def written_at(session_file: Path) -> Path:
    """The trunk file where Claude Code wrote it: ``session_file``, or the file it links to
    when no ``<sessionId>/`` folder is beside the link (a session linked into an incident
    folder, ``ln -s ~/.claude/projects/<p>/<id>.jsonl``, keeps its sub-agents and saved tool
    outputs where they were written)."""
    if session_file.is_symlink() and not (session_file.parent / transcript_stem(session_file)).is_dir():
        return session_file.resolve()
    return session_file


def agent_id_of(path: Path) -> str:
    """``x1`` for ``agent-x1.jsonl`` (or ``agent-x1.jsonl.gz``)."""
    return transcript_stem(path)[len("agent-"):]


def is_auto_memory(folder: Path, beside: set[str]) -> bool:
    """Claude Code's auto memory, ``~/.claude/projects/<project>/memory/`` (``MEMORY.md`` and
    topic notes in Markdown, beside the project's session files): notes, not sessions
    (code.claude.com docs, "Manage Claude's memory")."""
    return folder.name == "memory" and (
        (folder / "MEMORY.md").is_file() or any(name.endswith(".jsonl") for name in beside))


_SUMMARY_INDEX_BYTES = 64 * 1024
"""Read at most this much of a file to tell a summary index (:func:`summaries_only`): its lines
are ~150 bytes each, and a longer file is a session."""


def summaries_only(path: Path) -> bool:
    """A file of Claude Code's ``{"type": "summary", "summary", "leafUuid"}`` lines and nothing
    else: the titles CLIs of 2025 wrote for conversation branches, each ``leafUuid`` naming a
    message of another session file (microsoft/amplifier ``ai_working/claude_code_logging/
    summary_files_analysis.md``; anthropics/claude-code issue #2597, summaries appended to
    whichever file was current). An index of other sessions, not a session: a home scan reported
    each as a session of its own, of "2 events" and no talk. Read only when small."""
    try:
        if path.stat().st_size > _SUMMARY_INDEX_BYTES:
            return False
        head = read_head(path, _SUMMARY_INDEX_BYTES + 1)
    except OSError:
        return False
    if len(head) > _SUMMARY_INDEX_BYTES:
        return False  # a compressed file that unpacks to more
    seen = False
    for raw in head.splitlines():
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except (ValueError, RecursionError):
            return False
        if not isinstance(obj, dict) or obj.get("type") != "summary":
            return False
        seen = True
    return seen


def first_uuids(sessions: list[Path]) -> dict[Path, str]:
    """The uuid of each session's first user or assistant line (none: not in the dict)."""
    found = {}
    for path in sessions:
        first = next(_uuids(path, limit=_FIRST_LINES), None)
        if first is not None:
            found[path] = first[0]
    return found


def resumed_copies(sessions: list[Path], firsts: dict[Path, str] | None = None) -> dict[Path, Path]:
    """The Claude Code sessions that a later one holds whole. ``claude --resume`` and
    ``--continue`` write a new session file that starts with the resumed session's lines, same
    ``uuid``s (anthropics/claude-code issues #4926 and #28463; Clawdi-AI/clawdi PR #81: "B's
    first 1776 uuid match A exactly"), so a folder holding both would count that history twice.
    A is held by B when its uuids come, in order, at the head of B's. Only the conversation's
    lines (user, assistant) are compared: the bookkeeping a new process writes first (a
    SessionStart hook's ``progress`` line, with a ``uuid`` of its own) is not copied, and made
    B's first uuid differ from A's, so the history was counted twice. Each held file is mapped to
    a file that holds it (itself perhaps held by another)."""
    if len(sessions) < 2:
        return {}
    if firsts is None:
        firsts = first_uuids(sessions)
    by_first: dict[tuple[Path, str], list[Path]] = {}
    for path, first in firsts.items():
        by_first.setdefault((path.parent, first), []).append(path)
    held: dict[Path, Path] = {}
    for group in by_first.values():
        if len(group) < 2:
            continue
        # Sizes once per file: a group of n files is n*n pairs (copies of one session share
        # their first uuid), and a stat per pair made 300 copies take 0.5 s.
        sizes = {path: path.stat().st_size for path in group}
        for a in group:
            holder = next((b for b in group if b != a and b not in held and sizes[b] > sizes[a] and _holds(b, a)), None)
            if holder is not None:
                held[a] = holder
    return held


def shared_heads(sessions: list[Path], held: dict[Path, Path], firsts: dict[Path, str] | None = None) -> dict[Path, int]:
    """Sessions whose head copies the history another one holds too, each with the line number
    its copy ends at: a session forked twice (``claude --resume ID --fork-session``, twice; the
    CLI's /branch) or forked and then continued in place leaves files that start with the same
    lines (same uuids, same messages), and each read them as its own work: the commands, errors
    and readings before the fork counted once per file. The copies are read in one file only (the
    one whose first line names its own session, the original, else the first by name); the others
    start where they part from it. Files held whole by another (:func:`resumed_copies`, ``held``)
    are not read at all and take no part."""
    if firsts is None:
        firsts = first_uuids(sessions)
    groups: dict[tuple[Path, str], list[Path]] = {}
    for path, first in firsts.items():
        if path not in held:
            groups.setdefault((path.parent, first), []).append(path)
    heads: dict[Path, int] = {}
    for group in groups.values():
        if len(group) < 2:
            continue
        group.sort(key=lambda p: (not _names_itself(p), p.name))
        kept = list(_conversation(group[0]))
        for other in group[1:]:
            end = 0
            for (uuid, digest, lineno), theirs in zip(_conversation(other), kept):
                if (uuid, digest) != theirs[:2]:
                    break
                end = lineno
            if end:
                heads[other] = end
    return heads


def _names_itself(path: Path) -> bool:
    """The file's first line carries its own session id (the file a session was written in,
    not a copy of its lines in another). A line /branch copied names its own session too, and
    the one it was copied from in ``forkedFrom`` (qlan-ro/mainframe
    ``docs/research/2026-07-25-todo-246-claude-fork.md``): a copy."""
    for index, _lineno, obj in iter_json_records(path, ReadStats()):
        if isinstance(obj.get("sessionId"), str):
            return obj["sessionId"] == transcript_stem(path) and "forkedFrom" not in obj
        if index >= _FIRST_LINES:
            break
    return False


def copied_from(path: Path) -> str | None:
    """The session whose lines the file starts with, where its first line names it: the
    ``sessionId`` a resume kept (anthropics/claude-code #4926, #28463), or /branch's
    ``forkedFrom``; None for a file that names itself alone (its own session, or a
    ``--fork-session`` copy, which re-stamps the copied lines). Its first user or assistant line
    is read: the bookkeeping a resumed process writes first (a SessionStart hook's ``progress``
    line) names the new session."""
    for index, _lineno, obj in iter_json_records(path, ReadStats()):
        sid = obj.get("sessionId")
        if isinstance(sid, str) and isinstance(obj.get("type"), str) and obj["type"] in _CONVERSATION:
            origin = obj.get("forkedFrom")
            if isinstance(origin, dict) and isinstance(origin.get("sessionId"), str):
                sid = origin["sessionId"]
            return sid if sid and sid != transcript_stem(path) else None
        if index >= _FIRST_LINES:
            break
    return None


def session_folder_of(agent_file: Path) -> Path | None:
    """``<project>/<sessionId>`` for a sub-agent file under a session's ``subagents/`` folder
    (``<sessionId>/subagents/agent-*.jsonl``, or a Workflow run's ``subagents/workflows/<runId>/``);
    None for another file."""
    for folder in list(agent_file.parents)[:3]:
        if folder.name == "subagents":
            return folder.parent
    return None


def _conversation(path: Path) -> Iterator[tuple[str, int, int]]:
    """``(uuid, digest of the message, line number)`` of each user and assistant line."""
    for _index, lineno, obj in iter_json_records(path, ReadStats()):
        uuid = obj.get("uuid")
        if isinstance(uuid, str) and isinstance(obj.get("type"), str) and obj["type"] in _CONVERSATION:
            yield uuid, hash(repr(obj.get("message"))), lineno


def _holds(bigger: Path, smaller: Path) -> bool:
    """Every line of ``smaller`` is in ``bigger`` (same uuid, same message), in the same order,
    from its start (a few lines of ``bigger`` may come between: a resume writes bookkeeping of
    its own). The caller has checked that ``bigger`` is the larger file."""
    theirs = _uuids(bigger)
    for uuid in _uuids(smaller):
        for _ in range(64):
            if next(theirs, None) == uuid:
                break
        else:
            return False
    return True


def _uuids(path: Path, limit: int | None = None) -> Iterator[tuple[str, int]]:
    """``(uuid, digest of the message)`` of each user and assistant line of a Claude Code file:
    a copy has both (uuids alone are not enough where a tool wrote numbered ones)."""
    for index, _lineno, obj in iter_json_records(path, ReadStats()):
        if limit is not None and index >= limit:
            return
        uuid = obj.get("uuid")
        if isinstance(uuid, str) and isinstance(obj.get("type"), str) and obj["type"] in _CONVERSATION:
            yield uuid, hash(repr(obj.get("message")))


_CONVERSATION = frozenset({"user", "assistant"})


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


def subagent_files(session_file: Path) -> tuple[dict[str, tuple[Path, dict, str | None]], dict[str, str],
                                                  dict[str, WorkflowRun]]:
    """``{agent_id: (file, meta, workflow run id)}``, ``{toolUseId: agent_id}`` and the
    session's Workflow runs.

    Layouts, newest first: ``<id>/subagents/**/agent-*.jsonl``, ``<id>/agent-*.jsonl``, and
    (CLI 2.0.x) ``agent-*.jsonl`` beside the session file when its lines name this session.
    The CLI's own agents (:data:`INTERNAL_AGENTS`: compaction, prompt suggestions, side
    questions; :func:`is_warmup`: its prompt-cache warmups) are skipped.
    """
    session_file = written_at(session_file)
    session_id = transcript_stem(session_file)
    folder = session_file.parent / session_id
    candidates: list[Path] = []
    if folder.is_dir():
        candidates += sorted(_agent_glob(folder, "subagents/**/agent-*.jsonl"))
        candidates += sorted(_agent_glob(folder, "agent-*.jsonl"))
    for beside in sorted(_agent_glob(session_file.parent, "agent-*.jsonl")):
        if _names_session(beside, session_id):
            candidates.append(beside)
    files: dict[str, tuple[Path, dict, str | None]] = {}
    by_tool_use: dict[str, str] = {}
    run_agents: dict[str, list[str]] = {}
    workflows = folder / "subagents" / "workflows"
    for path in candidates:
        agent_id = agent_id_of(path)
        if agent_id.startswith(INTERNAL_AGENTS) or agent_id in files:
            continue
        meta = read_meta(path.with_name(f"agent-{agent_id}.meta.json"))
        if is_warmup(path, meta):
            continue
        run_id = path.parent.name if path.parent.parent == workflows else None
        files[agent_id] = (path, meta, run_id)
        if run_id is not None:
            run_agents.setdefault(run_id, []).append(agent_id)
        if isinstance(meta.get("toolUseId"), str):
            by_tool_use[meta["toolUseId"]] = agent_id
    return files, by_tool_use, _workflow_runs(folder, run_agents)


def sessions_holding(session_file: Path) -> dict[str, Path]:
    """``{agent_id: session file}`` for the sub-agents in the folders of the other sessions of
    ``session_file``'s project whose trunk is on disk (``<id>/subagents/**/agent-*.jsonl``,
    ``<id>/agent-*.jsonl``). A copy that re-stamped the sessionId of the lines it copied
    (``claude --resume A --fork-session``, which /background and /fork run: qlan-ro/mainframe
    ``docs/research/2026-07-25-todo-246-claude-fork.md``, against CLI 2.1.219) names A nowhere,
    and the sub-agents A started in those lines sit in A's folder. Listed once, and only when a
    sub-agent is not found where its lines point."""
    project, own = session_file.parent, transcript_stem(session_file)
    found: dict[str, Path] = {}
    trunks: dict[str, bool] = {}
    for pattern in ("*/subagents/**/agent-*.jsonl", "*/agent-*.jsonl"):
        for path in sorted(_agent_glob(project, pattern)):
            folder = path.relative_to(project).parts[0]
            if folder == own:
                continue
            if folder not in trunks:
                trunks[folder] = any(trunk.is_file() for trunk in trunk_candidates(project / folder))
            if trunks[folder]:
                found.setdefault(agent_id_of(path), project / f"{folder}.jsonl")
    return found


def _workflow_runs(folder: Path, run_agents: dict[str, list[str]]) -> dict[str, WorkflowRun]:
    runs: dict[str, WorkflowRun] = {}
    workflows = folder / "subagents" / "workflows"
    run_ids = set(run_agents)
    if workflows.is_dir():
        run_ids.update(p.name for p in workflows.iterdir() if _on_disk(p / "journal.jsonl") is not None)
    snapshots = folder / "workflows"
    if snapshots.is_dir():
        # (and their compressed copies, gzip -r over the project: a run that failed before starting
        # an agent has its snapshot alone, and read as missing, was "missing", not "failed")
        run_ids.update(name[:-5] for p in snapshots.iterdir()
                       if (name := unpacked_name(p.name)).endswith(".json") and len(name) > 5 and p.is_file())
    for run_id in sorted(run_ids):
        run_dir = workflows / run_id
        started, finished = _journal(run_dir / "journal.jsonl")
        agents = run_agents.get(run_id, [])
        snapshot = read_meta(snapshots / f"{run_id}.json")
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
    path = _on_disk(path) or path
    try:
        with open_transcript(path) as f:
            for raw in f:
                try:
                    row = json.loads(raw)
                except (ValueError, RecursionError):
                    continue  # the line being written, or a broken one
                if isinstance(row, dict) and isinstance(row.get("agentId"), str):
                    (finished if row.get("type") == "result" else started).add(row["agentId"])
    except DAMAGE:  # OSError, and a cut or corrupt compressed stream: the rows read so far stand
        pass
    return started | finished, finished


def first_prompt(path: Path) -> str | None:
    """The prompt a sub-agent's file opens with: the text of its first ``user`` line (a string,
    or the text blocks of a list), looked for in its first few lines; None when there is none.
    A compressed file (``gzip -r`` over a project folder) is read decompressed: read as it was
    stored, no line was JSON, so the CLI's warmup agents were kept as agents of their own and a
    sub-agent linked by its prompt alone was a root agent."""
    try:
        with open_transcript(path) as f:
            for _ in range(_PROMPT_LINES):
                raw = f.readline(_MAX_PROMPT_LINE)
                if not raw:
                    return None
                try:
                    obj = json.loads(raw)
                except (ValueError, RecursionError):
                    continue
                if not isinstance(obj, dict) or obj.get("type") != "user":
                    continue
                message = obj.get("message")
                content = message.get("content") if isinstance(message, dict) else None
                if isinstance(content, str):
                    return content
                if isinstance(content, list):
                    texts = [b["text"] for b in content
                             if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)]
                    return "\n".join(texts) if texts else None
                return None
    except DAMAGE:  # OSError, and a cut or corrupt compressed stream
        return None
    return None


def forked_brief(path: Path) -> str | None:
    """The fork brief (``<fork-boilerplate>`` rules, then ``Your directive: ``) of a forked
    sub-agent's file that opens with a copy of its parent's conversation: the text of the first
    ``user`` line after the copy whose text opens with the brief (the CLI's ``[...history,
    assistant(tool_uses), user(placeholder results, brief)]``); None when no line holds one. Lines
    are parsed only where they name the brief's tag, the file read up to :data:`_BRIEF_BYTES`."""
    read = 0
    try:
        with open_transcript(path) as f:
            while read < _BRIEF_BYTES and (raw := f.readline(_MAX_PROMPT_LINE)):
                read += len(raw)
                if _FORK_TAG not in raw:
                    continue
                try:
                    obj = json.loads(raw)
                except (ValueError, RecursionError):
                    continue
                message = obj.get("message") if isinstance(obj, dict) and obj.get("type") == "user" else None
                content = message.get("content") if isinstance(message, dict) else None
                texts = [content] if isinstance(content, str) else [
                    b["text"] for b in content if isinstance(b, dict) and b.get("type") == "text"
                    and isinstance(b.get("text"), str)] if isinstance(content, list) else []
                for text in texts:
                    if text.lstrip().startswith(_FORK_TAG.decode()):
                        return text
    except DAMAGE:  # OSError, and a cut or corrupt compressed stream
        return None
    return None


_FORK_TAG = b"<fork-boilerplate>"
"""How a fork's brief opens (``claude_code._FORK_OPEN``)."""
_BRIEF_BYTES = 256 << 20
"""How much of a sub-agent's file is looked through for a fork's brief after a copied history."""


_PROMPT_LINES = 5
_MAX_PROMPT_LINE = 4 << 20
"""A first line longer than this (a prompt of megabytes) is cut, its JSON broken: no prompt."""


def read_meta(path: Path) -> dict:
    """The JSON object of a sidecar (``agent-<id>.meta.json``, a Workflow snapshot), or of its
    compressed copy where only that is on disk: ``gzip -r`` over a project folder makes each
    ``.meta.json`` a ``.meta.json.gz`` too. Read as missing, every nested sub-agent lost its link
    (``toolUseId``, the only one at every depth): one whose spawner was read after it was a root
    agent, its status guessed. ``{}`` when there is none, or it is no JSON object."""
    try:
        if not path.is_file():
            packed = _on_disk(path)
            if packed is None:
                return {}
            data = read_head(packed, (1 << 20) + 1)
        else:
            if path.stat().st_size > 1 << 20:
                return {}
            data = path.read_bytes()
        if len(data) > 1 << 20:
            return {}
        # From bytes, which json.loads decodes by their byte-order mark: a sidecar rewritten on
        # Windows starts with one (PowerShell 5's Set-Content -Encoding UTF8 writes UTF-8 with a
        # BOM, Out-File UTF-16LE), which json.loads refuses at the start of a str
        value = json.loads(data)
    except (OSError, ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def _on_disk(path: Path) -> Path | None:
    """``path``, else its compressed copy (``.gz``, ...: ``gzip -r`` over a project folder), else None."""
    if path.is_file():
        return path
    return next((p for suffix in SUFFIXES if (p := path.with_name(path.name + suffix)).is_file()), None)


def _names_session(path: Path, session_id: str) -> bool:
    """The first line of a CLI 2.0.x ``agent-*.jsonl`` names its session. Only its start is
    read: ``sessionId`` precedes ``message`` (claude-code-log ``models.py``), and the line may
    hold a pasted image megabytes long."""
    try:
        start = read_head(path, _NAME_BYTES).split(b"\n", 1)[0]
    except OSError:
        return False
    m = _SESSION_ID.search(start)
    return m is not None and m.group(1).decode("utf-8", "replace") == session_id


_NAME_BYTES = 64 * 1024
_SESSION_ID = re.compile(rb'"sessionId":\s?"([^"]*)"')
