"""Reading one Claude Code session: its trunk file, then its sub-agents and Workflow runs."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from pathlib import Path

from spec_debug.session import parallel, reader
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import MAIN_AGENT, Event, ReadStats, Spawn, prompt_key
from spec_debug.session.formats import claude_code, claude_layout
from spec_debug.session.formats.common import Cursor
from spec_debug.session.formats.compressed import transcript_stem


def read(path: Path, cursor: Cursor, stats: ReadStats, tree: AgentTree, copied_head: int = 0,
         history_files: list[Path] = (), alone: bool = False) -> Iterator[Event]:
    """The trunk, then its sub-agents breadth first, linked by ``toolUseResult.agentId`` (trunk
    only), the ``agent-<id>.meta.json`` ``toolUseId`` (every depth; daaain/claude-code-log PR
    #218), or the Workflow run they belong to. The trunk's lines up to ``copied_head`` are left
    out (``SessionSource.copied_head``), and the sub-agents they started are read where that head
    is; ``history_files``: other trunks that hold this one's copied history
    (``SessionSource.history_files``), whose folders hold the sub-agents it started. ``alone``:
    the session is read without the others of its project (named alone), whose folders may hold
    the sub-agents its copied lines started (:func:`claude_layout.sessions_holding`)."""
    files, by_tool_use, runs = claude_layout.subagent_files(path)
    own_files = sorted(files)
    trunk = claude_layout.written_at(path)
    own_id = transcript_stem(trunk)
    if own_id.startswith("agent-") and not files and (folder := claude_layout.session_folder_of(trunk)) is not None:
        # A sub-agent's file read as a session (its trunk gone, or the file named alone): the
        # agents it started are its folder's too, linked by their sidecars' toolUseId, and read
        # under it (claude_layout.spawned_within); the folder's others are not its own
        found, links, _ = claude_layout.subagent_files(folder.parent / f"{folder.name}.jsonl")
        files = {agent_id: found[agent_id] for agent_id in claude_layout.nested_under(trunk, folder)
                 if agent_id in found}
        by_tool_use = {call: agent_id for call, agent_id in links.items() if agent_id in files}
        own_files, runs = [], {}
    cursor.agent_files = frozenset(files) | _history_agents(trunk, history_files, alone)
    borrowed: dict[Path, tuple[dict, dict]] = {}
    elsewhere: list[Path] = []  # sessions of the project found holding a sub-agent (claude_layout.sessions_holding)
    beside: dict[str, Path] | None = None  # that listing, made once

    def resumed_from(spawn: Spawn) -> Iterator[tuple[dict, dict]]:
        """The sub-agent files, and their ``toolUseId`` links, of the sessions whose copied lines
        may have made ``spawn``: ``claude --resume A`` wrote a file that starts with A's lines,
        their sessionId kept (anthropics/claude-code #4926, #28463), /branch one that names A in
        each line's ``forkedFrom``, and ``--fork-session`` (``/background``, ``/fork``) one whose
        copied lines name the new session alone (qlan-ro/mainframe
        ``docs/research/2026-07-25-todo-246-claude-fork.md``, against CLI 2.1.219): A's sub-agents
        were written in A's folder, beside this one (read alone, or with A dropped as held whole
        by it, each was "missing" and its work lost)."""
        if own_id.startswith("agent-"):
            return  # a sub-agent's file read alone: its folder's other files are read alone too
        sid = spawn.session_id
        named = [trunk.parent / f"{sid}.jsonl"] if sid and sid != own_id and sid not in (".", "..") \
            and "/" not in sid and "\\" not in sid else []
        for session_file in (*named, *history_files, *elsewhere):
            if session_file not in borrowed:
                found, links, _ = claude_layout.subagent_files(session_file)
                borrowed[session_file] = (found, links)
            yield borrowed[session_file]
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
        nonlocal beside
        spawns: list[str] = []
        refs: dict[str, tuple[str, str | None]] = {}
        inline_spawns = cursor.inline_spawns  # (the same dict all along: link_records fills it)
        for ev in events:
            kind = ev.kind
            if ev.spawn is not None and ev.call_id:
                spawns.append(ev.call_id)
                tree.get(ev.agent)
                pending[ev.call_id] = (ev.agent, ev.spawn)  # not the event: its prompt may be long
                if ev.timestamp:
                    spawned_at[ev.call_id] = ev.timestamp  # (_after_copied_history)
            elif kind == "tool_result" and ev.call_id:  # (one test of the kind for the three below)
                if ev.call_id not in pending and ev.agent_ref and ev.agent_status in ENDED:
                    notified[ev.agent_ref] = ev.agent_status  # a TaskOutput poll read a background agent's end
                elif ev.agent_ref or ev.agent_status:
                    # An interrupted call's result names no agent: the meta.json link does. A status
                    # that is no agent's (:data:`AGENT_STATUSES`) says nothing of how it ended.
                    refs[ev.call_id] = (ev.agent_ref, ev.agent_status if ev.agent_status in AGENT_STATUSES else None)
                    if ev.agent_status == claude_code.ASYNC_RUNNING and ev.agent_ref:
                        launched.append(ev.agent_ref)  # a background agent: it ends in a note, or a kill
                        launched_at[ev.agent_ref] = ev.timestamp
                elif ev.call_id in pending:
                    # Answered, naming nothing. A result that is an error (the CLI's "API Error: 500
                    # ..." when the sub-agent's request failed, anthropics/claude-code issue #28618)
                    # says the sub-agent failed, whatever its own file shows (was "completed" when its
                    # file held a call that went well, or nothing but the prompt).
                    refs.setdefault(ev.call_id, (None, "failed" if ev.is_error else None))
            elif ev.agent_ref and ev.agent_status and ev.call_id is None:
                notified[ev.agent_ref] = ev.agent_status  # <task-notification>: a background agent ended
                for agent_id, status, *_ in ev.agent_states or ():
                    notified[agent_id] = status  # several that ended together, a note each in one line
            elif (kind == "prompt" or kind == "summary") and ev.timestamp and prompts_kept[0] < _PROMPTS_KEPT:
                prompts_kept[0] += 1  # (_after_copied_history)
                prompted.setdefault(ev.agent, set()).add((ev.timestamp, prompt_key(ev.text)))
            elif kind == "system" and ev.raw_type == AGENTS_KILLED:
                kills.append(ev.timestamp)
                for agent_id in launched:  # the CLI stopped every background agent still running
                    notified.setdefault(agent_id, "interrupted")
            if ev.agent != MAIN_AGENT and kind in _TAIL_KINDS:
                stopped[ev.agent] = _stopped_by_hand(ev)
            if inline_spawns and (call := inline_spawns.get(ev.agent)) is not None and call in pending \
                    and call not in inline_linked:
                # An inline sub-agent of CLI 1.0.x, whose lines and Task result name no agent: linked
                # to its call now, before that result (its report) is read, which restates what the
                # sub-agent read (was no link, and each reading counted twice)
                inline_linked[call] = ev.agent
                info = tree.get(ev.agent, parent=pending[call][0])
                info.parent, info.spawned_by = pending[call][0], call
            yield ev
        for call_id in spawns:
            parent, spawn = pending.pop(call_id)
            agent_id, status = refs.get(call_id, (None, None))
            agent_id = agent_id or by_tool_use.get(call_id) or inline_linked.get(call_id) \
                or next((links[call_id] for _, links in resumed_from(spawn) if call_id in links), None)
            if agent_id is None:
                unlinked[call_id] = (parent, spawn, call_id in refs, status)
                continue
            if agent_id.startswith(claude_code.WORKFLOW_PREFIX):
                link_run(agent_id[len(claude_code.WORKFLOW_PREFIX):], parent, call_id, spawn)
                continue
            info = tree.get(agent_id, parent=parent)
            info.parent, info.spawned_by = parent, call_id
            if call_id not in refs:
                tree.unanswered.add(agent_id)  # "running" unless its own file says otherwise
            info.description = info.description or spawn.description
            info.agent_type = info.agent_type or spawn.agent_type
            if status:
                info.status = status
            if agent_id not in files and agent_id not in cursor.inline_agents:
                found = next((f[agent_id] for f, _ in resumed_from(spawn) if agent_id in f), None)
                if found is None and alone and not own_id.startswith("agent-"):
                    if beside is None:
                        beside = claude_layout.sessions_holding(trunk)
                    if (holder := beside.get(agent_id)) is not None:
                        # A fork named alone whose copied lines name only it (--fork-session): the
                        # sub-agent they started is in the original's folder, beside it (was "missing")
                        if holder not in elsewhere:
                            elsewhere.append(holder)
                        found = next((f[agent_id] for f, _ in resumed_from(spawn) if agent_id in f), None)
                if found is not None:
                    files[agent_id] = found
            if agent_id in files:
                enqueue(agent_id)
            elif agent_id not in cursor.inline_agents and (missing := _missing_agent_file(
                    agent_id, spawn.session_id, own_id, trunk.parent)) not in stats.missing_files:
                # Referenced but not on disk: keep the node, say so, never fail.
                stats.missing_files.append(missing)
                info.status = "missing"

    pending: dict[str, tuple[str, Spawn]] = {}
    spawned_at: dict[str, str] = {}  # spawning call -> when it was made
    prompted: dict[str, set[tuple[str, int]]] = {}  # per agent, (timestamp, prompt_key) of its prompts
    prompts_kept = [0]
    unlinked: dict[str, tuple[str, Spawn, bool, str | None]] = {}
    """Spawning calls no result or sidecar tied to a file: (parent, spawn, answered, status)."""
    inline_linked: dict[str, str] = {}  # spawning call -> its inline sub-agent (Cursor.inline_spawns)
    notified: dict[str, str] = {}
    launched: list[str] = []  # background agents, as their launch results (async_launched) name them
    launched_at: dict[str, str | None] = {}  # background agent -> when its launch was answered
    kills: list[str | None] = []  # when the CLI stopped the background agents (agents_killed)
    stopped: dict[str, bool] = {}  # per sub-agent: its last result or text was a stop by hand
    trunk_events = _read_file(path, cursor, stats)
    read_elsewhere: set[str] = set()
    if copied_head:
        # Lines another session's file reads (claude_layout.shared_heads): their spawns are that
        # session's too, its sub-agents read there (were "missing" here, in a fork that copied
        # them; in the file that wrote them, the head skipped, each was read as an orphan).
        trunk_events = _after_head(trunk_events, copied_head, by_tool_use, read_elsewhere)
    yield from watch(trunk_events)
    seq_base = cursor.records
    read.add(MAIN_AGENT)
    # Linked sub-agents breadth first, then any file of the session's own nothing pointed at, then
    # those of a folder of its history whose trunk is gone (sources._orphans_to_their_copy).
    adopted = _orphaned(history_files)
    leftovers = iter([*(agent_id for agent_id in own_files if agent_id not in read_elsewhere),
                      *(agent_id for agent_id in adopted if agent_id not in files)])
    # Leftovers no spawn read so far gave the prompt of: their spawner may be a leftover still to
    # be read (a chain of sub-agents without sidecars, each linked by its prompt alone, whose
    # files' order is not the spawning order), so they wait until the others are read.
    waiting: list[str] = []
    prompts: dict[str, int | None] = {}  # a waiting agent's first prompt, read once
    while True:
        if queue:
            agent_id = queue.popleft()
        else:
            agent_id = next((a for a in leftovers if a not in read), None)
            last_try = agent_id is None
            if last_try:
                waiting = [a for a in waiting if a not in read]  # linked since, by a result or a sidecar
                if not waiting:
                    break
                # none of the rest can be read first: one a spawn read since gave its prompt, else the first
                given: dict[int, int] = {}
                for _, spawn, _, _ in unlinked.values():
                    given[spawn.prompt_key] = given.get(spawn.prompt_key, 0) + 1
                agent_id = next((a for a in waiting if given.get(prompts.get(a)) == 1), waiting[0])
                waiting.remove(agent_id)
            files.setdefault(agent_id, adopted.get(agent_id))
            run_id = files[agent_id][2]
            call_id = None if run_id is not None else _spawned_by_prompt(files[agent_id][0], unlinked, prompts,
                                                                         agent_id) \
                or _spawned_by_name(files[agent_id][1], unlinked)
            if run_id is None and call_id is None and not last_try:
                waiting.append(agent_id)
                continue
            read.add(agent_id)  # before its run is linked: that queues the run's other agents
            if run_id is not None:
                # A run nothing in the trunk launched (a trunk cut short): the agent still
                # hangs under its run, whose spawner is unknown, rather than looking like a trunk.
                link_run(run_id, None, None, None)
            elif call_id is not None:
                # Its meta.json is gone or damaged (a copy that took the *.jsonl alone) and its
                # spawn's result names no agent (a nested spawn's never does): the call that
                # gave the very prompt its file opens with started it (was an orphan agent with
                # no parent, whose failure reached no one).
                parent, spawn, answered, status = unlinked.pop(call_id)
                info = tree.get(agent_id, parent=parent)
                info.parent, info.spawned_by = parent, call_id
                info.description = info.description or spawn.description
                info.agent_type = info.agent_type or spawn.agent_type
                if not answered:
                    tree.unanswered.add(agent_id)
                if status:
                    info.status = status
            else:
                tree.get(agent_id, parent=None)
        read.add(agent_id)
        agent_path, meta, _ = files[agent_id]
        info = tree.get(agent_id)
        info.file = str(agent_path)
        info.agent_type = info.agent_type or str(meta.get("agentType", ""))
        info.description = info.description or str(meta.get("description", ""))
        sub = Cursor(session=cursor.session, agent=agent_id, file=str(agent_path), seq_base=seq_base,
                     seen_calls=cursor.seen_calls, seen_results=cursor.seen_results,
                     inline_said=cursor.inline_said)
        copy_of: list = []  # a fork's copy is of its parent's conversation, which held its grandparent's
        since = spawned_at.get(info.spawned_by) if info.spawned_by is not None else None
        node = tree.agents.get(info.parent) if since is not None and info.parent is not None else None
        while node is not None and len(copy_of) < 64:
            copy_of.append(prompted.get(node.id, ()))
            node = tree.agents.get(node.parent) if node.parent is not None else None
        try:
            agent_events = _read_file(agent_path, sub, stats)
            yield from watch(_after_copied_history(agent_events, since, copy_of) if copy_of else agent_events)
        except OSError as exc:
            # One sub-agent file that cannot be read (permissions, a file removed since the
            # folder was listed) leaves the others and the trunk standing.
            stats.missing_files.append(f"{agent_path.name} ({exc.strerror or exc})")
            info.status = "missing"
        seq_base += sub.records
    if kills:
        for agent_id in launched:
            at = launched_at.get(agent_id)
            if agent_id not in notified and at and any(kill and kill >= at for kill in kills):
                # Launched by a sub-agent (its file is read after the trunk's kill line) before the
                # CLI stopped every background agent: stopped too, at any depth (was "running")
                notified[agent_id] = "interrupted"
    for agent_id, status in notified.items():
        info = tree.agents.get(agent_id)
        if info is not None and info.status != "missing":
            info.status = status
    for agent_id, last in stopped.items():
        info = tree.agents.get(agent_id)
        if last and info is not None and info.status == "unknown":
            # No result names it (a CLI 2.0.x file beside the trunk, without meta.json; a
            # copy in the trunk's progress lines), but its own file ends in the stop.
            info.status = "interrupted"
    for run_id, run in sorted(runs.items()):  # runs that died before starting an agent, never linked
        if run.status != "unknown" and tree.agents.get(claude_code.WORKFLOW_PREFIX + run_id) is None:
            link_run(run_id, None, None, None)


def _history_agents(trunk: Path, history_files: list[Path], alone: bool) -> frozenset[str]:
    """The sub-agents whose files are in the folders of the sessions this one copied: the trunks
    of ``history_files``, and, read alone, the session its first line names
    (:func:`claude_layout.copied_from`). A CLI before 2.1.71 copied each message of a running
    sub-agent into the trunk (``progress`` lines, :func:`claude_code._progress_copy`), and a
    resume copied those lines too: with the sub-agent's file in the original's folder, the file is
    read, not the copy (was the copy: no prompt, no file)."""
    sessions = list(history_files)
    if alone and (origin := claude_layout.copied_from(trunk)) and origin not in (".", "..") \
            and "/" not in origin and "\\" not in origin:
        sessions.append(trunk.parent / f"{origin}.jsonl")
    return frozenset(agent_id for session_file in sessions for agent_id in claude_layout.subagent_files(session_file)[0])


def _orphaned(history_files: list[Path]) -> dict[str, tuple[Path, dict, None]]:
    """The sub-agent files of the sessions in ``history_files`` whose trunk is gone (the folder
    alone is left: the CLI's cleanup deletes ``<id>.jsonl`` and keeps ``<id>/subagents/``), as
    :func:`claude_layout.subagent_files` gives them; no Workflow run (its record is that session's)."""
    found: dict[str, tuple[Path, dict, None]] = {}
    for session_file in history_files:
        folder = session_file.parent / transcript_stem(session_file)
        if not any(trunk.is_file() for trunk in claude_layout.trunk_candidates(folder)):
            for agent_id, (path, meta, _run) in claude_layout.subagent_files(session_file)[0].items():
                found.setdefault(agent_id, (path, meta, None))
    return found


def _missing_agent_file(agent_id: str, spawned_in: str, own_id: str, project: Path) -> str:
    """How a sub-agent file found nowhere is named in ``missing_files``: ``agent-<id>.jsonl``, and
    where a copied line started it (a resumed or forked session read without the session it
    copied, whose folder is not beside it: the line's sessionId kept, or /branch's
    ``forkedFrom``), the session whose folder holds it (was a file this session lost, though it
    never had it)."""
    name = f"agent-{agent_id}.jsonl"
    if spawned_in and spawned_in != own_id and not own_id.startswith("agent-") \
            and spawned_in not in (".", "..") and "/" not in spawned_in and "\\" not in spawned_in \
            and not (project / spawned_in).is_dir():
        return f"{name} (started in session {spawned_in}, whose folder is not beside this one)"
    return name


def _after_head(events: Iterator[Event], head: int, by_tool_use: dict[str, str], spawned: set[str]) -> Iterator[Event]:
    """The events after line ``head``; ``spawned`` gets the sub-agents the head's lines started."""
    for ev in events:
        if ev.line > head:
            yield ev
        elif ev.spawn is not None and ev.call_id in by_tool_use:
            spawned.add(by_tool_use[ev.call_id])
        elif ev.kind == "tool_result" and ev.agent_ref:
            spawned.add(ev.agent_ref)


def _after_copied_history(events: Iterator[Event], since: str, prompted: list) -> Iterator[Event]:
    """A sub-agent's events after the history its file opens with a copy of. A fork (``Agent``
    ``subagent_type: "fork"``, on by default from CLI 2.1.232) starts from the parent's whole
    conversation, and its file records that first, each line with the parent's uuid and time
    (runAgent's ``recordSidechainTranscript([...forkContextMessages, ...promptMessages])``, as
    ports of the CLI give it; newer CLIs write a ``fork-context-ref`` line instead). Its copied
    calls were already dropped (``Cursor.seen_calls``), not its copied words: the person's prompt
    was the fork's prompt too, and each of the parent's suspicions a hypothesis of the fork's.

    The copy is the file's opening run of lines older than ``since``, the time of the call that
    spawned the agent, and it holds a prompt its parent (or an agent above it) made at the same time
    (``prompted``: a set of ``(timestamp, prompt_key)`` per agent, the parent's first), or the
    summary of its last compaction, where a copy of a compacted conversation opens; such a run is
    held until its first prompt tells (a few lines: the copy opens the conversation), and read as
    before when it is no copy. Times the CLI writes (``toISOString``, ``Z``) compare as text."""
    events = iter(events)
    held: list[Event] = []
    copied = False
    for ev in events:
        ts = ev.timestamp
        if ts is None or ts[-1:] != "Z" or since[-1:] != "Z" or ts[:4] != since[:4] or ts >= since:
            break  # the agent's own line: no copy before it, or the copy's end
        if copied:
            continue
        if ev.kind == "prompt" or ev.kind == "summary":
            said = (ts, prompt_key(ev.text))
            if any(said in keys for keys in prompted):
                copied = True
                held.clear()
                continue
            held.append(ev)
            ev = None
            break  # the agent's own prompt: no copy
        held.append(ev)
        if len(held) == _HELD_MOST:
            ev = None
            break
    else:
        ev = None
    yield from held
    if ev is not None:
        yield ev
    yield from events  # the rest of the file, as it comes


_PROMPTS_KEPT = 4096
"""Prompts remembered for :func:`_after_copied_history` (bounded: a session of more prompts
than this still reads, its later copies read as before)."""
_HELD_MOST = 64
"""Events held before a copied history's first prompt: the conversation opens with it, after a
few lines at most (a compaction's summary, attachments)."""


def _spawned_by_prompt(path: Path, unlinked: dict[str, tuple], keys: dict[str, int | None] | None = None,
                       agent_id: str = "") -> str | None:
    """The one unlinked spawning call whose prompt is the first prompt of the sub-agent file
    ``path`` (the CLI opens a sub-agent's file with the prompt its call gave); None when no
    call, or more than one, gave it. ``keys`` keeps each agent's prompt, read once. A fork's file
    opens with its brief (``<fork-boilerplate>`` rules, then ``Your directive: `` and the prompt its
    call gave): the directive is the prompt (was the brief, no call's: a fork whose sidecar and
    launch result were both lost was a root agent, its findings no one's); so does a fork whose file
    opens with a copy of its parent's conversation, the brief after it
    (:func:`claude_layout.forked_brief`)."""
    if keys is not None and agent_id in keys:
        key = keys[agent_id]
    elif keys is None and not unlinked:
        return None
    else:
        prompt = claude_layout.first_prompt(path)
        if prompt and not prompt.lstrip().startswith(claude_code._FORK_OPEN):
            # a fork that opens with a copy of its parent's conversation (the person's prompt
            # first): the brief after the copy gives its directive (was a root agent beside the trunk)
            prompt = claude_layout.forked_brief(path) or prompt
        if prompt and prompt.lstrip().startswith(claude_code._FORK_OPEN):
            prompt = claude_code._after_reminders(prompt)
        key = prompt_key(prompt) if prompt else None
        if keys is not None:
            keys[agent_id] = key  # (read when nothing is unlinked yet too: the agent may wait)
    if key is None or not unlinked:
        return None
    calls = [call for call, (_, spawn, _, _) in unlinked.items() if spawn.prompt_key == key]
    return calls[0] if len(calls) == 1 else None


def _spawned_by_name(meta: dict, unlinked: dict[str, tuple]) -> str | None:
    """The one unlinked spawning call of an agent-team teammate whose ``name`` its sidecar gives:
    an in-process teammate's ``agent-<id>.meta.json`` has no ``toolUseId`` (``{"agentType", "name",
    "taskKind": "in_process_teammate"}``, langfuse/claude-observability-plugin issue #28 and PR
    #66, which link it so), and its file need not open with the prompt its call gave (was a root
    agent of the lead's session, its failure reaching no one). None when no call, or more than
    one, gave that name."""
    name = meta.get("name")
    if not isinstance(name, str) or not name or not unlinked:
        return None
    calls = [call for call, (_, spawn, _, _) in unlinked.items() if spawn.name == name]
    return calls[0] if len(calls) == 1 else None


def _read_file(path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    # Worker processes cut a file at byte offsets, which a UTF-16 file does not allow.
    if reader.is_utf16(path):
        return claude_code.read(path, cursor, stats)
    return parallel.read_claude(path, cursor, stats)


AGENTS_KILLED = "agents_killed"
"""The subtype of the system line Claude Code writes after it terminated the background agents
still running (the person stopping them all): ``{"type": "system", "subtype":
"agents_killed", ...}``, no field naming them ("Marker emitted after Claude Code terminates
outstanding background agents", as a TypeScript model of the CLI's records puts it). An agent
launched before it with no word on its end was stopped there (was "running")."""
_TAIL_KINDS = frozenset({"prompt", "text", "tool_call", "tool_result", "system"})
ENDED = frozenset({"completed", "failed", "interrupted"})
"""How a background agent ended, as its notification or a poll of it says (claude_code._FINAL_STATUS)."""
AGENT_STATUSES = ENDED | {claude_code.ASYNC_RUNNING}
"""The words of a spawn's result (``toolUseResult.status``) that are an agent's status
(:attr:`AgentInfo.status`). Not the launch receipt of an agent-team teammate, ``{"status":
"teammate_spawned", "agent_id": "bench@eagle", "name", "team_name", …}`` (CLI 2.1.32+, the shape
several independent readers of agent teams parse; it runs on, goes idle and is shut down, and
never "completes"), which was given to the teammate as its status, a word outside the documented
set: how it did is read from its own file, as for a spawn whose result says nothing."""


def _stopped_by_hand(ev: Event) -> bool:
    """The event is the CLI's note of a stop by hand: an interrupted call's result, or the
    ``[Request interrupted by user]`` line written after it (:data:`claude_code.INTERRUPTED`)."""
    if ev.kind == "tool_result":
        return ev.agent_status == "interrupted" and ev.agent_ref is None  # (not a poll of another agent's stop)
    return ev.kind == "system" and ev.text.startswith(claude_code.INTERRUPTED)
