"""Claude Code session JSONL (``~/.claude/projects/<cwd>/<sessionId>.jsonl``).

Envelope fields and block types: daaain/claude-code-log ``claude_code_log/models.py``;
sub-agent links: the same project's PR #218 (``toolUseResult.agentId`` on the trunk,
``meta.json`` ``toolUseId`` at every depth). The format is internal and drifts
(anthropics/claude-code issue #323), so every unknown line type is kept as ``other``.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path

from spec_debug.session.events import MAIN_AGENT, Event, ReadStats, Spawn, prompt_key
from spec_debug.session.formats import claude_hook_blocks, claude_layout, cursor_stream, mcp_connector, server_tools
from spec_debug.session.formats.common import (
    Cursor,
    attachments_shown,
    block_text,
    call_path,
    edited_text,
    exit_code_of,
    remote_host,
    remote_login,
    shell_command,
    stream_result,
)
from spec_debug.session.formats.compressed import DAMAGE, SUFFIXES, open_transcript, transcript_stem
from spec_debug.session.formats.instants import stamp
from spec_debug.session.reader import iter_json_records

SPAWN_TOOLS = frozenset({"Task", "Agent"})
"""``Task`` on CLI 2.0.x, ``Agent`` on 2.1.x (TRANSCRIPTS.md section 1a)."""
WORKFLOW_TOOL = "Workflow"
"""Starts a script that fans out into agents written under ``<sessionId>/subagents/workflows/
<runId>/agent-*.jsonl``; its result names the run (``toolUseResult.runId``, and the text line
``Transcript dir: <sessionId>/subagents/workflows/<runId>``). daaain/claude-code-log
``claude_code_log/workflow.py`` and ``test/test_data/workflow_scriptpath/``."""
WORKFLOW_PREFIX = "workflow:"
"""Agent-tree id of a workflow run: ``workflow:<runId>``, the parent of the run's agents."""
_WORKFLOW_DIR = re.compile(r"^Transcript dir: \S*?subagents/workflows/([\w.-]+)\s*$", re.MULTILINE)
_COMMAND_NOT_SHELL = frozenset({"SlashCommand", "Skill"})
"""Tools whose ``input.command`` is a slash command or a skill name, not a shell command
(``{"name": "SlashCommand", "input": {"command": "/review"}}``, CLI 2.0.x)."""
_API_BLOCKS = frozenset({
    "redacted_thinking", "container_upload", "document", "search_result",
})
"""Anthropic Messages content blocks we keep as ``other`` without calling them unknown."""
_AGENT_TRAILER = re.compile(r"agentId: ([\w-]+) \(")
_SHELL_STATUS = re.compile(r"<status>(\w+)</status>")
_SHELL_EXIT = re.compile(r"<exit_code>(-?\d+)</exit_code>")
"""What a poll of a background shell returns (``BashOutput``, CLI 2.0.x; ``TaskOutput``, 2.1.x):
``<status>running|completed|failed|killed</status>`` and, once it ended, ``<exit_code>N
</exit_code>``, then ``<stdout>``/``<stderr>``. The poll's tool_result is never ``is_error``:
the status is the only word on how the command ended (seen in published 2.0.x transcripts,
e.g. goodsch/brain_explore ``claude-prompts/agent-bfa52189-untitled-full.md``)."""
_POLLED_TASK = re.compile(r"<task_id>([\w-]+)</task_id>")
_KILLED_TOO_LATE = re.compile(r"Shell ([\w-]+) is not running, so cannot be killed \(status: (\w+)\)")
"""``KillShell``'s error for a background shell that had ended (CLI 2.0.x: ``Shell a089a8 is not
running, so cannot be killed (status: completed)``, as published session exports show it, e.g.
link-assistant/hive-mind pull request #842). The stop found nothing to stop: no failure of its
own, and the status is how the command ended (see :func:`_killed_too_late`)."""
POLL_TOOLS = {"BashOutput": "bash_id", "TaskOutput": "task_id"}
"""The tools that poll a background command, and the input naming it (``{"bash_id": …}``, CLI
2.0.x; ``{"task_id": …, "block": true, "timeout": …}``, 2.1.x)."""
POLL_END = "poll-end"
"""``raw_type`` of a poll's result that says the command ended, with its exit code: 2.0.x
``<status>failed</status>`` ``<exit_code>137</exit_code>`` ``<stdout>…`` with ``toolUseResult
{shellId, command, status, exitCode, stdout, stderr, …}``; 2.1.x ``<retrieval_status>success
</retrieval_status>`` ``<task_id>b03a6e3</task_id>`` ``<task_type>local_bash</task_type>``
``<status>completed</status>`` ``<exit_code>0</exit_code>`` ``<output>…`` with ``toolUseResult
{retrieval_status, task{task_id, task_type, status, description, output, exitCode}}`` (blank
lines between the tags; the shapes transcript viewers type and ports of the CLI's TaskOutputTool
render). :func:`link_records` gives it to the command the poll names, which had only its launch
result: that command ended so, not the poll."""
_KNOWN_PASSTHROUGH = frozenset({
    "queue-operation", "ai-title", "attachment", "progress", "agent-setting", "pr-link",
    "file-history-snapshot", "custom-title", "agent-name", "mode", "last-prompt", "stream_event",
    "frame-link", "permission-mode",
    "worktree-state", "file-history-delta", "agent-color", "bridge-session", "atis-latch", "relocated",
    "fork-context-ref", "content-replacement", "marble-origami-commit", "marble-origami-snapshot", "task-summary",
    "rate_limit_event", "control_request", "control_response",
    "tool_progress", "tool_use_summary", "auth_status",
    "prompt_suggestion", "active_goal", "keep_alive", "command_lifecycle",
    "tag", "isolation-latch", "ended", "attribution-snapshot", "cost-state", "artifact-comment-monitor",
    "artifact-autoreact-ledger", "conversation_reset",
})
"""Bookkeeping line types kept as ``other`` without calling them unknown; ``frame-link`` (an
Artifact published, CLI 2.1.198: daaain/claude-code-log ``test/test_data/artifact_tool.jsonl``),
stream-json's ``rate_limit_event`` (:func:`_rate_limit`) and the ``control_request``/``control_response``
of a permission prompt over stdio (BloopAI/vibe-kanban issue #2126, CLI 2.1.7), and
``permission-mode`` (``{"type": "permission-mode", "permissionMode": "auto"}``) are newer. So are
those of the second row, which the 2.1.1xx-2.1.2xx CLIs write about the session, not in it
(``{"type": "worktree-state", "worktreeSession": …, "sessionId"}`` next to ``mode`` and
``permission-mode`` when a session is resumed, as a reconstruction of the CLI's session writer
shows; the same names in the skip lists of several independent transcript importers, which
read them from real sessions): they hold no command, result or prompt. Nor do the third row's,
stream-json's notes beside the messages: ``tool_progress{tool_use_id, tool_name,
elapsed_time_seconds}`` while a tool runs, ``tool_use_summary{summary, preceding_tool_use_ids}``
after a batch of calls, ``auth_status{isAuthenticating, output}`` (the Agent SDK's
SDKToolProgressMessage, SDKToolUseSummaryMessage and SDKAuthStatusMessage,
@anthropic-ai/claude-agent-sdk ``sdk.d.ts``); each was counted as a line of unknown type. The
fourth row's are newer SDK lines of the same kind: ``prompt_suggestion{suggestion}``, the
predicted next prompt (no prompt the person typed), ``active_goal{value}`` and ``keep_alive``
(SDKPromptSuggestionMessage, SDKActiveGoalMessage, SDKKeepAliveMessage, the same file), and
``command_lifecycle{command_uuid, state: queued|started|completed|cancelled|discarded}``, the ack
of a prompt sent over stdin (its text comes as the ``user`` line that replays it; several
independent stream-json hosts and a session-file reader's tests carry it). The fifth
row's are the rest of the state records the 2.1.2xx session writer appends beside the messages
(no ``uuid``, only ``type``, ``sessionId`` and a payload: a ``/tag``, the session's cost so far, an
end marker, attribution and artifact ledgers; re-appended as a block on every resume), as a format
spec reverse-engineered from CLI 2.1.266's bundle lists them with ``atis-latch`` and ``relocated``
(found with code search): a resumed 2.1.266 session counted each as a line of unknown type."""


TITLE_LINES = {"custom-title": "customTitle", "ai-title": "aiTitle"}
RESULT_ERROR = "result:error"
"""The raw type of a stream-json ``result`` line that says the run failed (and of a session
file's ``max_turns_reached`` attachment, :func:`_turn_limit`)."""
"""The session's name: ``{"type": "custom-title", "customTitle": …, "sessionId"}`` written by
``/rename``, ``{"type": "ai-title", "aiTitle": …}`` the CLI's own; the last of each is the
current one, and a rename wins (the shapes transcript viewers read, e.g. rymalia/
claude-code-viewer ``docs/feature_plan_custom_title_agent_name_support.md``)."""


def looks_like(obj: dict) -> bool:
    line_type = obj.get("type")
    if line_type in ("user", "assistant", "summary", "system"):
        return "message" in obj or "uuid" in obj or "sessionId" in obj or "leafUuid" in obj
    # A session may open with a run of bookkeeping lines (file-history-snapshot, progress,
    # queue-operation) longer than the sniff window's first lines.
    return isinstance(line_type, str) and line_type in _KNOWN_PASSTHROUGH and (
        "sessionId" in obj or "uuid" in obj or "messageId" in obj)


_MESSAGE_LINES = frozenset({"user", "assistant", "system", "summary", "result"})
ENVELOPE_KEYS = frozenset({"sessionId", "uuid", "parentUuid", "leafUuid", "messageId"})
"""The keys of Claude Code's own line envelope (camelCase; the hook payloads and stream-json
write ``session_id``)."""


def reads_line_type(line_type: object) -> bool:
    """Whether :func:`read` knows a line of this ``type``: a message, a stream-json line (Cursor
    CLI's too) or a bookkeeping record. A JSONL file whose typed lines are none of these, with
    no line in Claude Code's envelope, is another program's log (``sources``)."""
    return isinstance(line_type, str) and (line_type in _MESSAGE_LINES or line_type in _KNOWN_PASSTHROUGH
                                           or line_type in TITLE_LINES or line_type in cursor_stream.LINE_TYPES)


def read(path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    return link_records(parse_records(iter_json_records(path, stats), cursor, stats), cursor)


ParsedRecord = tuple[int, int, bool, object, list[Event]]
"""``(record_index, line_number, is_sidechain, agentId, events)`` of one line."""


class SpanEdges:
    """What :func:`parse_records` cannot settle alone in one span of a file that worker processes
    read (:mod:`spec_debug.session.parallel`): the lines before the span are another worker's.
    The parent, which takes the spans back in file order, settles it, so that a file read in
    spans is read exactly as one read whole.

    ``narrated``: whether a message or ``init`` line came since the last result line
    (:func:`as_answer`): False at the file's start, None (unknown) at another span's; after
    the span, as it ends it (None: the span has neither, the state passes through). ``unsure``:
    the record index of the span's result line that came while it was unknown, read as a note;
    the agent's text where the span before ended unnarrated. ``inits``: the span holds an
    ``init`` line, from which on its commands have a folder (:func:`follow_folder`, which the
    parent runs, since a ``cd`` in one span moves the next span's commands)."""

    __slots__ = ("narrated", "unsure", "inits")

    def __init__(self, narrated: bool | None) -> None:
        self.narrated = narrated
        self.unsure: int | None = None
        self.inits = False


def parse_records(records: Iterator[tuple[int, int, dict]], cursor: Cursor, stats: ReadStats,
                  edges: SpanEdges | None = None) -> Iterator[ParsedRecord]:
    """Each line's events, on their own (a worker process may parse a slice of the file: then
    ``edges`` holds what the slice's lines cannot settle); which agent they belong to is decided
    in order by :func:`link_records`."""
    agent, seq_base = cursor.agent, cursor.seq_base
    trunk = agent == MAIN_AGENT
    whole = edges is None
    narrated: bool | None = False if whole else edges.narrated  # see SpanEdges
    folder: str | None = None  # stream-json's working folder, till a command moves it (follow_folder)
    for index, lineno, obj in records:
        events = _events(obj, cursor, agent, seq_base + index, lineno, stats)
        if events:
            first = events[0]
            if first.kind == "system":  # (a str compare first: most lines are messages)
                raw = first.raw_type
                if raw.__class__ is str and raw[:7] == "result:":
                    if narrated is not True and raw != RESULT_ERROR and first.text:
                        if narrated is None:
                            edges.unsure = index
                        else:
                            as_answer(first)
                    narrated = False
                elif raw == "init":
                    narrated = True
                    if whole:
                        folder = first.cwd  # the run's folder, None for none (follow_folder)
                    else:
                        edges.inits = True  # its folder reaches commands only the parent sees
                elif narrated is not True and first.role != "system":
                    narrated = True
            elif narrated is not True and first.role != "system":
                narrated = True
        if trunk and events and events[0].raw_type == "progress":
            copied = _progress_copy(obj, cursor, seq_base + index, lineno, stats)
            if copied is not None:
                if folder is not None:
                    folder = follow_folder(copied[1], folder)
                yield index, lineno, True, copied[0], copied[1]
                continue
        if folder is not None:  # (never in a worker: whole is False)
            folder = follow_folder(events, folder)
        parent_call = obj.get("parent_tool_use_id")
        if isinstance(parent_call, str) and parent_call and not isinstance(obj.get("agentId"), str):
            # stream-json: a sub-agent's line, known by the call that started it (link_records)
            yield index, lineno, True, PARENT_CALL + parent_call, events
            continue
        agent_id, sidechain = obj.get("agentId"), obj.get("isSidechain") is True
        if sidechain and trunk and agent_id is None:
            # CLI 1.0.x: a sub-agent's line inline, with no agentId; its uuid chain tells which
            # of several sub-agents running at once it belongs to (link_records)
            uuid, parent = obj.get("uuid"), obj.get("parentUuid")
            agent_id = (uuid if isinstance(uuid, str) else None, parent if isinstance(parent, str) else None)
        yield index, lineno, sidechain, agent_id, events
    if not whole:
        edges.narrated = narrated


def as_answer(ev: Event) -> None:
    """``claude -p --output-format json`` writes one object, the run's ``result`` line alone
    (the Agent SDK's SDKResultMessage, @anthropic-ai/claude-agent-sdk ``sdk.d.ts``): its final
    answer is only in ``result``. Read as a system note, the answer ("96.8 tok/s with EAGLE-3")
    gave no metric and no hypothesis; it is the agent's text. In stream-json (and ``json
    --verbose``) the ``init`` line and the messages come first and the same answer was already
    read from the last assistant message: that result stays a note, read once."""
    ev.kind, ev.role = "text", "assistant"


def follow_folder(events: list[Event], folder: str | None) -> str | None:
    """The working folder after one line's ``events``, whose shell commands with no folder of
    their own ran in ``folder``. stream-json says the folder once, on its ``{"type": "system",
    "subtype": "init", "cwd"}`` line (the Agent SDK's SDKSystemMessage,
    @anthropic-ai/claude-agent-sdk ``sdk.d.ts``; :func:`_events` puts it on the init event);
    its messages carry no ``cwd`` of their own, as a session file's lines do. Commands ran there
    until one moved the Bash tool's shell (``cd``, ``pushd``: the folder persists between
    calls); after that the folder is unknown, and left so, rather than guessed."""
    if events and events[0].raw_type == "init" and events[0].kind == "system":
        folder = events[0].cwd
    if folder is not None:
        for ev in events:
            if ev.command is not None and ev.host is None and ev.cwd is None:
                ev.cwd = folder
                command = ev.command
                if ("cd" in command or "pushd" in command) and _MOVES_FOLDER.search(command):
                    return None
    return folder


_MOVES_FOLDER = re.compile(r"(?:^|[;&|({\n]|\bthen|\bdo|\belse)\s*(?:cd|pushd|popd)(?![\w.-])")


def _progress_copy(obj: dict, cursor: Cursor, seq: int, lineno: int, stats: ReadStats) -> tuple[str, list[Event]] | None:
    """``(agentId, events)`` of a sub-agent message the trunk holds a copy of, when the
    sub-agent's own file is not there. CLIs before 2.1.71 wrote each message of a running
    sub-agent into the trunk as well: ``{"type": "progress", "parentToolUseID": "toolu_...",
    "data": {"type": "agent_progress", "agentId": ..., "prompt": ..., "message": {"type":
    "assistant", "timestamp": ..., "message": {"role", "content"}}}}`` (pixel-agents-hq/
    pixel-agents issue #93: 2.1.71 stopped; the shape as kenn-io/agentsview PR #76 and other
    readers parse it). A copy whose ``subagents/`` folder was not kept is all there is of the
    sub-agent's work; with the file there, the file is read and the copy is not."""
    data = obj.get("data")
    if type(data) is not dict or data.get("type") != "agent_progress":
        return None
    agent_id, message = data.get("agentId"), data.get("message")
    if type(agent_id) is not str or not agent_id or agent_id in cursor.agent_files or type(message) is not dict:
        return None
    if message.get("type") not in ("user", "assistant"):
        inner = message.get("message")
        role = inner.get("role") if type(inner) is dict else None
        if role not in ("user", "assistant"):
            return None
        message = {**message, "type": role}
    if not isinstance(message.get("timestamp"), str) and isinstance(obj.get("timestamp"), str):
        message = {**message, "timestamp": obj["timestamp"]}
    return agent_id, _events(message, cursor, cursor.agent, seq, lineno, stats)


PARENT_CALL = "\x00call:"
"""Marks the agentId slot of a :data:`ParsedRecord` that names the spawning call instead.
``claude -p --output-format stream-json`` (CI runs, the Agent SDK) writes a sub-agent's lines
inline in the parent's stream with only ``parent_tool_use_id``, the id of the Agent/Task call
that started it; newer CLIs announce it first with ``{"type": "system", "subtype":
"task_started", "task_id", "tool_use_id"}``, whose ``task_id`` is the ``agentId`` the call's
result names (the shapes several independent stream readers parse)."""


_CHAIN_KEPT = 65536
"""Inline sidechain uuids remembered for linking (CLI 1.0.x): the oldest is forgotten past
this, so a file of millions of such lines is read in bounded memory; a line answers one written
moments before it, far fewer lines back than this."""


def _inline_spawn(events: list[Event], spawn_keys: dict[int, list[str]], cursor: Cursor) -> str | None:
    """The agent of the Task call whose prompt an inline sidechain's opening line repeats (CLI
    1.0.x: the sub-agent's first line is a user message of the call's ``prompt``), or None."""
    for event in events:
        if event.role == "user" and event.call_id is None and event.text:
            calls = spawn_keys.get(prompt_key(event.text))
            if not calls:
                return None
            call = calls.pop(0)
            agent = f"sidechain-{call}"
            cursor.inline_spawns[agent] = call
            return agent
    return None


def link_records(parsed: Iterator[ParsedRecord], cursor: Cursor) -> Iterator[Event]:
    sidechain_agent: str | None = None
    last_spawn: str | None = None
    # The agentId a trunk line named since the last spawn: CLI 2.0.x puts it on the Task result
    # line, and the sidechain lines after it may lack it (claude-code-log
    # test/test_data/sidechain_integrated.jsonl).
    last_ref: str | None = None
    inline_count = 0
    by_call: dict[str, str] = {}  # stream-json: spawning call id -> the agent its lines belong to
    chain: dict[str, str] = {}  # CLI 1.0.x: an inline sidechain line's uuid -> its agent
    spawn_keys: dict[int, list[str]] = {}  # a spawn's prompt_key -> its calls no sidechain opened yet
    # Tool calls and results already read, by call id: a file can hold the same lines twice.
    # Claude Code 1.0.x driven with --input-format stream-json rewrote the whole history into the
    # session file at every turn (anthropics/claude-code issue #5034), so each command, error and
    # reading was counted once per later turn and a command run once read as a loop of it.
    # The sets live on the cursor: a sub-agent file may replay the trunk's lines too (Cursor.seen_calls).
    seen_calls, seen_results = cursor.seen_calls, cursor.seen_results
    background: OrderedDict[str, str] = OrderedDict()  # background task id -> the call that started it
    polls: OrderedDict[str, str] = OrderedDict()  # a poll's call id -> the task id it reads
    trunk = cursor.agent == MAIN_AGENT
    early: OrderedDict[str, tuple[int, Event]] = OrderedDict()  # see _EARLY_RESULTS
    for index, _lineno, sidechain, agent_id, events in parsed:
        cursor.records = index + 1
        while early and next(iter(early.values()))[0] < index - _EARLY_RESULTS:
            yield early.popitem(last=False)[1][1]  # its call never came: passed on as before
        if agent_id is not None and isinstance(agent_id, str) and agent_id.startswith(PARENT_CALL):
            call = agent_id[len(PARENT_CALL):]
            agent = by_call.setdefault(call, f"sidechain-{call}")
            cursor.inline_agents.add(agent)
            for event in events:
                event.agent = agent
                _link_inline(event, by_call)
            yield from events
            continue
        if trunk and sidechain:
            # Older CLIs wrote sub-agent lines inline in the session file.
            link = None
            if agent_id.__class__ is tuple:
                link, agent_id = agent_id, None
            elif not isinstance(agent_id, str):
                agent_id = None
            if link is not None:
                # CLI 1.0.x ran parallel Task calls' sub-agents at once and wrote their lines
                # interleaved: a line whose parentUuid is null opens one (its prompt names the
                # call), the others continue the agent of the line they answer
                linked = chain.get(link[1]) if link[1] is not None else _inline_spawn(events, spawn_keys, cursor)
                if linked is not None:
                    sidechain_agent = linked
            if sidechain_agent is None:
                inline_count += 1
                sidechain_agent = agent_id or last_ref or (
                    f"sidechain-{last_spawn}" if last_spawn else f"sidechain-{inline_count}"
                )
                if not (agent_id or last_ref) and last_spawn:
                    cursor.inline_spawns[sidechain_agent] = last_spawn
            agent = agent_id or sidechain_agent
            if link is not None and link[0] is not None:
                chain[link[0]] = agent
                if len(chain) > _CHAIN_KEPT:  # bounded memory: a line answers a recent one
                    del chain[next(iter(chain))]
            cursor.inline_agents.add(agent)
            for event in events:
                event.agent = agent
                if event.call_id is None and event.timestamp and event.text and len(cursor.inline_said) < 65536:
                    cursor.inline_said.add((event.kind, event.timestamp, event.text))
        elif trunk:
            sidechain_agent = None
            if agent_id and isinstance(agent_id, str):
                last_ref = agent_id
        if not trunk and cursor.inline_said:
            # the trunk held this agent's line inline already (Cursor.inline_said)
            events = [e for e in events if e.call_id is not None
                      or (e.kind, e.timestamp, e.text) not in cursor.inline_said]
        for event in events:
            call = event.call_id
            kind = event.kind  # (nothing below changes it before the event is passed on)
            if call is not None:
                if kind == "tool_result" and event.raw_type is not None:
                    if event.raw_type == "running" and (task := polls.get(call)) is not None \
                            and (owner := background.get(task)) is not None:
                        # A poll of a command still running (<status>running</status>): what it
                        # shows is more of that command's output, its host's, as Codex's polls
                        # are (analysis reads ``<call>#running...`` as the call's); one id per poll
                        event.call_id = call = f"{owner}{_POLLED_AS}{call}"
                    if event.raw_type == POLL_END and not _polled_call(event, background, polls):
                        yield event  # a command of another file: settle_background_ends gives it the end
                        continue
                    call = _background_call(event, background, seen_calls)
                    if call is None:
                        if event.raw_type == BACKGROUND_HELD:
                            yield event  # for settle_background_ends, once every agent file is read
                        continue
                elif kind == "tool_call" and event.agent_ref is not None:
                    polls[call] = event.agent_ref  # a poll, and the task it reads (POLL_END)
                    if len(polls) > 4096:
                        polls.popitem(last=False)
                seen = seen_calls if kind == "tool_call" else seen_results if kind == "tool_result" else None
                if seen is not None:
                    if call in seen:
                        continue
                    seen.add(call)
                if by_call or event.raw_type == "task_started":  # _link_inline links nothing else
                    _link_inline(event, by_call)  # an event without a call id links nothing
            if event.spawn is not None and event.agent == MAIN_AGENT:
                last_spawn = event.call_id
                last_ref = None
                if event.spawn.prompt_key and last_spawn is not None:
                    spawn_keys.setdefault(event.spawn.prompt_key, []).append(last_spawn)
            if kind == "tool_result" and event.raw_type is None and call is not None \
                    and call not in seen_calls and len(early) < 256:
                early[call] = (index, event)  # its call is still to come (_EARLY_RESULTS)
                continue
            yield event
            if early and event.kind == "tool_call" and (held := early.pop(call, None)) is not None:
                yield held[1]
    for _index, event in early.values():
        yield event


_EARLY_RESULTS = 16
"""How many records a tool result waits for its call. With calls run in parallel, Claude Code
2.1.x can write a tool's result before the assistant record of the call it answers: one message's
``tool_use`` blocks go out as one record each, and a fast tool finishes before its own block's
record is written (pyrycode/pyrycode ``internal/agentrun/jsonl/testdata/clean.jsonl``, CLI
2.1.128: the result at line 11, ``parentUuid`` the call at line 12). Read in file order the
result answered no call and the call waited for a result forever: a command with no exit code
and no output. A result whose call has not been read is held until its call, or passed on as
before once this many records went by (a call in a file not given)."""


_RUNNING_AS = "#running:"
_POLLED_AS = "#running@"
"""A running poll's result id: ``<launch call>#running@<poll call>`` (see link_records)."""
_BACKGROUND_HEADS = ("Command running in background", "Command was manually backgrounded",
                     "Command did not complete within", "Monitor started (task ", "Command was moved to the background")
_BACKGROUND_ID = re.compile(r"^(?:Command (?:running in background|was manually backgrounded by user) with ID: "
                            r"|Command did not complete within [^\n]*? and was moved to the background \(ID: "
                            r"|Command was moved to the background \(ID: "
                            r"|Monitor started \(task "
                            r"|MCP tool \"[^\"\n]*\" is still running after \w+\. "
                            r"It was moved to the background as task )"
                            r"([\w-]+)")
"""How a command that keeps running is answered: the Bash result of one started with
``run_in_background`` (``Command running in background with ID: b27a792. Output is being written
to: …/tasks/b27a792.output. You will be notified when it completes.``; 2.0.x stopped after the
id), sent there with Ctrl-B (``Command was manually backgrounded by user with ID: …``) or by the
CLI when it outran its timeout (``Command did not complete within its 180s timeout and was moved
to the background (ID: bx1dek5dm). …``), and a ``Monitor`` watching one (``Monitor started (task
b1h0ax9vj, timeout 220000ms). You will be notified on each event.``). The wordings published
sessions show and transcript readers test against (e.g. one measured over 49,115 tool calls:
"Bash 1,017, Workflow 541, Agent 442, Monitor 36" such receipts). None of them is exit 0.

Newer CLIs (2.1.2xx) move a running command there when the person sends a message, so that it
reaches the model: ``Command was moved to the background (ID: …) so that a message that arrived
while it was running can reach you; it was not interrupted. …`` (``toolUseResult
.backgroundedToDeliverMessage``; the fourth receipt of the CLI's bundle as several independent
readers of it give the set, with tests). Each receipt's ``toolUseResult`` names the task,
``backgroundTaskId`` (with ``timedOutAfterMs`` or ``backgroundedByUser``): :func:`_tool_result`
takes a result that has one for a receipt whatever its words, and the output a command printed
before it was moved comes first in the text, where no head is looked for. Such a receipt, read
as the command's end, made a server launch that died later an exit 0."""


_MCP_BACKGROUNDED = 'MCP tool "'
"""The head of the receipt CLI 2.1.212+ gives an MCP call of the main conversation still running
after two minutes (CHANGELOG.md 2.1.212: "MCP tool calls running longer than 2 minutes now move
to the background automatically"): ``MCP tool "ssh/exec" is still running after 120s. It was
moved to the background as task ktc87fbll and keeps running; you'll receive a notification with
the result when it completes. …`` (the wording several tools built around the CLI quote from it
and test against). The call has not ended: a command it ran is running (was ended with no exit
code, the receipt its output), its end left to the task's notification as a background
shell's is."""


_STATUS_TOOLS = frozenset({"Bash", "PowerShell"})
"""Claude Code's shell tools, whose result is ``is_error`` when the command exited non-zero. Not
a background shell's poll (``BashOutput``, ``TaskOutput``: never ``is_error``, its status in its
text) nor an MCP server's SSH tool (the tool's failure, not the command's)."""


def recorded_statuses(events: Iterator[Event]) -> Iterator[Event]:
    """``events`` with a shell command's clean result given its exit status 0, for the readers of a
    Claude Code session kept in another file than its JSONL (the claude-prompts Markdown export,
    a printed Agent SDK log), which the analysis takes as a text log whose statuses went unrecorded.
    These files keep each result's ``is_error``, and Claude Code's Bash tool reports a non-zero exit
    as ``is_error`` with "Exit code N": a result without it is the 0 the session's own JSONL reads
    as (a ``grep Error server.log`` that printed "RuntimeError: CUDA out of memory" found it, and
    did not fail). Other tools' results (:data:`_STATUS_TOOLS`) and a background shell's "running"
    note keep theirs unknown."""
    shell_calls: set[str] = set()
    for event in events:
        if event.kind == "tool_call":
            if event.command is not None and event.call_id is not None and event.tool_name in _STATUS_TOOLS:
                shell_calls.add(event.call_id)
        elif event.kind == "tool_result" and event.exit_code is None and not event.is_error \
                and event.raw_type != "running" and event.call_id in shell_calls:
            event.exit_code = 0
        yield event


def _background_call(event: Event, background: OrderedDict[str, str], calls: set[str]) -> str | None:
    """The call id to report a background command's result under, ``None`` to drop it.

    The launch result says only that it runs: it comes under ``<call>#running:<task id>`` (no
    call of that id; :func:`_tool_result`), so the call waits for its end, which a
    ``<task-notification>`` gives (see :func:`_task_notification`); the task id leads back to
    the call. It travels in the id, not the text: worker processes drop a result's text."""
    call = event.call_id
    if event.raw_type == "running":
        owner, running, task = call.partition(_RUNNING_AS)
        if running:
            background[task] = owner
            if len(background) > 4096:
                background.popitem(last=False)
    elif event.raw_type == BACKGROUND_END:
        if call.startswith(TASK_CALL):
            owner = background.get(call[len(TASK_CALL):])
            if owner is not None:
                event.call_id = call = owner
        if call not in calls:
            # A call not read yet: a sub-agent's (its file is read after the trunk, where the CLI
            # writes the note once the sub-agent has ended), or one of a session this file
            # resumes. Ended here, it was a failed call of an agent that never made it: it is
            # held until every file of the session is read (settle_background_ends).
            event.kind, event.raw_type = "other", BACKGROUND_HELD
            return None
    return call


BACKGROUND_HELD = "background-end:held"
"""``raw_type`` (kind ``other``) of a background command's end whose call was not read yet when
its note was: :func:`link_records` passes it on for :func:`settle_background_ends`, and no
reader before that sees it as a result."""
HELD_NOTES = 1024
"""The most such ends held at once (the oldest go first): a session resumed many times may
name tasks of files not given, and those are never settled."""


def settle_background_ends(events: Iterator[Event], cursor: Cursor) -> Iterator[Event]:
    """One session's events (trunk, then its sub-agents), with each held background end given to
    the call it ends once every file is read: a sub-agent's background command whose note the
    CLI wrote into the trunk (its agent had ended first) ends as the note says, as that agent's.
    The launch result (``<call>#running:<task>``, raw_type ``running``, in the caller's file)
    says which agent made the call and, for notes that name only the task, which call it was.
    A call that has a result of its own by then (its agent's own note) keeps it."""
    held: OrderedDict[str, Event] = OrderedDict()  # call id, or TASK_CALL + task id -> the end
    launched: OrderedDict[str, tuple[str, str]] = OrderedDict()  # task id -> (call, agent)
    for event in events:
        raw = event.raw_type
        if raw is None:
            yield event
        elif raw == BACKGROUND_HELD:
            if event.call_id not in held:
                held[event.call_id] = event
                if len(held) > HELD_NOTES:
                    held.popitem(last=False)
        elif raw == POLL_END:
            polled = _polled_elsewhere(event, launched, cursor.seen_results)
            if polled is not None:
                yield polled
        else:
            if raw == "running" and event.call_id is not None:
                owner, running, task = event.call_id.partition(_RUNNING_AS)
                if running:
                    launched[task] = (owner, event.agent)
                    if len(launched) > 4096:
                        launched.popitem(last=False)
            yield event
    if not held:
        return
    agents = {call: agent for call, agent in launched.values()}
    ended = cursor.seen_results
    for key, note in held.items():
        if key.startswith(TASK_CALL):
            call, agent = launched.get(key[len(TASK_CALL):], (None, None))
        else:
            call, agent = key, agents.get(key)
        if call is None or agent is None or call in ended:
            continue
        ended.add(call)
        note.kind, note.raw_type, note.call_id, note.agent = "tool_result", BACKGROUND_END, call, agent
        yield note


def _polled_call(event: Event, background: OrderedDict[str, str], polls: OrderedDict[str, str]) -> bool:
    """Reports a poll's end result (:data:`POLL_END`) under the command the poll read, when its
    launch was read in this file: the result carries its exit code (and the errors its output
    shows) to it, and the poll is a read that got its answer. A later poll of the same end is
    then a result of that command again, which the reader drops (read once, counted once).
    ``False`` when the launch is not in this file (the poll's ``raw_type`` and task stay for
    :func:`settle_background_ends`)."""
    task = event.agent_ref or polls.get(event.call_id)
    owner = background.get(task) if task is not None else None
    if owner is None and task is not None:
        event.agent_ref = task
        return False
    event.raw_type = event.agent_ref = None
    if owner is not None:
        event.call_id = owner
    return True


def _polled_elsewhere(event: Event, launched: OrderedDict[str, tuple[str, str]], ended: set[str]) -> Event | None:
    """A poll's end result whose launch another file holds (the trunk's server, polled by a
    sub-agent read after it): the end of that command, as its agent's (raw_type
    :data:`BACKGROUND_END`, as a note's), where the launch was read before it; else the poll's
    own result. ``None`` for an end already read."""
    task = event.agent_ref
    call, agent = launched.get(task, (None, None)) if task is not None else (None, None)
    event.raw_type = event.agent_ref = None
    if call is not None:
        event.call_id, event.agent, event.raw_type = call, agent, BACKGROUND_END
    if event.call_id in ended:
        return None
    ended.add(event.call_id)
    return event


def _link_inline(event: Event, by_call: dict[str, str]) -> None:
    """stream-json: a ``task_started`` names the agent a call starts; the call's result then
    reports on that inline agent, whatever id its text names (see :data:`PARENT_CALL`)."""
    if event.raw_type == "task_started" and event.call_id and event.agent_ref:
        by_call.setdefault(event.call_id, event.agent_ref)
    elif event.kind == "tool_result" and event.call_id in by_call:
        event.agent_ref = by_call[event.call_id]


def _event_maker(session: str, seq: int, agent: str, ts: str | None, file: str, lineno: int) -> Callable[..., Event]:
    """``event(kind, role, block=0, **fields)``: an event of this line, its other fields by keyword (the
    rarer line and block types; see :func:`_message_events`)."""

    def event(kind, role, block=0, **kw) -> Event:
        return Event(session=session, seq=seq, agent=agent, role=role, kind=kind,
                     block=block, timestamp=ts, file=file, line=lineno, **kw)

    return event


def _message_events(obj: dict, kind_of_line: str, session: str, seq: int, agent: str, ts: str | None, file: str,
                    lineno: int, stats: ReadStats) -> list[Event]:
    """The events of a ``user`` or ``assistant`` line, one per content block.

    The blocks every line has (text, thinking, tool calls and results) build their events
    positionally, in Event's field order: a call with keywords cost twice as much, and
    this runs once per block of a file that may hold millions. For the same reason the keyword
    builder (:func:`_event_maker`) is made only for a block that uses it: made for every line,
    it cost ~0.2 us a line, a fifth of what a thinking block's event costs now."""
    message = obj.get("message")
    if not isinstance(message, dict):
        stats.unknown_types += 1
        return [_event_maker(session, seq, agent, ts, file, lineno)("other", kind_of_line,
                                                               raw_type=f"{kind_of_line}:no-message")]
    role = message.get("role")
    if not isinstance(role, str):
        role = kind_of_line
    content = message.get("content")
    if isinstance(content, str):
        if role == "user" and content[:64].lstrip().startswith(_WRAPPED_OPEN):
            content = _after_reminders(content)
        kind = "summary" if obj.get("isCompactSummary") else _text_kind(role, obj, content)
        if kind == "system" and role == "user" and _RUNNING in content:
            typed = _typed_slash_command(obj, content)
            if typed is not None:
                kind, content = "prompt", typed
        if kind == "system" and content.startswith("<bash-"):
            bash = _bash_mode(content, session, seq, agent, ts, file, lineno)
            if bash is not None:
                return [bash]
        ev = Event(session, seq, agent, role, kind, 0, None, None, None, None, content, False, None, ts, file,
                   lineno)
        if kind == "system" and role == "assistant":
            ev.raw_type = _api_error_type(obj, agent)
        if kind == "system" and "<task-notification>" in content[:300]:
            return [ev, *_task_notification(ev)]
        return [ev]
    if not isinstance(content, list):
        stats.unknown_types += 1
        return [_event_maker(session, seq, agent, ts, file, lineno)("other", role,
                                                               raw_type=f"{kind_of_line}:no-content")]
    out = []
    for i, block in enumerate(content):
        if block.__class__ is not dict:  # (every block a CLI writes is one: checked first)
            if isinstance(block, str):
                out.append(Event(session, seq, agent, role, _text_kind(role, obj, block), i, None, None, None, None,
                                 block, False, None, ts, file, lineno))
                continue
            if not isinstance(block, dict):
                continue
        btype = block.get("type")
        if btype == "text":
            text = block.get("text", "")
            if text.__class__ is not str:
                text = str(text)
            if role == "user" and text[:64].lstrip().startswith(_WRAPPED_OPEN):
                text = _after_reminders(text)
            if obj.get("isCompactSummary"):
                kind = "summary"
            elif role != "user":  # _text_kind's assistant branch, without its call
                kind = "system" if obj.get("isApiErrorMessage") is True else "text"
            else:
                kind = _text_kind(role, obj, text)
            if kind == "system" and role == "user" and _RUNNING in text:
                typed = _typed_slash_command(obj, text)
                if typed is not None:
                    kind, text = "prompt", typed
            ev = Event(session, seq, agent, role, kind, i, None, None, None, None, text, False, None, ts,
                       file, lineno)
            if kind == "system" and role == "assistant":
                ev.raw_type = _api_error_type(obj, agent)
            out.append(ev)
            if kind == "system" and "<task-notification>" in text[:300]:
                out.extend(_task_notification(ev))
        elif btype == "thinking":
            text = block.get("thinking", "")
            out.append(Event(session, seq, agent, role, "thinking", i, None, None, None, None,
                             text if text.__class__ is str else str(text), False, None, ts, file, lineno))
        elif btype == "tool_use":
            ev = _tool_use(block, session, seq, agent, i, ts, file, lineno)
            if ev.spawn is not None:
                # The session the line was written in (claude_session: a resumed or branched
                # session's copied spawn): /branch names it in forkedFrom, a resume kept it
                origin = obj.get("forkedFrom")
                sid = origin.get("sessionId") if type(origin) is dict else None
                sid = sid if type(sid) is str else obj.get("sessionId")
                ev.spawn.session_id = sid if type(sid) is str else ""
            out.append(ev)
        elif btype == "tool_result":
            out.append(_tool_result(obj, block, session, seq, agent, i, ts, file, lineno))
        elif btype == "image":
            if role == "user" and _first_of_images_alone(content, i):
                # A prompt of pasted images alone: said as the CLI's input shows them, [Image #1]
                # (common.attachments_shown); it was no prompt at all
                out.append(Event(session, seq, agent, role, _text_kind(role, obj), i, None, None, None, None,
                                 attachments_shown(content, numbered=True), False, None, ts, file, lineno))
        elif btype == "mcp_tool_use":
            out.append(_tool_use(mcp_connector.as_tool_use(block), session, seq, agent, i, ts, file, lineno))
        elif btype == "mcp_tool_result":
            # {tool_use_id, is_error, content} as a tool_result's; nothing of the line's
            # own (its toolUseResult, agentId) is about this block
            out.append(_tool_result({}, block, session, seq, agent, i, ts, file, lineno))
        else:
            out.append(_other_block(block, btype, role, i, _event_maker(session, seq, agent, ts, file, lineno), stats))
    return out


def _other_block(block: dict, btype: object, role: str, i: int, event: Callable[..., Event], stats: ReadStats) -> Event:
    """The event of a content block that is none of the CLI's own types: a server tool's call or
    result (:mod:`formats.server_tools`), else kept as ``other`` under its type."""
    if btype == "server_tool_use":
        return server_tools.call(block, event("tool_call", "assistant", i))
    if isinstance(btype, str) and btype in server_tools.RESULT_BLOCKS:
        return server_tools.result(block, event("tool_result", "tool", i))
    if not isinstance(btype, str) or btype not in _API_BLOCKS:
        stats.unknown_types += 1
    return event("other", role, i, raw_type=str(btype))


def _events(obj: dict, cursor: Cursor, agent: str, seq: int, lineno: int, stats: ReadStats) -> list[Event]:
    kind_of_line = obj.get("type")
    ts = obj.get("timestamp")
    if not isinstance(ts, str):
        ts = None
    if kind_of_line == "assistant" or kind_of_line == "user":
        events = _message_events(obj, kind_of_line, cursor.session, seq, agent, ts, cursor.file, lineno, stats)
        if cursor.hook_blocked:  # a PreToolUse hook blocked a call (rare): its result says so
            claude_hook_blocks.mark_blocked(events, cursor)
        denial = obj.get("toolDenialKind")
        if denial is not None and denial.__class__ is str:  # the CLI refused a call (rare)
            claude_hook_blocks.mark_denied(events, denial)
        cwd = obj.get("cwd")  # the working folder of the session as the line was written
        if cwd.__class__ is str and cwd:
            for ev in events:
                if ev.command is not None and ev.host is None:  # not an MCP ssh tool's {host, command}
                    ev.cwd = cwd
        return events
    event = _event_maker(cursor.session, seq, agent, ts, cursor.file, lineno)
    if kind_of_line == "summary":
        return [event("summary", "system", text=str(obj.get("summary", "")))]
    if kind_of_line == "system":
        subtype = obj.get("subtype")
        text = obj.get("content") if isinstance(obj.get("content"), str) else ""
        if subtype == "compact_boundary":
            meta = obj.get("compactMetadata") or {}
            pre = meta.get("preTokens") if isinstance(meta, dict) else None
            return [event("compaction", "system", text=text or f"context compacted (preTokens={pre})",
                          raw_type=subtype)]
        if subtype == "task_started" and isinstance(obj.get("tool_use_id"), str) and isinstance(obj.get("task_id"), str):
            return [event("system", "system", text=str(obj.get("description") or ""), raw_type=subtype,
                          call_id=obj["tool_use_id"], agent_ref=obj["task_id"])]
        if subtype == "api_error" and not text:
            text = _retry_note(obj)
        elif subtype == "api_retry" and not text:
            text = _stream_retry_note(obj)
        elif subtype == "hook_response" and not text:
            text = _hook_response_note(obj)
        if subtype == "task_notification":
            summary = obj.get("summary")
            return _stream_task_notification(obj, event("system", "system", raw_type=subtype,
                                                        text=summary if isinstance(summary, str) else ""))
        ev = event("system", "system", text=text, raw_type=subtype if isinstance(subtype, str) else None)
        if subtype == "init":
            cwd = obj.get("cwd")  # the run's working folder (follow_folder); a relative one says nothing
            if cwd.__class__ is str and cwd.startswith(("/", "~")):
                ev.cwd = cwd
        return [ev]
    if kind_of_line == "result" and isinstance(obj.get("subtype"), str):
        # stream-json's last line: how the run ended and its final answer
        result = obj.get("result") if isinstance(obj.get("result"), str) else ""
        subtype = obj["subtype"]
        if obj.get("is_error") is True or subtype.startswith("error"):
            # The run died: an error_* subtype (max turns, an exception during execution, the
            # budget), or a failed API call, which comes as "success" with is_error and the
            # message in `result` (ccwire src/protocol/result.rs; claude-code-agent ResultMessage).
            errors = obj.get("errors")
            said = result
            if not said and isinstance(errors, list) and errors:
                said = "; ".join(str(e) for e in errors[:3])
            return [event("system", "system", text=said or subtype.replace("_", " "), raw_type=RESULT_ERROR)]
        return [event("system", "system", text=result, raw_type=f"result:{subtype}")]
    if isinstance(kind_of_line, str) and kind_of_line in cursor_stream.LINE_TYPES:
        return cursor_stream.events(obj, event)  # Cursor CLI's stream-json, Claude Code's lines but these
    if kind_of_line == "attachment":
        noted = _queued_command(obj, event) or _hook_note(obj, event) or _turn_limit(obj, event)
        if noted is not None:
            if noted.__class__ is Event and noted.raw_type == "attachment:hook_blocking_error":
                claude_hook_blocks.note_block(obj["attachment"], cursor)
            return noted if isinstance(noted, list) else [noted]
    if kind_of_line == "rate_limit_event" and (said := _rate_limit(obj.get("rate_limit_info"))):
        return [event("system", "system", text=said, raw_type=kind_of_line)]
    if isinstance(kind_of_line, str) and kind_of_line in TITLE_LINES:  # a list or object "type" is no title line
        title = obj.get(TITLE_LINES[kind_of_line])
        if isinstance(title, str) and title.strip():
            return [event("system", "system", text=title.strip(), raw_type=kind_of_line)]
    if not isinstance(kind_of_line, str) or kind_of_line not in _KNOWN_PASSTHROUGH:
        stats.unknown_types += 1
    ev = event("other", "system", raw_type=str(kind_of_line))
    if kind_of_line == "queue-operation":
        # A <task-notification> is often written only here, as the queue's copy ({"type":
        # "queue-operation", "operation": "enqueue" | "remove", "content": "<task-notification>…"}),
        # never as a user line or attachment: of the three places a transcript reader found them,
        # this held the most (2,626 enqueues against 1,303 user lines and 898 attachments). A
        # copy of one read elsewhere too ends nothing twice (the call ids, link_records).
        content = obj.get("content")
        if isinstance(content, str) and "<task-notification>" in content[:300]:
            ev.text = content
            return [ev, *_task_notification(ev)]
    return [ev]


def _rate_limit(info: object) -> str:
    """What stream-json's ``{"type": "rate_limit_event", "rate_limit_info": {"status": "allowed" |
    "allowed_warning" | "rejected", "rateLimitType": "five_hour", "utilization", "resetsAt"}}`` says
    when it is news: the run is near its plan's limit, or was stopped by it (the CLI prints one after
    the first answer of each process logged in with a subscription; a capture of CLI 2.1.220 hitting
    its session limit in a tenant's parser test, and several independent stream-json readers, parse
    it so). ``""`` for ``allowed``. Each one was an unknown line type."""
    if not isinstance(info, dict) or not isinstance(info.get("status"), str) or info["status"] == "allowed":
        return ""
    said = f"rate limit {info['status'].replace('_', ' ')}"
    details = [info["rateLimitType"]] if isinstance(info.get("rateLimitType"), str) else []
    used = info.get("utilization")
    if type(used) in (int, float) and 0 <= used <= 100:
        # a fraction (0.91, as the unified-*-utilization header), or already a percentage (87.5):
        # readers of these events have seen both; 87.5 was said '8750% used'
        details.append(f"{used if used > 1 else used * 100:.0f}% used")
    resets = stamp(info.get("resetsAt"))
    if resets:
        details.append(f"resets {resets}")
    return f"{said} ({', '.join(details)})" if details else said


def _retry_note(obj: dict) -> str:
    """What a request the CLI is retrying failed with: ``{"type": "system", "subtype": "api_error",
    "error": {"status": 529, "error": {"type": "error", "error": {"type": "overloaded_error",
    "message": "Overloaded"}}} | {"status", "message"} | {"cause": {"code": "FailedToOpenSocket"}},
    "retryAttempt": 1, "maxRetries": 10, "retryInMs": 558.9}`` (the shapes several independent
    transcript readers test against); 2.1.2xx names a dropped connection's code beside the
    message, ``{"message": "Connection error.", "connection": {"code": "ECONNRESET", …}}``. A retry,
    not a failure of the turn (that is the ``isApiErrorMessage`` line after the last one); written
    with no content, its status and cause were lost."""
    error = obj.get("error") if isinstance(obj.get("error"), dict) else {}
    said, inner = None, error
    for _ in range(3):  # the API's body nests {"error": {"type", "message"}} under the client's error
        if isinstance(inner.get("message"), str) and inner["message"]:
            said = f"{inner['type']}: {inner['message']}" if isinstance(inner.get("type"), str) \
                and inner["type"] not in ("error", "new_api_error") else inner["message"]
            break
        inner = inner.get("error") if isinstance(inner.get("error"), dict) else {}
    cause = error.get("cause") if isinstance(error.get("cause"), dict) else \
        error.get("connection") if isinstance(error.get("connection"), dict) else {}
    code = cause.get("code") if isinstance(cause.get("code"), str) and cause["code"] else None
    if said is None:
        said = code
    elif code is not None and code not in said:
        said = f"{said} ({code})"
    status = error.get("status")
    head = "API error" + (f" {status}" if type(status) is int else "") + (f": {said}" if said else "")
    attempt, most = obj.get("retryAttempt"), obj.get("maxRetries")
    if type(attempt) is int:
        head += f" (retry {attempt}/{most})" if type(most) is int else f" (retry {attempt})"
    return head


def _stream_retry_note(obj: dict) -> str:
    """:func:`_retry_note` of stream-json's copy: ``{"type": "system", "subtype": "api_retry",
    "attempt", "max_retries", "retry_delay_ms", "error_status": 529 | null, "error":
    "rate_limit" | "server_error" | ...}`` (the Agent SDK's SDKAPIRetryMessage, whose ``error`` is
    an SDKAssistantMessageError and ``error_status`` null for a connection error with no HTTP
    response: @anthropic-ai/claude-agent-sdk ``sdk.d.ts``). It was a system note of no text."""
    status, error = obj.get("error_status"), obj.get("error")
    head = "API error" + (f" {status}" if type(status) is int else "") + (f": {error}" if isinstance(error, str) and error else "")
    attempt, most = obj.get("attempt"), obj.get("max_retries")
    if type(attempt) is int:
        head += f" (retry {attempt}/{most})" if type(most) is int else f" (retry {attempt})"
    return head


def _queued_command(obj: dict, event) -> Event | list[Event] | None:
    """What the person typed while the agent worked: ``{"type": "attachment", "attachment":
    {"type": "queued_command", "prompt": ..., "commandMode": "prompt", "origin": {"kind":
    "human"}}}``, written instead of a user line; a background task that ended meanwhile comes
    the same way with ``commandMode: "task-notification"`` (the shapes several independent
    transcript readers parse). A prompt unless its mode or its text says the CLI wrote it."""
    attachment = obj.get("attachment")
    if not isinstance(attachment, dict) or attachment.get("type") != "queued_command":
        return None
    text = block_text(attachment.get("prompt"))
    if not text.strip():
        return None
    if text[:64].lstrip().startswith(_REMINDER_OPEN):
        text = _after_reminders(text)
    mode = attachment.get("commandMode")
    kind = _text_kind("user", obj, text) if mode in (None, "prompt") else "system"
    if kind == "prompt" and delivered_for_the_person(attachment.get("origin")):
        kind = "system"  # another session's message queued mid-turn ({"kind": "peer"}), not typed
    ev = event(kind, "user", text=text, raw_type="attachment:queued_command")
    if kind == "system" and "<task-notification>" in text[:300]:
        ended = _task_notification(ev)
        if ended:
            return [ev, *ended]
    return ev


def _hook_note(obj: dict, event) -> Event | None:
    """What a hook said when it blocked or failed, as a ``system`` event: ``{"type": "attachment",
    "attachment": {"type": "hook_blocking_error", "hookName": "PreToolUse:Bash", "hookEvent":
    "PreToolUse", "toolUseID": "toolu_…", "blockingError": {"blockingError": "[cmd]: stderr",
    "command": "cmd"}}}``, and ``hook_non_blocking_error{stderr, stdout, exitCode}``,
    ``hook_error_during_execution{content}``, ``hook_cancelled``, ``hook_stopped_continuation
    {message}`` (Claude Code 2.1's ``HookAttachment`` type, as reconstructions of the CLI and
    several independent transcript readers give it).

    Not a second error of the call it blocked: a PreToolUse block also answers the call with
    its own ``tool_result`` ``{"is_error": true, "content": "PreToolUse:Bash hook error: [cmd]:
    reason"}`` (transcript readers test against that text, checked with CLI 2.1.x), which
    already makes the call a failed one; a Stop hook's block names no call at all."""
    attachment = obj.get("attachment")
    kind = attachment.get("type") if isinstance(attachment, dict) else None
    if not isinstance(kind, str) or kind not in _HOOK_NOTES:  # a list or object "type" is no hook's (was a TypeError)
        return None
    name = next((attachment[k] for k in ("hookName", "hookEvent") if isinstance(attachment.get(k), str)), "hook")
    if kind == "hook_blocking_error":
        blocking = attachment.get("blockingError")
        reason = blocking.get("blockingError") if isinstance(blocking, dict) else blocking
        text = f"{name} hook blocked: {reason if isinstance(reason, str) else ''}"
    elif kind == "hook_non_blocking_error":
        output = next((attachment[k] for k in ("stderr", "stdout") if isinstance(attachment.get(k), str)
                       and attachment[k].strip()), "")
        code = attachment.get("exitCode")
        text = f"{name} hook failed" + (f" (exit {code})" if isinstance(code, int) else "") + f": {output}"
    elif kind == "hook_error_during_execution":
        text = f"{name} hook could not run: {block_text(attachment.get('content'))}"
    elif kind == "hook_cancelled":
        text = f"{name} hook cancelled"
    else:
        text = f"{name} hook stopped the session: {block_text(attachment.get('message'))}"
    return event("system", "system", text=text.rstrip(": "), raw_type=f"attachment:{kind}")


def _turn_limit(obj: dict, event) -> Event | None:
    """The run stopped at its turn limit (``claude -p --max-turns N``, a sub-agent whose definition
    sets ``maxTurns``): ``{"type": "attachment", "attachment": {"type": "max_turns_reached",
    "maxTurns": 8, "turnCount": 9}}``, the attachment the Agent SDK's result repeats in its
    ``errors`` (an SDK wrapper's tests quote it so; a transcript pruner's fixtures keep the line).
    Read as the failure stream-json's ``error_max_turns`` result is (:data:`RESULT_ERROR`): the
    agent did not finish what it was asked. Kept as ``other`` before, the run read as done."""
    attachment = obj.get("attachment")
    if type(attachment) is not dict or attachment.get("type") != "max_turns_reached":
        return None
    limit = attachment.get("maxTurns")
    said = f"max turns reached (limit {limit})" if type(limit) is int else "max turns reached"
    return event("system", "system", text=said, raw_type=RESULT_ERROR)


def _hook_response_note(obj: dict) -> str:
    """What a hook that failed said, from stream-json's ``{"type": "system", "subtype":
    "hook_response", "hook_name": "SessionStart:startup", "hook_event", "stdout", "stderr",
    "exit_code": 2, "outcome": "error"}`` (``claude -p --verbose --output-format stream-json``,
    after its ``hook_started``; the records SDK readers take a failed hook from), as
    :func:`_hook_note` says a transcript's ``hook_non_blocking_error``; ``""`` for one that
    succeeded. Its output was left out: a failed SessionStart hook left an empty note."""
    code = obj.get("exit_code")
    if obj.get("outcome") in (None, "success") and not (type(code) is int and code):
        return ""
    name = next((obj[k] for k in ("hook_name", "hook_event") if isinstance(obj.get(k), str)), "hook")
    if obj.get("outcome") == "cancelled":  # aborted from outside (outcome 'success' | 'error' | 'cancelled')
        return f"{name} hook cancelled"
    output = next((obj[k] for k in ("stderr", "stdout", "output") if isinstance(obj.get(k), str)
                   and obj[k].strip()), "")
    text = f"{name} hook failed" + (f" (exit {code})" if type(code) is int else "") + f": {output.strip()}"
    return text.rstrip(": ")


_HOOK_NOTES = frozenset({"hook_blocking_error", "hook_non_blocking_error", "hook_error_during_execution",
                         "hook_cancelled", "hook_stopped_continuation"})


INTERRUPTED = "[Request interrupted by user"
"""How the CLI marks a stop by hand (Esc): the result of the call that was running, and a user
text line of its own; ``[Request interrupted by user]`` when the model was answering."""
_NOT_TYPED_BY_A_PERSON = (
    "<command-name>", "<command-message>", "<local-command-", "<system-reminder>", "[Request interrupted",
    "Caveat: The messages below were generated by the user while running local commands",
    "<bash-", "<task-notification>", "<user-memory-input>", "[SYSTEM NOTIFICATION",
    # The VS Code and JetBrains extensions put the file on screen and the selected lines in a
    # text block of their own before the one the person typed ("<ide_opened_file>The user
    # opened the file … in the IDE. This may or may not be related to the current task."), so
    # the first prompt read as the editor's note.
    "<ide_opened_file>", "<ide_selection>",
    # Agent teams: what the lead or a teammate sent, as a user line of the receiver's session
    # (`<teammate-message teammate_id="team-lead" color="blue" summary="…">…</teammate-message>`,
    # idle notifications as JSON inside it; newer CLIs put "Another Claude session sent a
    # message:" before it). Another agent's words: read as prompts, each idle notification began
    # a phase of the postmortem (the shapes transcript readers and re-implementations of the
    # CLI's UserTeammateMessage parse; one found the briefs "as typed prompts" in its corpus).
    "<teammate-message", "Another Claude session sent a message:",
    # What a Stop or SubagentStop hook that blocked the stop told the model, as a user line
    # ("Stop hook feedback:\n[cmd]: reason"): isMeta in the CLI's own transcript, without it in
    # stream-json (`claude -p --output-format stream-json`, the `{"type": "user", "message":
    # {"content": "Stop hook feedback: …"}, "parent_tool_use_id": null}` SDK readers parse; newer
    # CLIs add "isSynthetic": true, older ones nothing). Read
    # as the person's prompt, a hook's nudge began a phase of the postmortem (simonw/claude-code-
    # transcripts src/claude_code_transcripts/__init__.py leaves these lines out of the prompts).
    # The CLI breaks the line after the colon (getStopHookMessage: `Stop hook feedback:\n${…}`):
    # a person's one-line "Stop hook feedback: why does it block?" stays their prompt.
    "Stop hook feedback:\n", "SubagentStop hook feedback:\n",
    # What the CLI and the desktop app that drives it write as the person's message, most with
    # origin {"kind": "human"} all the same: a /loop wake-up (ScheduleWakeup's sentinel prompt
    # "<<autonomous-loop-dynamic>>", or "<<autonomous-loop>>"), the app's resume pings after it
    # was quit or a usage limit reset, a CI monitor's event, a background agent's hand-back and
    # another session's message without its preface (the not-typed prefixes a transcript reader
    # measured on real sessions lists, "38 scheduled tasks and 4 resume pings carry human";
    # several independent readers filter the same envelopes). Each was a prompt, and a phase.
    "<<autonomous-loop", "The app was quit while you were working",
    "I hit my usage limit while you were working, but it has reset now", "<ci-monitor-event>",
    "<agent-message", "<cross-session-message",
)
_CLI_TURN_ORIGINS = frozenset({"task_notification", "peer", "scheduled"})
"""``turnOrigin`` values of a user line the person did not type (a notification's turn, another
session's, a scheduled prompt's; the values that transcript reader found to rule a line out).
``human`` proves nothing (the CLI writes it on scheduled prompts too) and ``sdk`` is a ``claude
-p`` run's own prompt: both leave the reading to the rest."""
_REMINDER_OPEN, _REMINDER_CLOSE = "<system-reminder>", "</system-reminder>"
_FORK_OPEN, _FORK_CLOSE, _FORK_DIRECTIVE = "<fork-boilerplate>", "</fork-boilerplate>", "Your directive: "
"""How a forked sub-agent's brief opens (``Agent`` ``subagent_type: "fork"``, CLI 2.1.232+): the
CLI's rules for every fork in the tag, then ``Your directive: `` and what the parent asked of this
one; the CLI's transcript view shows the directive alone (buildChildMessage and
UserForkBoilerplateMessage, FORK_BOILERPLATE_TAG / FORK_DIRECTIVE_PREFIX in its constants/xml, as
ports of the CLI give them). Read whole, the fork's prompt was the rules ("STOP. READ THIS FIRST.
You are a forked worker process ..."), cut before the directive."""
_WRAPPED_OPEN = (_REMINDER_OPEN, _FORK_OPEN)
_CONTINUED = "This session is being continued from a previous conversation"
"""How Claude Code's compaction summary begins ("... that ran out of context. The conversation
is summarized below:"; the text transcript readers match to tell it from a typed prompt)."""


def _after_reminders(text: str) -> str:
    """What the person typed after the ``<system-reminder>...</system-reminder>`` blocks the CLI
    put before it in the same string (context it reminds the model of; the tag as
    Piebald-AI/claude-code-system-prompts issue #9 shows it injected into message content): the
    prompt, which its first tag made read as the CLI's own words.
    ``text`` itself when nothing follows the blocks (a reminder alone is the CLI's)."""
    rest = text.lstrip()
    while rest.startswith(_WRAPPED_OPEN):
        close = _REMINDER_CLOSE if rest.startswith(_REMINDER_OPEN) else _FORK_CLOSE
        end = rest.find(close)
        if end < 0:
            return text
        rest = rest[end + len(close):].lstrip()
        if close is _FORK_CLOSE and rest.startswith(_FORK_DIRECTIVE):
            rest = rest[len(_FORK_DIRECTIVE):]  # a fork's brief: its directive (_FORK_OPEN)
    return rest or text


_NOTIFICATION = re.compile(r"<task-notification>(.*?)(?:</task-notification>|\Z)", re.DOTALL)
_NOTIFIED_TASK = re.compile(r"<task-id>([\w-]+)</task-id>")
_NOTIFIED_CALL = re.compile(r"<tool-use-id>([\w-]+)</tool-use-id>")
_NOTIFIED_STATUS = re.compile(r"<status>(\w+)</status>")
_NOTIFIED_SUMMARY = re.compile(r"<summary>(.*?)</summary>", re.DOTALL)
_NOTIFIED_EXIT = re.compile(r"exit code (-?\d+)\)?\s*$")
_FINAL_STATUS = {"completed": "completed", "failed": "failed", "killed": "interrupted", "stopped": "interrupted"}
"""How a background task ended, as its notification or a poll says. "killed" (stream-json's
"stopped") is a stop: ``<status>killed</status><summary>Agent "…" was stopped by user</summary>``,
``Background command "…" was stopped`` (CLI 2.1.x, as published session exports quote it); an
agent so stopped was stopped as one the person interrupted in the foreground is, not failed."""
_NOTES_READ = 1 << 20
"""How much of a ``<task-notification>`` line is read for its notes: all of a line of several, the
first of which may end in an agent's long ``<result>`` (a rare line; was its first 8,000 characters)."""
BACKGROUND_END = "background-end"
"""``raw_type`` of the result a ``<task-notification>`` gives the background command it ends."""
TASK_CALL = "\x00task:"
"""Marks the call id of such a result when the notification names only the task (CLIs before
``<tool-use-id>``); :func:`link_records` finds the call by the id its launch result gave."""


def _task_notification(ev: Event) -> list[Event]:
    """A background task (an agent started with ``run_in_background``, or a shell) ended: the
    CLI writes a user line ``<task-notification><task-id>ID</task-id><status>completed|failed|
    killed</status>...`` (the shape several independent transcript readers parse). The id is
    the agent's ``agentId``; its launch result only said ``async_launched``.

    For a shell, CLI 2.1.x says how it ended and, newer ones, which call started it:
    ``<task-id>b27a792</task-id><tool-use-id>toolu_…</tool-use-id><output-file>…</output-file>
    <status>failed</status><summary>Background command "Launch server" failed with exit code 1
    </summary>`` (``completed (exit code 0)`` when it succeeded), several in one line when
    several ended (as published session exports quote them verbatim, found with code search;
    the CLI itself is closed source). That is the
    only word on the command's exit status: returned as its result (raw_type
    :data:`BACKGROUND_END`), else a server launch that died read as a command still running.

    Agents that ended together come the same way, a notification each in one line (the CLI
    flushes its queue of pending notifications into one message; readers of its transcripts parse
    "every notification in a message"): each note's task is paired with its own status, the first
    on ``agent_ref``/``agent_status``, all of them on ``agent_states`` when there are several
    (was the first alone: a second agent that ended with it stayed "running", and a first note
    with no status, a monitor's event, gave its task the next note's status)."""
    ended, states = [], []
    for k, note in enumerate(_NOTIFICATION.findall(ev.text[:_NOTES_READ])):
        task = _NOTIFIED_TASK.search(note)
        if task is None:
            continue
        noted, summary = _NOTIFIED_STATUS.search(note), _NOTIFIED_SUMMARY.search(note)
        if noted is not None and noted.group(1) in _FINAL_STATUS:
            # (agent, status, what it said, the CLI's word), as Event.agent_states holds them
            states.append((task.group(1), _FINAL_STATUS[noted.group(1)],
                           summary.group(1).strip() if summary is not None else "", noted.group(1)))
        if summary is None:
            continue
        said = summary.group(1)
        if said.startswith("MCP task ") and _NOTIFIED_EXIT.search(said) is None:
            mcp = _mcp_task_end(ev, ev.block + 1 + k, task.group(1), said, note)
            if mcp is not None:
                ended.append(mcp)
            continue
        shell = _shell_end(said, noted.group(1) if noted is not None else None)
        if shell is None:
            continue  # an agent's end, or a shell stopped by hand: no exit status to give
        call = _NOTIFIED_CALL.search(note)
        ended.append(_background_end(ev, ev.block + 1 + k, call.group(1) if call else None, task.group(1),
                                     said.strip(), *shell))
    if states:
        ev.agent_ref, ev.agent_status = states[0][:2]
        if len(states) > 1:
            ev.agent_states = tuple(states)
    return ended


_SHELL_SAID = 'Background command "'


def _shell_end(summary: str, status: str | None) -> tuple[int | None, bool] | None:
    """``(exit code, failed)`` of a background command as its notification's summary and status
    say, None for another task's. The summary gives the code when the CLI had one: ``…" failed
    with exit code 1``, ``…" completed (exit code 0)``; without one it says ``…" completed`` or
    ``…" failed`` alone (the CLI adds `` (exit code N)`` only where the code is known, as ports of
    its shell task's summary give it, and as session readers quote "Background command \"npm
    test\" completed"): the command ended so all the same, its code unknown (was: no end at all,
    a command still running). ``was stopped`` (status killed) gives no end, as before."""
    code = _NOTIFIED_EXIT.search(summary)
    if code is not None:
        exit_code = int(code.group(1))
        return exit_code, exit_code != 0
    if status in _SHELL_ENDS and summary.startswith(_SHELL_SAID):
        return None, status == "failed"
    return None


def _background_end(ev: Event, block: int, call: str | None, task: str, summary: str, exit_code: int | None,
                    failed: bool) -> Event:
    """The result a background command's end gives its call (raw_type :data:`BACKGROUND_END`)."""
    return Event(ev.session, ev.seq, ev.agent, "tool", "tool_result", block, None, call or TASK_CALL + task, None,
                 None, summary, failed, exit_code, ev.timestamp, ev.file, ev.line, BACKGROUND_END)


_MCP_TASK_END = re.compile(r"MCP task \S+ \([^)\n]*\) (completed|failed|cancelled)\.\s*$")
_NOTIFIED_RESULT = re.compile(r"<result>\n?(.*?)(?:\n?</result>|\Z)", re.DOTALL)


def _mcp_task_end(ev: Event, block: int, task: str, summary: str, note: str) -> Event | None:
    """The result the notification of an MCP call moved to the background (:data:`_MCP_BACKGROUNDED`)
    gives that call: ``<task-id>k1234567z</task-id><status>completed</status><summary>MCP task
    k1234567 (github/create_issue) completed.</summary><result>…</result>``, ``failed`` (``Task
    failed: …``) or ``cancelled`` by the server, no ``<tool-use-id>`` (the CLI's MCP-task arm, as a
    port of its bundle renders and tests it). Its ``<result>`` is what the call answered; no exit
    code (an MCP call has none). None for another summary."""
    end = _MCP_TASK_END.match(summary.strip())
    if end is None:
        return None
    said = _NOTIFIED_RESULT.search(note)
    output = said.group(1) if said is not None else summary.strip()
    return Event(ev.session, ev.seq, ev.agent, "tool", "tool_result", block, None, TASK_CALL + task, None, None,
                 output, end.group(1) != "completed", None, ev.timestamp, ev.file, ev.line, BACKGROUND_END)


def _stream_task_notification(obj: dict, ev: Event) -> list[Event]:
    """stream-json's copy of a ``<task-notification>`` (``claude -p --output-format stream-json``,
    the Agent SDK): ``{"type": "system", "subtype": "task_notification", "task_id", "tool_use_id",
    "status": "completed" | "failed" | "stopped", "output_file", "summary"}`` (the SDK's
    ``SDKTaskNotificationMessage``, as SDK wrappers and their tests give it). The same word on how
    a background agent or command ended."""
    task, status, summary = obj.get("task_id"), obj.get("status"), obj.get("summary")
    if not isinstance(task, str) or not task:
        return [ev]
    if status in _FINAL_STATUS:
        ev.agent_ref, ev.agent_status = task, _FINAL_STATUS[status]
    shell = _shell_end(summary, status if isinstance(status, str) else None) if isinstance(summary, str) else None
    if shell is None:
        return [ev]
    call = obj.get("tool_use_id") if isinstance(obj.get("tool_use_id"), str) and obj["tool_use_id"] else None
    return [ev, _background_end(ev, 1, call, task, summary.strip(), *shell)]


_BASH_INPUT = re.compile(r"<bash-input>(.*?)</bash-input>", re.DOTALL)
_BASH_STDOUT = re.compile(r"<bash-stdout>(.*?)</bash-stdout>", re.DOTALL)
_BASH_STDERR = re.compile(r"<bash-stderr>(.*?)</bash-stderr>", re.DOTALL)
_BASH_EXIT = re.compile(r"<bash-exit-code>\s*(-?\d+)\s*</bash-exit-code>")


API_ERROR = "error"
"""The raw type of the main agent's ``isApiErrorMessage`` line: one of the agent-failure lines the
analysis counts as an ``agent_error`` (a turn the model API failed for good: 429 rate limit, 529
overloaded, a refused request), as it counts Codex's ``error`` events."""


AGENT_API_ERROR = "api-error:agent"
"""The raw type of a sub-agent's ``isApiErrorMessage`` line. Not all of them say "API Error": the
CLI writes its own words for some failed requests ("Prompt is too long" when the context
overflowed, "Credit balance is too low", "Invalid API key · Please run /login", as readers of its
synthetic messages list them), and a sub-agent that died of one read as completed."""


def _api_error_type(obj: dict, agent: str) -> str | None:
    """:data:`API_ERROR` for the CLI's ``isApiErrorMessage`` line of the main agent; a sub-agent's
    (its own file, or a sidechain line of an old trunk) is :data:`AGENT_API_ERROR`, left to the
    analysis, which fails the agent when nothing of its own follows (an agent that went on after a
    retry completed); None for another line."""
    if obj.get("isApiErrorMessage") is True:
        return API_ERROR if agent == MAIN_AGENT and obj.get("isSidechain") is not True else AGENT_API_ERROR
    return None


def _first_of_images_alone(content: list, i: int) -> bool:
    """Block ``i`` is the first image of a message with no text and no tool result in it."""
    kinds = [b.get("type") if isinstance(b, dict) else "text" for b in content]
    return kinds.index("image") == i and "text" not in kinds and "tool_result" not in kinds


def _text_kind(role: str, obj: dict, text: str = "") -> str:
    """User text is a prompt unless the CLI wrote it (slash-command markup, caveats,
    interrupts: claude-code-log renders these separately). Assistant text is the model's unless
    the CLI wrote it in the model's place when a request failed for good: ``isApiErrorMessage:
    true``, model ``<synthetic>``, ``"API Error: 529 Overloaded…"``, ``"Please run /login · API
    Error: 401…"`` (with ``error`` and ``apiErrorStatus``; the shape many transcript readers
    test against). Read as the agent's words, it became the reason given for its next command."""
    if role != "user":
        return "system" if obj.get("isApiErrorMessage") is True else "text"
    head = text.lstrip()
    if obj.get("isMeta") or head.startswith(_NOT_TYPED_BY_A_PERSON):
        return "system"
    if head.startswith(_CONTINUED):
        # The summary a compaction (or a resumed session's first turn) hands the model, on
        # lines without ``isCompactSummary`` too (CLIs before it, sessions resumed from one):
        # it was the session's first prompt, and the postmortem's title.
        return "summary"
    if obj.get("isSidechain") is not True and _marked_not_typed(obj):
        return "system"
    return "prompt"


_RUNNING = " is running"
_SLASH_COMMAND = re.compile(
    r"\s*(?:<command-message>[^<]*? is running(?:…|\.\.\.)</command-message>\s*"
    r"<command-name>\s*(/[^<\s]+)\s*</command-name>"
    r"|<command-name>\s*(/[^<\s]+)\s*</command-name>\s*"
    r"<command-message>[^<]*? is running(?:…|\.\.\.)</command-message>)"
    r"(?:\s*<command-args>(.*?)</command-args>)?",
    re.DOTALL)


def _typed_slash_command(obj: dict, text: str) -> str | None:
    """``/name args`` for the line of a slash command the person typed, else None. A prompt
    command (the person's own in .claude/commands, a plugin's, a skill's, /review) is written as
    ``<command-message>name is running…</command-message>`` with its ``<command-name>`` and
    ``<command-args>``, then its expansion as an ``isMeta`` line (Claude Code 2.0.22's shape, as
    transcript readers test it; the CLI's SlashCommand tool description: "when a user types a slash
    command, you will see <command-message>{name} is running…</command-message> followed by the
    expanded prompt"). Read as the CLI's markup, a session driven by ``/perf-triage gpu01`` had no
    prompt at all. Readers of these files keep the command as typed, never the body it expanded
    into. Builtins that only print (``/model``, ``/cost``: no "is running") stay the CLI's, as do
    a replayed line (stream-json's ``isReplay``), one a tool made (``sourceToolUseID``: the model's
    Skill or SlashCommand call), a sub-agent's and one the CLI delivered (:func:`_marked_not_typed`)."""
    if (obj.get("isMeta") or obj.get("isReplay") or obj.get("sourceToolUseID") or obj.get("isSidechain") is True
            or _marked_not_typed(obj)):
        return None
    match = _SLASH_COMMAND.match(text)
    if match is None:
        return None
    name = match.group(1) or match.group(2)
    args = " ".join((match.group(3) or "").split())
    return f"{name} {args}" if args else name


def _marked_not_typed(obj: dict) -> bool:
    """A trunk user line whose ``origin`` (:func:`delivered_for_the_person`) or ``turnOrigin``
    (:data:`_CLI_TURN_ORIGINS`) says the CLI delivered it. A sub-agent's brief (its file's first
    line, a sidechain) keeps its reading."""
    if "origin" in obj and delivered_for_the_person(obj["origin"]):
        return True
    turn = obj.get("turnOrigin")
    return turn.__class__ is str and turn in _CLI_TURN_ORIGINS


def delivered_for_the_person(origin: object) -> bool:
    """Whether a user line's (or a queued prompt's) ``origin`` says the CLI delivered it, not the
    person: ``{"kind": "human"}`` on what was typed, another kind on the rest (a background task's
    end or a scheduled prompt firing, ``task-notification``: 2.1.183 made "scheduled task and
    webhook trigger deliveries" task notifications; another session's message, ``peer``; an MCP
    channel's, ``channel``; the prompt after a usage limit reset, ``auto-continuation``). The
    CLI's own test for a human turn is ``origin?.kind === "human"`` (a format spec reverse-engineered
    from CLI 2.1.266's bundle quotes it; several independent readers test the same field): a
    scheduled ``/loop`` prompt firing, read by its text, was a prompt, each firing a phase of the
    postmortem. ``{"kind": "sdk"}`` is a prompt an SDK host or ``claude -p`` submitted (CLI 2.1.281
    writes it so, as a probe log of it shows): the run's own request, as a ``turnOrigin`` of
    ``sdk`` is (:data:`_CLI_TURN_ORIGINS`). No origin (CLIs before it): the text decides, as before."""
    if type(origin) is not dict:
        return False
    kind = origin.get("kind")
    return type(kind) is str and kind not in _PERSONS_ORIGINS


_PERSONS_ORIGINS = frozenset({"human", "sdk"})


def _bash_mode(text: str, session: str, seq: int, agent: str, ts: str | None, file: str, lineno: int) -> Event | None:
    """A command the person ran with ``!`` (bash mode): the CLI writes a user line
    ``<bash-input>cmd</bash-input>``, then one ``<bash-stdout>..</bash-stdout><bash-stderr>..
    </bash-stderr>`` (string content; as several independent transcript readers parse it).
    Newer CLIs write the exit status after them, ``<bash-exit-code>N</bash-exit-code>`` (the
    CLI's bundle as a protocol spec quotes it, runHeadlessBashCommand; the replays several
    independent stream-json bridges and transcript readers test against): it says how the
    command ended (an ssh that printed a line and exited 255 was read as exit 0; one that
    exited 0 with only a host-key warning on stderr, as failed). Without it, the output counts
    as failed when it is all stderr (inference)."""
    m = _BASH_INPUT.search(text)
    if m:
        command = m.group(1).strip()
        return Event(session, seq, agent, "user", "tool_call", 0, "Bash", f"bash-mode-{seq}", command,
                     "run with ! by the user", command, False, None, ts, file, lineno)
    out, err = _BASH_STDOUT.search(text), _BASH_STDERR.search(text)
    if out is None and err is None:
        return None
    stdout = out.group(1) if out else ""
    stderr = err.group(1) if err else ""
    output = "\n".join(part for part in (stdout.strip("\n"), stderr.strip("\n")) if part)
    code = _BASH_EXIT.search(text) if "<bash-exit-code>" in text else None
    if code is not None:
        exit_code = int(code.group(1))
        return Event(session, seq, agent, "tool", "tool_result", 0, None, None, None, None, output,
                     exit_code != 0, exit_code, ts, file, lineno)
    return Event(session, seq, agent, "tool", "tool_result", 0, None, None, None, None, output,
                 bool(stderr.strip()) and not stdout.strip(), None, ts, file, lineno)


_EDIT_TOOLS = frozenset({"Edit", "MultiEdit", "Write"})
_SHELL_ARGS = frozenset({"command", "description", "timeout", "run_in_background", "dangerouslyDisableSandbox"})
"""The arguments of Claude Code's Bash and PowerShell tools: none names a host
(``common.remote_host``) or a file (``common.tool_path``)."""
"""The file tools whose new text a call keeps (:func:`edited_text`)."""


def _tool_use(block: dict, session: str, seq: int, agent: str, i: int, ts: str | None, file: str,
              lineno: int) -> Event:
    name = block.get("name")
    if not isinstance(name, str):
        name = "?"
    args = block.get("input")
    if not isinstance(args, dict):
        args = {}
    command = args.get("command")
    if not isinstance(command, str) or name in _COMMAND_NOT_SHELL:
        command = None
        if "cmd" in args and name.startswith("mcp__"):
            # An MCP server's SSH or shell tool that names its argument ``cmd`` ({host, cmd}, as
            # Codex's exec_command does: TRANSCRIPTS.md section 1b), read as shell_command reads a
            # Codex call (a string or an argv); was no command, so neither the host nor its output
            command = shell_command({"cmd": args["cmd"]})
    spawn = None
    if name in SPAWN_TOOLS:
        spawn = Spawn(description=str(args.get("description", "")),
                      agent_type=str(args.get("subagent_type", "")),
                      prompt_key=prompt_key(str(args.get("prompt", ""))))
        if args.get("team_name") and isinstance(args.get("name"), str):
            spawn.name = args["name"]  # a teammate: its sidecar names it so (claude_session)
    elif name == WORKFLOW_TOOL:
        # Invoked by scriptPath, by a saved workflow's name, or with the script inline.
        label = args.get("name") or args.get("scriptPath") or args.get("description") or ""
        spawn = Spawn(description=str(label), agent_type="workflow")
    text = command or ""
    if not text and spawn is not None:
        text = str(args.get("prompt", ""))
    elif not text and name in _EDIT_TOOLS:
        text = edited_text(args)  # what the edit changed: the analysis keeps it as a change
    description = args.get("description")
    if not isinstance(description, str):
        description = None
    call_id = block.get("id")
    if not isinstance(call_id, str):
        call_id = None
    # Event's fields in order, from tool_name to path (see the note in _events).
    if name in _STATUS_TOOLS and _SHELL_ARGS.issuperset(args):
        # Most calls of a session: no key of these names a host or a path, and neither tool
        # fetches a page (remote_host, call_path: None either way, without their four calls)
        host = path = None
    else:
        host = remote_host(args) if command is not None else None
        path = call_path(name, args)
    polled = args.get(POLL_TOOLS[name]) if name in POLL_TOOLS else None  # see POLL_END
    ev = Event(session, seq, agent, "assistant", "tool_call", i, name, call_id, command, description, text,
               False, None, ts, file, lineno, None, host, spawn, polled if isinstance(polled, str) else None,
               None, path)
    if host is not None:
        # An MCP server's SSH tool: the user and port it logs in with are the command's, as
        # `ssh -p 2222 root@host` gives them (were lost: a playbook step with no port)
        ev.user, ev.port = remote_login(args)
    return ev



_NUMBERED_LINE = re.compile(r"^ *\d+(?:\u2192|\t)", re.MULTILINE)
READ_REMINDER = ("\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be "
                 "considered malware.")
"""How the reminder opens that the Read tool puts after a file's text on most models (FileReadTool's
CYBER_RISK_MITIGATION_REMINDER, as real session lines and copies of its source carry it)."""


def read_file_text(output: str) -> str | None:
    """The file's own text in what Claude Code's Read tool gave the model: each line behind its
    number (``     4→…``, newer CLIs ``4\t…``), then, on most models, :data:`READ_REMINDER`. None
    when ``output`` is not so numbered (an empty file's note, an image, another tool's output).
    The session file keeps the plain text beside it (toolUseResult.file.content); a proxy's log of
    the CLI's calls has only this."""
    head = output[:12]
    if ("\u2192" not in head and "\t" not in head) or _NUMBERED_LINE.match(output) is None:
        return None
    cut = output.find(READ_REMINDER, max(0, len(output) - 1024))
    if cut >= 0:
        output = output[:cut]
    return _NUMBERED_LINE.sub("", output)


_READ_ROW = re.compile(r"(?: *(\d+)\u2192|(\d+)\t)")


def numbered_copy_text(output: str) -> str | None:
    """The file's text in a Read result that is its numbered copy alone, for a line that keeps no
    plain copy beside it (no ``toolUseResult.file.content``: sessions of older CLIs, a sub-agent's
    messages copied into the trunk's ``agent_progress`` lines, stream-json without
    ``tool_use_result``). Sound, unlike :func:`read_file_text`, which knows the call was a Read:
    every line must be numbered, in the arrow shape (``     4→…``, the number right-aligned or
    not) or newer CLIs' tab shape (``4\t…``, never padded: ``cat -n`` pads it), all in one
    shape, numbered one after another from the first (an offset read starts past 1), with
    nothing after the last but :data:`READ_REMINDER`. An Edit's snippet (a header line first),
    an empty file's note or any other output is None. Runs on results without the plain copy
    whose first characters hold the arrow or a tab alone."""
    first = _READ_ROW.match(output)
    if first is None:
        return None
    cut = output.find(READ_REMINDER, max(0, len(output) - 1024))
    if cut >= 0:
        output = output[:cut]
    lines = output.split("\n")
    end = ""
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
        end = "\n"
    arrow = first.group(1) is not None
    n = int(first.group(1) if arrow else first.group(2))
    text = []
    match = _READ_ROW.match
    for line in lines:
        row = match(line)
        if row is None or (row.group(1) if arrow else row.group(2)) != str(n):
            return None
        text.append(line[row.end():])
        n += 1
    return "\n".join(text) + end


_PERSISTED = re.compile(r"^<persisted-output>\s*(?:Output too large \([^)]*\)\. Full output saved to|Tool result saved to)"
                        r": (.+?)\s*$", re.MULTILINE)
PERSISTED_HEAD = 256 * 1024
PERSISTED_TAIL = 1024 * 1024


def _persisted_output(text: str, transcript: str) -> str | None:
    """The whole output of a tool result the CLI saved aside: ``<persisted-output>Output too
    large (96.2KB). Full output saved to: /…/<sessionId>/tool-results/toolu_….txt\n\nPreview
    (first 2KB): …</persisted-output>`` (the marker as transcript readers parse it). A Python
    traceback ends a long log, past the preview, so the file is read: found by its name in the
    ``tool-results/`` folder of this copy of the session (the path is the writing machine's),
    its head and tail when it is large."""
    m = _PERSISTED.match(text[:4096])
    if m is None:
        return None
    parts = m.group(1).replace("\\", "/").rsplit("/", 3)
    name = parts[-1]
    folder = _session_folder(Path(transcript))
    path = _stored(folder / "tool-results" / name)
    if len(parts) == 4 and parts[-2] == "tool-results" and parts[-3] not in (folder.name, "", ".", "..") \
            and not path.is_file():
        # A resumed session's file starts with the lines it copied from the one it resumed
        # (`claude --resume`: their sessionId kept), whose outputs were saved in that
        # session's folder, beside this one: the marker names it (<sessionId>/tool-results/)
        path = _stored(folder.parent / parts[-3] / "tool-results" / name)
    if path.name != name:
        return _packed_output(path)
    try:
        with open(path, "rb") as f:
            size = f.seek(0, 2)
            f.seek(0)
            if size <= PERSISTED_HEAD + PERSISTED_TAIL:
                data = f.read()
            else:
                head = f.read(PERSISTED_HEAD)
                f.seek(size - PERSISTED_TAIL)
                data = head + b"\n[...]\n" + f.read(PERSISTED_TAIL)
    except OSError:
        return None
    return data.decode("utf-8", "replace")


def _stored(path: Path) -> Path:
    """``path``, or its compressed copy where only that is on disk (``tool-results/toolu_….txt.gz``
    of a project folder archived with ``gzip -r``, which the session files are read from too)."""
    if path.is_file():
        return path
    return next((packed for suffix in SUFFIXES if (packed := path.with_name(path.name + suffix)).is_file()), path)


def _packed_output(path: Path) -> str | None:
    """:func:`_persisted_output`'s head and tail of a compressed saved output, read decompressed
    (was: no file by the marker's name, so the preview alone: a traceback past it was lost)."""
    head, tail, size = b"", bytearray(), 0
    try:
        with open_transcript(path) as f:
            head = f.read(PERSISTED_HEAD)
            size = len(head)
            while block := f.read(1 << 20):
                size += len(block)
                tail += block
                if len(tail) > 2 * PERSISTED_TAIL:
                    del tail[:-PERSISTED_TAIL]
    except DAMAGE:
        if not head:
            return None  # what came before damage is kept, as read_head keeps it
    data = head + b"\n[...]\n" + bytes(tail[-PERSISTED_TAIL:]) if size > PERSISTED_HEAD + PERSISTED_TAIL \
        else head + bytes(tail)
    return data.decode("utf-8", "replace")


def _session_folder(transcript: Path) -> Path:
    """``<sessionId>/`` of a trunk file, or the one a sub-agent file sits in (``subagents/``,
    at any depth; CLI 2.0.x ``agent-*.jsonl`` directly inside it)."""
    for parent in transcript.parents:
        if parent.name == "subagents":
            return parent.parent
    if transcript.name.startswith("agent-") and (transcript.parent / "tool-results").is_dir():
        return transcript.parent
    written = claude_layout.written_at(transcript)
    return written.parent / transcript_stem(written)  # <sessionId>.jsonl or .jsonl.gz


_EXIT_1_WORDS = frozenset({"No matches found", "Some directories were inaccessible", "Files differ",
                           "Condition is false"})
"""What the Bash tool writes as ``toolUseResult.returnCodeInterpretation`` for an exit status of 1
that it does not take for a failure: grep and rg ("No matches found"), find, diff, test and ``[``
(Claude Code src/tools/BashTool/commandSemantics.ts: each is an error only from exit 2). Any other
status it does not call an error is 0; a failure's is in its "Exit code N"."""


def _killed_too_late(ended: re.Match, output: str, session: str, seq: int, agent: str, i: int,
                     call_id: str | None, ts: str | None, file: str, lineno: int) -> Event:
    """A ``KillShell`` of a shell that had ended (:data:`_KILLED_TOO_LATE`): read as a poll's end
    (:data:`POLL_END`) of the shell it names, so that a server that had crashed ("status:
    failed") is a failed command, and the stop, which found it ended, is no failed call. No
    exit code is given; "completed" and "killed" are no failure."""
    failed = ended.group(2) == "failed"
    return Event(session, seq, agent, "tool", "tool_result", i, None, call_id, None, None, output, failed,
                 None, ts, file, lineno, POLL_END, None, None, ended.group(1), None)


ASYNC_RUNNING = "running"
"""The status a background agent's launch result gives it (``status: "async_launched"``) until a
notification or a poll says how it ended (claude_session applies those after)."""
_POLLED_AGENT = "<task_type>local_agent</task_type>"
_POLLED_SHELL = "<task_type>local_bash</task_type>"
_SHELL_ENDS = frozenset({"completed", "failed"})
"""A ``TaskOutput`` poll of a background shell (2.1.x; see :data:`POLL_END`) that says it ended
but gives no exit code: a claude-code-log page's poll card shows the status alone (1.7.0
``format_TaskOutputResult``). "completed" is the CLI's word for exit 0 and "failed" for any other
(``Background command "…" completed (exit code 0)`` / ``failed with exit code N``, see
:func:`_task_notification`): the command ended so, not the poll. A "killed" one's status stays
unknown."""


def _agent_poll(output: str, result) -> tuple[str, str] | None:
    """``(agentId, status)`` of a ``TaskOutput`` poll that read how a background agent ended:
    ``<retrieval_status>success</retrieval_status> <task_id>a…</task_id> <task_type>local_agent
    </task_type> <status>completed|failed|killed</status> <output>…`` (blank lines between), with
    ``toolUseResult {retrieval_status, task {task_id, task_type, status, description, output}}``:
    a shell's poll but for the type and the missing exit code (:data:`POLL_END`; the task id is
    the ``agentId`` its launch gave). The same word on its end as its ``<task-notification>``
    (the model may fetch the report with a blocking poll rather than wait for the note); the
    poll itself read what it was asked for, and is no failed call of the agent that made it."""
    task = result.get("task") if result.__class__ is dict else None
    if task.__class__ is dict and task.get("task_type") == "local_agent":
        agent_id, status = task.get("task_id"), task.get("status")
    elif _POLLED_AGENT in output[:400]:
        found, shell = _POLLED_TASK.search(output[:300]), _SHELL_STATUS.search(output[:400])
        agent_id, status = (found.group(1) if found else None), (shell.group(1) if shell else None)
    else:
        return None
    if agent_id.__class__ is not str or not agent_id or status not in _FINAL_STATUS:
        return None
    return agent_id, _FINAL_STATUS[status]


def _failed_by_cli_words(block: dict, result, output: str) -> bool:
    """A result whose block lacks ``is_error`` (a copy that kept only the fields set otherwise, as
    the API leaves it out when false) while the CLI's own copy of it, ``toolUseResult``, is the
    string it writes for a failed call: ``"Error: "`` and the same text (``"Error: Exit code 2\nls:
    cannot access ..."``, TRANSCRIPTS.md section 1a). It failed; read as a success, a Bash call
    that exited 2 was exit 0 with no error."""
    return "is_error" not in block and isinstance(result, str) and result.startswith("Error: ") \
        and bool(output.strip()) and result[7:].strip() == output.strip()


def _tool_result(obj: dict, block: dict, session: str, seq: int, agent: str, i: int, ts: str | None, file: str,
                 lineno: int) -> Event:
    output = block.get("content")
    if output.__class__ is not str:  # (most results are a string: block_text's first answer)
        output = block_text(output)
    result = obj.get("toolUseResult")
    if result is None:
        # `claude -p --output-format stream-json` names the CLI's copy tool_use_result: the Agent
        # SDK's SDKUserMessage{type: "user", message, parent_tool_use_id, tool_use_result?: unknown}
        # (@anthropic-ai/claude-agent-sdk sdk.d.ts), e.g. {"stdout", "stderr", "interrupted"} or an
        # MCP call's content blocks. Only the CLI's own files say toolUseResult.
        result = obj.get("tool_use_result")
    is_error = block.get("is_error") is True or "is_error" not in block and _failed_by_cli_words(block, result, output)
    agent_ref = status = None
    launched = False  # a background agent's launch receipt whose toolUseResult names no agent
    if isinstance(result, dict):
        agent_ref = result.get("agentId") if isinstance(result.get("agentId"), str) else None
        status = result.get("status") if isinstance(result.get("status"), str) else None
        if status == "async_launched":
            launched = agent_ref is None
            # A background agent was started (2.1.2xx: every agent, by default): how it ends comes
            # later, in a <task-notification> or a TaskOutput poll (:func:`_agent_poll`), which
            # claude_session gives the agent; with neither (a session cut off while it ran) it was
            # still running, as an agent whose foreground call was never answered (was "completed").
            status = ASYNC_RUNNING if agent_ref is not None else None
        if agent_ref is None and isinstance(result.get("runId"), str):
            # A Workflow launch: its status is "async_launched", not how the run ended.
            agent_ref, status = WORKFLOW_PREFIX + result["runId"], None
    if agent_ref is None and isinstance(block.get("agentId"), str):
        agent_ref = block["agentId"]
    if agent_ref is None and not obj.get("isSidechain") and isinstance(obj.get("agentId"), str):
        agent_ref = obj["agentId"]  # older CLIs put it on the line (claude-code-log parser.py)
    call_id = block.get("tool_use_id")
    if not isinstance(call_id, str):
        call_id = None
    if output.startswith("<persisted-output>"):
        output = _persisted_output(output, file) or output
    elif result.__class__ is dict and result.get("type") == "text" and not is_error \
            and (read := result.get("file")).__class__ is dict and (text := read.get("content")).__class__ is str:
        # A Read of a text file: what the model got is each line behind its number ("    12→…",
        # newer CLIs "12\t…") and, on most models, the CLI's malware reminder after it
        # ("\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be
        # considered malware. ...</system-reminder>\n", FileReadTool's CYBER_RISK_MITIGATION_REMINDER).
        # The file's own text is toolUseResult.file.content (real sessions of CLI 2.1.x carry it):
        # read from the numbered copy, a traceback in a log it read lost its exception line (each
        # line began with its number) and every error quoted "4→RuntimeError: ...".
        output = text
    elif not is_error and ("\u2192" in (head := output[:12]) or "\t" in head) \
            and (result is None or result.__class__ is dict and result.get("type") == "text"
                 and result.get("file").__class__ is dict):
        # A Read result with no plain copy of the file beside it (older CLIs wrote no
        # toolUseResult, a trunk's agent_progress copy of a sub-agent's line has none, nor has
        # stream-json of older CLIs): the numbered text alone, whose numbers are taken off when
        # every line has one (numbered_copy_text). Read as sent, a traceback in a log it read lost
        # its exception line ("4→RuntimeError: ...").
        if (plain := numbered_copy_text(output)) is not None:
            output = plain
    # Each marker holds a capital letter that many outputs lack (an ``ls -la`` has neither):
    # ``in`` finds one character with memchr, ~20x faster than it scans for the whole marker, so
    # a text without it is passed over at that speed; with it, the marker is looked for as before.
    if agent_ref is None and "I" in output and "agentId: " in output:
        m = _AGENT_TRAILER.search(output)
        agent_ref = m.group(1) if m else None
    if agent_ref is None and "T" in output and "Transcript dir: " in output:
        m = _WORKFLOW_DIR.search(output)
        agent_ref = WORKFLOW_PREFIX + m.group(1) if m else None
    if launched and agent_ref is not None and not is_error and not agent_ref.startswith(WORKFLOW_PREFIX):
        # A background agent's launch whose toolUseResult names no agent (a nested spawn's: only
        # the trunk's result carries agentId): the receipt's "agentId: …" line names it, and it
        # runs until a note or a poll says how it ended, as a trunk's does (was "completed", or
        # "failed" when its calls so far had failed, in a session cut off while it ran)
        status = ASYNC_RUNNING
    exit_code = exit_code_of(output) if is_error else None
    if not is_error and isinstance(result, dict) \
            and (said := result.get("returnCodeInterpretation")).__class__ is str and said in _EXIT_1_WORDS:
        exit_code = 1  # grep that matched nothing, diff of files that differ: an answer, not exit 0
    if isinstance(result, list) and (process := stream_result(output)) is not None:
        # An MCP tool's result (toolUseResult is then its content blocks, [{"type": "text", ...}],
        # as CLI 2.0.14 sessions show) that is the process it ran, {"stdout", "stderr", "exitCode"}:
        # the SSH and shell MCP servers that return "structured" results. The CLI marks the call
        # failed only when the server says isError, so a command that exited 1 was exit 0.
        output, exit_code = process
        is_error = is_error or exit_code != 0
    if is_error and status is None and output.startswith(INTERRUPTED):
        # Esc while the call ran: ``content: "[Request interrupted by user for tool use]"``,
        # ``is_error: true``, ``toolUseResult: "Error: [Request interrupted by user for tool
        # use]"`` (the shape transcript readers test against, e.g. CLI 2.0.71 fixtures). For
        # an Agent/Task call this is how its sub-agent ended: stopped, not completed or failed.
        status = "interrupted"
    # A command started with run_in_background (or polled while it runs) has not ended: its
    # result must not read as exit 0, which the analysis infers for a Claude Code result
    # without is_error (raw_type "running" says so).
    running = not is_error and (output.startswith(_BACKGROUND_HEADS)
                                or output[:10] == _MCP_BACKGROUNDED and _BACKGROUND_ID.match(output) is not None)
    task_id = result.get("backgroundTaskId") if not is_error and result.__class__ is dict else None
    if task_id.__class__ is str and task_id:
        running = True  # a receipt, whatever its words (see _BACKGROUND_HEADS)
    else:
        task_id = None
    if running and call_id is not None:
        if task_id is None:
            started = _BACKGROUND_ID.match(output)
            task_id = started.group(1) if started is not None else None
        if task_id is not None:
            call_id = f"{call_id}{_RUNNING_AS}{task_id}"  # see _background_call
    if is_error and output[:6] == "Shell " and (ended := _KILLED_TOO_LATE.match(output)) is not None:
        return _killed_too_late(ended, output, session, seq, agent, i, call_id, ts, file, lineno)
    if not is_error and output.startswith("<") and "<status>" in output[:200]:
        shell, code = _SHELL_STATUS.search(output[:200]), _SHELL_EXIT.search(output[:400])
        exit_code = int(code.group(1)) if code else None
        is_error = (shell is not None and shell.group(1) == "failed") or exit_code not in (None, 0)
        running = shell is not None and shell.group(1) == "running"
        if code is None and not running and (polled_agent := _agent_poll(output, result)) is not None:
            # A poll of a background agent that read its end: the agent's status, not the poll's
            agent_ref, status = polled_agent
            is_error = False
        elif not running and call_id is not None and (code is not None or shell is not None and shell.group(1)
                                                      in _SHELL_ENDS and _POLLED_SHELL in output[:400]):
            # The poll's own word on which command it read, where it gives one; else its call's input.
            # A shell's end with no exit code (:data:`_POLLED_SHELL`) ends that command all the same.
            polled = _POLLED_TASK.search(output[:300])
            if isinstance(result, dict):
                task = result.get("task")
                agent_ref = result.get("shellId") if isinstance(result.get("shellId"), str) else \
                    task.get("task_id") if isinstance(task, dict) and isinstance(task.get("task_id"), str) else None
            if agent_ref is None and polled is not None:
                agent_ref = polled.group(1)
            return Event(session, seq, agent, "tool", "tool_result", i, None, call_id, None, None, output, is_error,
                         exit_code, ts, file, lineno, POLL_END, None, None, agent_ref, status)
    return Event(session, seq, agent, "tool", "tool_result", i, None, call_id, None, None, output,
                 is_error, exit_code, ts, file, lineno, "running" if running else None, None, None, agent_ref,
                 status)
