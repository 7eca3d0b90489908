"""Finding sessions under PATH, detecting their format, and streaming their events.

PATH may be a transcript file, a Claude Code session folder (``<sessionId>/`` beside
``<sessionId>.jsonl``), a CLI's home folder, or any directory of sessions. A session's parts
(Claude Code sub-agents, Codex sub-agent rollouts) are read with it as its agents
(:mod:`formats.claude_session`, :mod:`formats.codex_threads`).
"""

from __future__ import annotations

import codecs
import errno
import hashlib
import json
import os
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import NamedTuple

from spec_debug.errors import UsageError
from spec_debug.session import reader
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import MAIN_AGENT, Event, ReadStats
from spec_debug.session.formats import (
    aider_context, anthropic_stream, asciicast, chat_stream, chatgpt_export, claude_code, claude_code_log_html,
    claude_code_log_md, claude_layout, claude_session, cline_export, cline_task, codex, codex_exec, codex_threads,
    continue_session, crush,
    gemini_cli, goose_store, hermes_store, copilot_cli, droid_stream, gemini_agents, gemini_stream, grok_cli, kimi_code, kimi_wire,
    har, opencode, pi_agent, ollama_stream, openai_chat, openhands, openhands_eval, openhands_sdk, opencode_export,
    opencode_store, qwen_code, responses_stream, sharegpt, specstory, swe_agent, text_log,
)
from spec_debug.session.formats.common import Cursor, block_text
from spec_debug.session.formats.compressed import SUFFIXES as COMPRESSED_SUFFIXES
from spec_debug.session.formats.compressed import (
    kind_of_file, read_head, readable, transcript_stem, unpacked_name,
)
from spec_debug.session.format_names import INPUT_FORMATS, input_format_name  # noqa: F401 (re-exported)
from spec_debug.session.reader import array_objects, pretty_objects

_SESSION_SUFFIXES = (".jsonl", ".ndjson", ".json", ".txt", ".md", ".log", ".cast", ".sse", ".har", ".traj")
_JSON_LINES = (".jsonl", ".ndjson")
"""JSON Lines by name: ``claude -p --output-format stream-json > run.ndjson`` and ``codex exec --json``
captures are saved under either (NDJSON is the same format's other name, and stream-json's own:
"newline-delimited JSON"); a folder scan passed the .ndjson ones over."""
_EXPECTED_FILES = ("expected session files named " + ", ".join(f"*{s}" for s in _SESSION_SUFFIXES[:-1])
                   + f" or *{_SESSION_SUFFIXES[-1]}, also compressed (" + ", ".join(COMPRESSED_SUFFIXES)
                   + "), or an OpenHands conversation folder")
"""What a folder scan reads (:func:`_session_files`), said from the same lists."""
_NOT_SESSION_DIRS = frozenset({"subagents", "tool-results", "workflows", "__pycache__", "node_modules", "site-packages"})
_SNIFF_BYTES = 256 * 1024
_SNIFF_LINES = 50


@dataclass(slots=True)
class SessionSource:
    id: str
    path: Path
    format: str
    """claude-code | codex | openai | openhands | swe-agent | text | gemini-cli | qwen-code | pi | copilot,
    detected or forced (codex-exec, asciicast and specstory are read as codex and text with the
    flags below). An openhands ``path`` may be a conversation folder
    (:mod:`formats.openhands_sdk`)."""
    array: bool = False
    """openai: the file is one JSON array (or {"messages": [...]}) rather than JSONL; openhands:
    the events are the file's ``{"trajectory": [...]}`` (:func:`openhands.looks_wrapped`)."""
    thread: codex_threads.Thread | None = None
    """codex only: the rollout's thread, and the parent thread of a sub-agent."""
    children: list[SessionSource] = field(default_factory=list)
    """codex: sub-agent rollouts under PATH that name this one's thread as their parent; gemini-cli:
    the sub-agents' recordings in the folder named after this session's id. They are read as
    agents of this session, not as sessions of their own."""
    recording: bool = False
    """text only: an asciinema terminal recording (:mod:`formats.asciicast`)."""
    exec_events: bool = False
    """codex only: ``codex exec --json`` output, not a rollout (:mod:`formats.codex_exec`)."""
    forked_from: Path | None = None
    """codex only: the rollout under PATH of the thread this session was forked from (/fork):
    the history copied from it is read there, not twice."""
    specstory: bool = False
    """text only: Markdown saved by SpecStory (:mod:`formats.specstory`)."""
    copied_head: int = 0
    """claude-code only: the trunk file's lines up to this line number copy the history of
    another session under PATH, which reads them (:func:`claude_layout.shared_heads`)."""
    history_files: list[Path] = field(default_factory=list)
    """claude-code only: other trunk files under PATH that hold this session's copied history:
    the sessions it holds whole (:func:`claude_layout.resumed_copies`), not read as sessions, and
    the forks whose head is the same history (:func:`claude_layout.shared_heads`). The sub-agents
    that history started are in their folders (:func:`formats.claude_session.read`)."""
    alone: bool = False
    """claude-code only: the one session PATH holds (a file named alone): the other sessions of its
    project are not read, and their folders may hold the sub-agents its copied lines started."""
    conversation: chatgpt_export.Conversation | None = None
    """openai only: one conversation of a ChatGPT export, a session of its own (``path`` is the
    export, ``id`` the conversation's id)."""
    records: frozenset[int] | None = None
    """openai only: the lines of ``path`` this session reads (of a HAR capture, its calls, counted
    from 0), where the file logs the calls of several conversations (:func:`_logged_conversations`);
    None: all of them."""
    span: tuple[int, int, int] | None = None
    """openai only: ``(start, end, line)``, the bytes of ``path`` this session reads and the line
    they start on, where each line of the file is a conversation of its own (ShareGPT trajectories,
    :func:`_trajectory_lines`); None: all of it."""
    title: str | None = None
    """The session's title where the format writes one (a ChatGPT conversation's)."""
    store_session: str | None = None
    """crush only: the session's id in the SQLite store ``path`` (:mod:`formats.crush`)."""
    store_children: list = field(default_factory=list)
    """crush only: the sessions of the sub-agents it started (:func:`formats.crush.sub_agents`)."""
    store_sessions: list = field(default_factory=list)
    """crush, and openai from Goose's store, before the store is split into sessions: its sessions
    as detection read them."""
    page_session: claude_code_log_md.PageSession | None = None
    """text only: one session of a claude-code-log page that holds several (its combined page,
    HTML or Markdown: :func:`claude_code_log_html.page_sessions`, :func:`claude_code_log_md.page_sessions`),
    a session of its own (``path`` is the page, ``id`` the session's id)."""
    instance: openhands_eval.Instance | None = None
    """openhands only: one instance of an evaluation's ``output.jsonl``, a session of its own
    (``path`` is the output, ``id`` the instance's id)."""
    parts: list[Path] = field(default_factory=list)
    """openai only: the files after ``path`` of a logging proxy's folder of one file per call
    (:func:`_proxy_log_folders`), read after it as the records of one log."""

    @property
    def goose_store(self) -> bool:
        """openai only: a session of Goose's SQLite store (:mod:`formats.goose_store`) or Hermes
        Agent's (:mod:`formats.hermes_store`), ``store_session`` its id. Told by the path: a SQLite
        file read as ``openai`` is one of those stores (:func:`_sqlite_store`; a JSON or JSONL chat
        log is none, told by its name before a read: a home scan holds thousands of them)."""
        if self.format != "openai":
            return False
        if self.store_session is not None or self.store_sessions:
            return True
        return not unpacked_name(self.path.name).endswith((".json", ".jsonl")) and crush.is_sqlite(self.path)


def _missing_path(path: Path) -> tuple[str, str | None]:
    """Why ``path`` does not exist, as a UsageError's message and hint. ``Path.exists`` is False for
    a symlink loop (stat fails with ELOOP) and for a link to nothing, which both read "no such file
    or directory" though the name is there (`ls` lists it): the user went looking for a missing file.
    The words are the playbook loader's for the same links (playbook/loader.py, _broken_link)."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            what = "a symbolic link that leads back" if path.is_symlink() else "a folder on its way is a link that leads back"
            return (f"{path}: {what} to itself (a loop of links)",
                    "a link on the way points back to itself (ls -l shows where each one points): "
                    "pass the real file or folder")
    if path.is_symlink():
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        return (f"{path}: a symbolic link to {target}, which does not exist",
                "the session was moved or deleted: pass its path, or point the link at it")
    return f"{path}: no such file or directory", None


def discover(path: Path, input_format: str | None = None, copies: list[Path] | None = None) -> list[SessionSource]:
    """The sessions under ``path``; ``copies``, when given, is filled with the files a folder scan
    skipped as identical copies of a session read elsewhere (:func:`_without_identical_copies`)."""
    fmt = input_format_name(input_format)
    stores: dict[Path, tuple[str, list]] = {}  # the stores whose sessions the scan read: read once
    if not str(path).strip():
        raise UsageError("PATH is empty", hint="pass a transcript file, a session folder or a directory of sessions")
    if not path.exists():
        message, hint = _missing_path(path)
        raise UsageError(message, hint=hint)
    if path.is_file():
        files = [path]
    elif not path.is_dir():
        # `spec-debug analyze <(ssh gpu01 cat session.jsonl)`: a pipe, which cannot be read twice
        # (detection peeks at its start); standard input can, as `-` spools it to a file first.
        raise UsageError(f"{path}: not a regular file or a directory",
                         hint="pipe it in instead, `cmd | spec-debug analyze -` (distill takes - too), or save "
                              "the stream to a file first (a pipe cannot be read twice)")
    else:
        sibling = next((s for s in claude_layout.trunk_candidates(path) if s.is_file()), None)
        files: list[Path] = []
        if path.name == openhands_sdk.EVENTS_DIR and openhands_sdk.is_conversation(path.parent):
            files = [path.parent]  # an OpenHands conversation's events/: the conversation
        if claude_layout.is_session_folder(path) or path.name == "subagents":
            # Without the trunk beside it (a folder copied alone), its sub-agents are read alone.
            files = [sibling] if sibling is not None else claude_layout.agent_files(path)
        files = files or _session_files(path, stores)
        if not files:
            raise UsageError(f"{path}: no transcript files found", hint=_EXPECTED_FILES)
    scanning = not path.is_file()
    sources = [source for file in files if (source := _source(file, fmt, scanning, stores.get(file)))
               is not None]
    sources = [part for source in sources for part in _conversations(source)]
    if scanning:
        sources = _proxy_log_folders(_without_hermes_snapshots(sources))
        sources, skipped = _without_identical_copies(sources)
        if copies is not None:
            copies.extend(skipped)
    if not scanning and len(sources) == 1 and sources[0].format == "codex" and not sources[0].exec_events:
        sources = _with_sub_agent_rollouts(sources[0])
    elif not scanning and len(sources) == 1 and sources[0].format == "kimi" and _kimi_code_agent(path) == MAIN_AGENT:
        # Kimi Code's main agent named alone comes with its sub-agents' logs beside it.
        sources[0].children = [SessionSource(id=wire.parent.name, path=wire, format="kimi")
                               for wire in _kimi_code_sub_agents(path)]
    elif not scanning and len(sources) == 1 and sources[0].format == "opencode" and path.suffix == ".json":
        # An OpenCode session file named alone comes with the sub-agent sessions its task calls started
        # (session files beside it whose parentID leads to it).
        named = sources[0]
        beside = [SessionSource(id=f.stem, path=f, format="opencode") for f in sorted(path.parent.glob("ses_*.json"))
                  if f != path]
        if any(s is named for s in _nest_opencode_sub_sessions([named, *beside])):
            sources = [named]
        else:
            named.children = []  # a sub-agent's session named alone: read alone
    elif not scanning and len(sources) == 1 and _is_cline_sdk_main(sources[0]):
        # The Cline CLI 3's session named alone comes with its sub-agents' messages files beside it.
        sources[0].children = [SessionSource(id=transcript_stem(f), path=f, format="openai", array=sources[0].array)
                               for f in (cline_task.sdk_session_files(path.parent, _names(path.parent)) or [])[1:]]
    elif not scanning and len(sources) == 1 and sources[0].format == "gemini-cli":
        # A Gemini CLI session named alone comes with its sub-agents' recordings beside it.
        sources[0].children = [SessionSource(id=transcript_stem(f), path=f, format="gemini-cli")
                               for f in gemini_agents.beside(sources[0].path)]
    else:
        sources = _orphans_to_their_copy(_without_resumed_copies(_nest_opencode_sub_sessions(_nest_cline_sdk_agents(
            _nest_kimi_code_agents(_nest_gemini_subagents(_nest_codex_threads(sources)))))))
    if len(sources) == 1 and sources[0].format == "claude-code" and not sources[0].history_files:
        sources[0].alone = True
    _unique_ids(sources, path)
    if not sources and not readable("zstd") and (packed := [f for f in files if kind_of_file(f) == "zstd"]):
        raise UsageError(f"{path}: {len(packed)} transcript(s) are zstd-compressed (Codex compresses rollouts idle "
                         "for 7 days), and the zstd command to read them is not installed",
                         hint="install zstd (apt install zstd, brew install zstd, dnf install zstd)")
    if not sources and not scanning and crush.is_sqlite(path):
        _refuse_empty_store(path)
    if not sources and scanning and len(files) == 1 and files[0].is_file() and crush.is_sqlite(files[0]):
        _refuse_empty_store(files[0])  # `analyze .crush`, or a project whose one candidate is its store
    if not sources and scanning and fmt is not None:
        raise UsageError(f"{path}: no transcript files found (--input-format {input_format} fits none of its "
                         f"{len(files)} candidate file(s))",
                         hint="leave --input-format out to read each file as the format it is in")
    if not sources:
        raise UsageError(f"{path}: no transcript files found (none of {len(files)} candidate file(s) is one)",
                         hint="expected Claude Code, Codex or OpenAI chat JSON(L), or *.txt, *.md or *.log logs")
    return sources


def _without_hermes_snapshots(sources: list[SessionSource]) -> list[SessionSource]:
    """A folder's sessions without Hermes Agent's snapshot of a session its gateway also keeps a
    transcript of: in ``~/.hermes/sessions`` the agent rewrites ``session_<id>.json`` (its messages
    so far, ``run_agent.py`` ``_save_session_log``) and the gateway appends each turn to
    ``<id>.jsonl`` (``gateway/run.py``). Both read, a gateway session was two sessions, each command
    run twice; the transcript is kept, the snapshot (a compression leaves only what it kept) not."""
    transcripts = {(s.path.parent, s.path.name[:-len(".jsonl")]) for s in sources
                   if s.format == "openai" and s.path.name.endswith(".jsonl")}
    if not transcripts:
        return sources
    return [s for s in sources if not (
        s.format == "openai" and s.path.name.startswith("session_") and s.path.name.endswith(".json")
        and (s.path.parent, s.path.name[len("session_"):-len(".json")]) in transcripts)]


def _empty_claude_session(file: Path) -> bool:
    """``<sessionId>.jsonl`` (a UUID, as Claude Code names a session's file) with nothing in it but
    blanks or NUL bytes: a Claude Code session that never got a line, or lost them in a crash
    (anthropics/claude-code issue #76059), named alone. Read as an empty log, it was a "text"
    session."""
    if not unpacked_name(file.name).endswith(".jsonl") or not _SESSION_ID.fullmatch(transcript_stem(file)):
        return False
    try:
        head = read_head(file, _EMPTY_READ + 1)
    except OSError:
        return False
    return len(head) <= _EMPTY_READ and not head.strip(b"\0 \t\r\n")


_EMPTY_READ = 64 * 1024


def _source(file: Path, fmt: str | None, scanning: bool, store: tuple[str, list] | None = None) \
        -> SessionSource | None:
    """The session in ``file``, or None when a folder scan should pass it by (a pipe, an
    archive, an unreadable file, JSON that is no transcript); for a file named on the command
    line those are usage errors instead. ``store``: the kind and sessions the scan read from
    ``file``, Goose's or OpenCode's store (:func:`_goose_imported`, :func:`_opencode_data`), not read again."""
    if file.is_dir():  # an OpenHands conversation folder (see _session_files)
        if fmt not in (None, "openhands") and not scanning:
            raise UsageError(f"{file}: an OpenHands conversation folder, not {fmt}",
                             hint="leave --input-format out, or use --input-format openhands")
        return SessionSource(id=file.name, path=file, format="openhands")
    if scanning and not file.is_file():
        return None  # a pipe or socket in the folder: opening it would wait forever
    if crush.is_sqlite(file):
        return _sqlite_store(file, fmt, scanning, store)
    if fmt == "crush":
        # Read as a store, any other file was "not a database": an empty session, not a refusal
        if scanning:
            return None
        raise UsageError(f"{file}: --input-format crush does not fit: it is no SQLite database (Crush's session "
                         "store is .crush/crush.db)", hint="leave --input-format out to read it as what it is")
    unreadable: list[str] = []
    try:
        packed = _compression(file)
        detected, array, recognized = _sniff(file, unreadable)
    except OSError as e:
        if scanning:
            return None  # one unreadable file does not stop the others
        raise UsageError(f"{file}: cannot be read ({e.strerror or e})") from None
    if packed:
        if scanning:
            return None
        if packed == "zstd":
            raise UsageError(f"{file}: zstd-compressed (Codex compresses rollouts idle for 7 days), and the zstd "
                             "command to read it is not installed", hint="install zstd (apt install zstd, brew install "
                             f"zstd, dnf install zstd), or unpack it first: zstd -d {file.name}")
        tool = {"zip": "unzip", "tar": "tar -xf"}[packed]
        raise UsageError(f"{file}: a {packed} archive, not a transcript",
                         hint=f"unpack it first ({tool} {file.name}); gzip, bzip2, xz and zstd transcripts are read "
                              "as they are")
    if unreadable:
        # Compressed, but not even its start decompresses: nothing in it can be read.
        if scanning:
            # A session cut inside its first block (an rsync of ~/.codex stopped half way; Codex
            # zstd-compresses rollouts idle for 7 days) is kept as a session of no events whose
            # reader reports the damage: passed by, the scan lost it without a word.
            damaged = _damaged_format(file)
            return None if damaged is None else SessionSource(id=transcript_stem(file), path=file, format=damaged)
        raise UsageError(f"{file}: cannot be read: its {unreadable[0]}",
                         hint="check the copy (gzip -t / xz -t / bzip2 -t name it) or use the original file")
    if detected == _CONTINUE_INDEX:
        if scanning:
            return None
        raise UsageError(f"{file}: Continue's list of its sessions, not a session",
                         hint="name a session file beside it (<sessionId>.json), or the folder to read them all")
    if not recognized and unpacked_name(file.name).endswith(".jsonl") \
            and claude_layout.is_session_folder(file.parent / transcript_stem(file)):
        # A Claude Code trunk left empty or all NUL bytes by a crash (anthropics/claude-code
        # issue #76059) still has its sub-agents and tool outputs in the folder beside it.
        detected, recognized = "claude-code", True
    elif not scanning and fmt is None and not recognized and _empty_claude_session(file):
        detected, recognized = "claude-code", True
    if scanning and fmt is None and not recognized \
            and unpacked_name(file.name).lower().endswith((".json", *_JSON_LINES)):
        return None  # a config or data file in the folder, not a transcript
    if scanning and fmt is None and detected == "claude-code" and claude_layout.summaries_only(file):
        return None  # Claude Code's index of other sessions' titles (claude_layout.summaries_only)
    if not scanning and fmt is None and not recognized and detected == "claude-code":
        _refuse_untyped_records(file)
    recording = detected == "asciicast"
    if recording:
        detected = "text"  # a shell log, timed
    marked = detected == "specstory"
    if marked:
        detected = "text"  # Markdown, with its roles marked
    exec_events = detected == "codex-exec"
    if exec_events:
        detected = "codex"
    if detected == "gemini-log":
        # Read as Claude Code (its "type": "user"), it was a session of the prompts alone.
        if scanning:
            return None
        raise UsageError(f"{file}: Gemini CLI's prompt log (logs.json), not a session",
                         hint="analyze a session from ~/.gemini/tmp/<project_hash>/chats/ instead")
    if detected in _SELF_NAMED and fmt not in (None, detected) and not scanning:
        raise UsageError(f"{file}: {_with_article(_SELF_NAMED[detected])} session, not {fmt}",
                         hint=f"leave --input-format out: {_SELF_NAMED[detected]} sessions are recognised by themselves")
    if fmt in _SELF_NAMED and detected != fmt:
        # Their readers find nothing in another format's file (a JSON document included, which
        # _refuse_misfit does not sample): an empty session would say nothing was done. In a
        # folder scan such a file is passed by, as one of no format is.
        if scanning:
            return None
        raise UsageError(f"{file}: --input-format {fmt} does not fit: it is not {_with_article(_SELF_NAMED[fmt])} session "
                         f"(it reads as {detected})",
                         hint=f"leave --input-format out (or use --input-format {detected}) to read it as {detected}")
    if fmt is not None and scanning and recognized and _misfit(file, fmt, detected):
        # `analyze ~/.claude/projects/<p> --input-format claude-code` over a folder that also holds
        # a Codex rollout: read as forced, each of its records was of an unknown type, a session
        # of nothing beside the real ones. Passed by, as a file of no format is.
        return None
    if fmt is not None and not scanning and recognized:
        _refuse_misfit(file, fmt, detected)
        _refuse_on_event_stream(file, fmt, detected)
    elif fmt in _FITS and not scanning and detected == "text":
        _refuse_plain_text(file, fmt)
    if fmt is not None:
        # A forced family keeps what detection found of its variant (a codex exec stream
        # forced as codex); a forced variant is that variant whatever was found.
        if fmt == "openai":
            array = array or reader.layout(file) == "array"
        else:
            array = array and fmt == detected == "openhands"
        recording = fmt == "asciicast" or (recording and fmt == "text")
        marked = fmt == "specstory" or (marked and fmt == "text")
        exec_events = fmt == "codex-exec" or (exec_events and fmt == "codex")
        detected = {"codex-exec": "codex", "asciicast": "text", "specstory": "text"}.get(fmt, fmt)
    name = transcript_stem(file)
    if detected == "copilot" and name == "events":
        name = file.parent.name  # ~/.copilot/session-state/<sessionId>/events.jsonl
    elif detected == "grok" and unpacked_name(file.name) == grok_cli.TRANSCRIPT:
        name = file.parent.name  # ~/.grok/sessions/<workdir>/<sessionId>/chat_history.jsonl
    elif detected == "kimi" and (agent := _kimi_code_agent(file)) is not None and file.parent.parent.parent.name:
        # Kimi Code: ~/.kimi-code/sessions/<wd>/session_<id>/agents/<agent>/wire.jsonl (formats.kimi_code)
        session = file.parent.parent.parent.name
        name = session if agent == MAIN_AGENT else f"{session}-{agent}"
    elif detected == "kimi" and unpacked_name(file.name) == kimi_wire.TRANSCRIPT and file.parent.name:
        name = file.parent.name  # ~/.kimi/sessions/<work_dir_hash>/<sessionId>/wire.jsonl
    elif detected == "openai" and (rotated := _KIMI_CONTEXT.fullmatch(name)) and file.parent.name:
        # Kimi CLI: ~/.kimi/sessions/<work_dir_hash>/<sessionId>/context.jsonl, and context_N.jsonl
        # the history before a /clear or a revert (formats.kimi_cli)
        name = file.parent.name + (rotated.group(1) or "")
    elif detected == "openai" and file.name == f"{file.parent.name}{cline_task.SDK_MESSAGES}":
        name = file.parent.name  # the Cline CLI 3: sessions/<sessionId>/<sessionId>.messages.json
    elif detected == "openai" and file.name.endswith(cline_task.SDK_MESSAGES) \
            and (file.parent / f"{file.parent.name}{cline_task.SDK_MESSAGES}").is_file():
        # its sub-agent's or team task's <agentId>.messages.json beside it, named after the session
        name = f"{file.parent.name}-{file.name.removesuffix(cline_task.SDK_MESSAGES)}"
    elif detected == "openai" and name == cline_task.TRANSCRIPT_STEM and cline_task.is_task_folder(file.parent):
        name = file.parent.name  # Cline / Roo Code: tasks/<taskId>/api_conversation_history.json
    return SessionSource(id=name, path=file, format=detected, array=array, recording=recording,
                         exec_events=exec_events, specstory=marked)


def _damaged_format(file: Path) -> str | None:
    """The reader of a compressed session whose head does not decompress, told by its name alone:
    a Codex rollout, another JSONL transcript (read as Claude Code's), or a text log; None for a
    JSON document, which a scan reads only when its content shows a transcript."""
    plain = unpacked_name(file.name).lower()
    if plain.startswith("rollout-"):
        return "codex"
    return "claude-code" if plain.endswith(_JSON_LINES) else None if plain.endswith(".json") else "text"


_KIMI_CONTEXT = re.compile(r"context(_\d+)?")
"""Kimi CLI's history file, and the copies ``next_available_rotation`` makes of it
(MoonshotAI/kimi-cli ``src/kimi_cli/utils/path.py``: ``context_1.jsonl``, ``context_2.jsonl``)."""

_SELF_NAMED = {"gemini-cli": "Gemini CLI", "qwen-code": "Qwen Code", "pi": "Pi coding agent",
               "copilot": "GitHub Copilot CLI", "droid": "Factory Droid exec stream", "grok": "Grok CLI",
               "opencode": "OpenCode", "kimi": "Kimi CLI wire log"}
"""Formats whose records another format's reader takes for its own (a Qwen Code line is a
Claude Code envelope, a Gemini CLI session an OpenAI-like message list) and reads as an empty
session: forcing that other format on them is refused."""

def _with_article(name: str) -> str:
    return f"{'an' if name[:1] in 'AEIOU' else 'a'} {name}"  # "an OpenCode session"


_FITS = {
    "claude-code": claude_code.looks_like,
    "codex": lambda obj: codex.looks_like(obj) or codex_exec.looks_like(obj) or codex_exec.looks_like_legacy(obj),
    "codex-exec": lambda obj: codex_exec.looks_like(obj) or codex_exec.looks_like_legacy(obj),
    "openai": lambda obj: openai_chat.looks_like(obj) or openai_chat.looks_like_item(obj)
    or openai_chat.conversation(obj) is not None,
    "openhands": openhands.looks_like,
    "swe-agent": swe_agent.looks_like,
}
"""The records each JSONL format that can be forced is made of (its reader reads nothing else)."""
_FAMILY = {"codex-exec": "codex", "asciicast": "text", "specstory": "text"}


def _misfit(file: Path, fmt: str, detected: str) -> int:
    """How many of the file's first records were read, none of them of the forced format ``fmt``
    (0: one fits, or there is nothing to tell by)."""
    fits = _FITS.get(fmt)
    if fits is None or _FAMILY.get(detected, detected) == _FAMILY.get(fmt, fmt) or reader.layout(file) != "jsonl":
        return 0
    records = 0
    for obj in _head_records(file):
        if fits(obj):
            return 0
        records += 1
    return records


def _refuse_misfit(file: Path, fmt: str, detected: str) -> None:
    """A format forced on a file named on the command line whose records are all of another
    format: read as the forced one, every record was of an unknown type and the postmortem
    told of an empty session ("0 tool calls") instead of saying the format was wrong."""
    if records := _misfit(file, fmt, detected):
        raise UsageError(f"{file}: --input-format {fmt} does not fit: its records are {detected}'s (none of the "
                         f"first {records} is of the {fmt} format)",
                         hint=f"leave --input-format out (or use --input-format {detected}) to read it as {detected}")


def _refuse_on_event_stream(file: Path, fmt: str, detected: str) -> None:
    """A JSON format forced on a Responses API stream saved as server-sent events (``event:`` and
    ``data:`` lines, :mod:`formats.responses_stream`): read as that format, every line was broken
    JSON and the session empty."""
    if detected != "openai" or fmt in ("openai", "text"):
        return
    api = responses_stream.sse_api(responses_stream.head_of(file))
    if api is not None:
        raise UsageError(f"{file}: --input-format {fmt} does not fit: it is an {api} event stream "
                         "(server-sent events: data: lines)", hint="leave --input-format out (or use --input-format openai) "
                                                          "to read its calls and replies")


def _refuse_plain_text(file: Path, fmt: str) -> None:
    """A JSON format forced on a plain-text log named on the command line: read as that format,
    every line was counted as broken JSON and the postmortem told of an empty session, where
    the same format forced on another format's records is refused (:func:`_refuse_misfit`).
    A head with any line that opens a JSON record (a damaged JSONL file the person knows the
    format of) is read as forced; a log line's ``[2025-08-14 09:12:01]`` (SGLang's prefix)
    opens none."""
    lines = [line.lstrip() for line in read_head(file, _SNIFF_BYTES).splitlines()[:_SNIFF_LINES] if line.strip()]
    if not lines or any(line[:1] == b"{" or (line[:1] == b"[" and line[1:].lstrip()[:1] in (b"{", b""))
                        for line in lines):
        return
    raise UsageError(f"{file}: --input-format {fmt} does not fit: it is plain text (none of its first {len(lines)} "
                     f"line(s) is a JSON record)",
                     hint="leave --input-format out (or use --input-format text) to read it as a text log")


def _head_records(file: Path) -> Iterator[dict]:
    """The JSON objects of the first lines of a JSONL file."""
    for raw in read_head(file, _SNIFF_BYTES).splitlines()[:_SNIFF_LINES]:
        try:
            obj = _loads(raw)
        except ValueError:
            continue
        if isinstance(obj, dict):
            yield obj


def _refuse_untyped_records(file: Path) -> None:
    """A JSON file named on the command line that no format claims is read as Claude Code (a
    session whose first lines are of a new kind). Records with no ``type``, ``role`` or
    ``message`` at all belong to no transcript: the CLIs' prompt histories (Claude Code's
    ``~/.claude/history.jsonl`` is ``{display, pastedContents, timestamp, project}``, Codex's
    ``~/.codex/history.jsonl`` ``{session_id, ts, text}``: Sinity/polylogue
    ``docs/providers/openai-codex.md``) were read as an empty session, a postmortem of nothing.
    Nor do records whose ``type`` is no line type of Claude Code's, with none of its envelope
    keys (``sessionId``, ``uuid``): a program's own JSONL log, such as a hook's log of the
    events Claude Code sent it (``{"timestamp", "event": "PreToolUse", "type": "input" |
    "output" | "error", "data"}``, constellos/claude-code-plugins ``shared/hooks/utils/debug.ts``),
    was read as a session of that many lines of unknown type, and exit 0."""
    keys: set[str] = set()
    records = 0
    types: Counter[str] = Counter()  # the types of the records no transcript format knows
    for obj in _head_records(file):
        if {"role", "message", "messages"} & obj.keys() or claude_code.ENVELOPE_KEYS & obj.keys():
            return
        if "type" in obj:
            if claude_code.reads_line_type(obj["type"]):
                return
            types[str(obj["type"])[:40]] += 1
        elif "payload" in obj:
            return  # a rollout line in an envelope of a newer kind
        keys |= obj.keys()
        records += 1
    if not keys:
        return
    hook_log = _hook_log(file)
    if {"display", "project"} <= keys:
        hint = ("this is Claude Code's prompt history (~/.claude/history.jsonl): analyze a session file from "
                "~/.claude/projects/<project>/ instead")
    elif {"session_id", "text"} <= keys:
        hint = "this is Codex's prompt history (~/.codex/history.jsonl): analyze a rollout from ~/.codex/sessions/ instead"
    elif hook_log is not None:
        named = f" ({hook_log})" if hook_log else ""
        hint = ("this is a log of Claude Code's hook events, not the session: analyze the transcript its events "
                f"name{named}, a file of ~/.claude/projects/<project>/")
    else:
        hint = ("pass a Claude Code session (~/.claude/projects/<project>/<id>.jsonl), a Codex rollout, an OpenAI chat "
                "log or a text log, or force a format with --input-format")
    said = ", ".join(f"{t} ({n})" for t, n in types.most_common(5))
    what = (f"none of its first {records} record(s) is a line of a transcript; their types: {said}" if types
            else "its records have none of the fields of Claude Code, Codex or OpenAI chat records")
    raise UsageError(f"{file}: not a session transcript ({what})", hint=hint)


_HOOK_EVENTS = frozenset({
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "UserPromptSubmit", "Notification",
    "Stop", "SubagentStart", "SubagentStop", "PreCompact", "SessionStart", "SessionEnd"})
"""The names of Claude Code's hook events (code.claude.com/docs/en/hooks, as gnachman/iterm2
``ClaudeCodeHookEvent.swift`` models their payloads)."""


def _hook_log(file: Path) -> str | None:
    """Whether the head's records log Claude Code's hook events: a payload's ``hook_event_name``
    or ``transcript_path``, or an event name under ``event`` (oneryalcin/fasthooks
    ``src/fasthooks/logging.py`` flattens the payload so), at the top or one level down. The
    transcript path the events name ("" when none does); None for no hook log."""
    found = None
    for obj in _head_records(file):
        for record in (obj, *(v for v in obj.values() if isinstance(v, dict))):
            path = record.get("transcript_path")
            if isinstance(path, str) and path:
                return path
            if found is None and ("hook_event_name" in record or record.get("event") in _HOOK_EVENTS
                                  or record.get("hook_event") in _HOOK_EVENTS):
                found = ""
    return found


def _sqlite_store(file: Path, fmt: str | None, scanning: bool, store: tuple[str, list] | None) \
        -> SessionSource | None:
    """A SQLite file: Crush's, Goose's or OpenCode's session store, read a session at a time
    (:func:`_conversations`); any other database is no transcript. ``store``: its kind and
    sessions as the folder scan read them, a store known as such."""
    if store is not None:
        found, kind = store[1], store[0]
        name = _STORE_NAMES[kind]
    else:
        try:
            found, kind, name = _store_sessions(file)
        except crush.StoreError as exc:
            if scanning:
                return None
            _refuse_store(file, exc)
    if fmt not in (None, kind):
        if scanning:
            return None
        article = "an" if name[0] in "AEIOU" else "a"
        raise UsageError(f"{file}: {article} {name} session store, not {fmt}",
                         hint=f"leave --input-format out (or use --input-format {kind}): {name}'s stores are "
                              "recognised by themselves")
    return SessionSource(id=transcript_stem(file), path=file, format=kind, store_sessions=found)


_STORE_NAMES = {"crush": "Crush", "openai": "Goose", "opencode": "OpenCode"}


def _refuse_empty_store(path: Path) -> None:
    """A store named, or the one candidate of a folder named, that holds no session (Crush makes
    ``.crush/crush.db`` when it starts in a project, before any talk; a copy taken then is empty): one
    line that says so, not "no transcript files found" with a list of the formats expected. A folder's
    store that is locked or damaged says that (the store named says it before it gets here)."""
    try:
        _, _, name = _store_sessions(path)
    except crush.StoreError as exc:
        if exc.reason in ("locked", "damaged"):
            _refuse_store(path, exc)  # a folder's one store that could not be read says why
        return
    raise UsageError(f"{path}: {name}'s session store holds no session yet",
                     hint="name the store the sessions were written to (a later copy, or the one in use: it is opened "
                          "read-only)")


def _store_sessions(file: Path) -> tuple[list, str, str]:
    """The sessions of the SQLite file as Crush's, Goose's, Hermes Agent's or OpenCode's store, with
    its format and whose it is; :class:`crush.StoreError` when it is none of them (``foreign``: the
    first error, Crush's) or cannot be read."""
    first = None
    # Goose's sessions are OpenAI-like messages, as its earlier JSONL sessions are (formats.openai_chat);
    # Hermes Agent's are OpenAI chat messages, as its sessions' JSON logs hold them
    for kind, reader, name in (("crush", crush.sessions, "Crush"), ("openai", goose_store.sessions, "Goose"),
                               ("openai", hermes_store.sessions, "Hermes Agent"),
                               ("opencode", opencode_store.sessions, "OpenCode")):
        try:
            return reader(file), kind, name
        except crush.StoreError as exc:
            if exc.reason != "foreign":
                raise
            first = first or exc
    raise first


def _refuse_store(file: Path, exc: crush.StoreError) -> None:
    """One line for a SQLite file named that cannot be read: held by a writer, damaged, or no
    Crush store at all (each asks for something else)."""
    if exc.reason == "locked":
        raise UsageError(f"{file}: the SQLite database is locked by another program ({exc})",
                         hint=f"retry once it is done, or copy it with the files beside it (cp {file.name}* "
                              "elsewhere) and name the copy") from None
    if exc.reason == "damaged":
        raise UsageError(f"{file}: a damaged SQLite database ({exc})",
                         hint=f"check it (sqlite3 {file.name} 'PRAGMA integrity_check'), or name an earlier copy") \
            from None
    raise UsageError(f"{file}: an SQLite database that cannot be read as Crush's session store, Goose's, "
                     f"Hermes Agent's or OpenCode's ({exc})",
                     hint="name Crush's .crush/crush.db, Goose's ~/.local/share/goose/sessions/sessions.db, "
                          "Hermes Agent's ~/.hermes/state.db or OpenCode's ~/.local/share/opencode/opencode.db (a "
                          "copy is read as well: it is opened read-only), or export the session to JSON first") \
        from None


def _goose_imported(folder: Path, names: set[str], stores: dict[Path, tuple[str, list]]) -> set[str] | None:
    """The ids of the sessions in Goose's store when ``folder`` holds one (None when not): Goose
    imports its JSONL sessions into the store at its first start and leaves the files
    (``import_legacy`` in block/goose ``crates/goose/src/session/session_manager.rs``), so a
    session with both is read once, from the store. The list read is kept in ``stores`` for
    :func:`_source`: a store of thousands of sessions is no small query to make twice."""
    if goose_store.DB_NAME not in names or not crush.is_sqlite(db := folder / goose_store.DB_NAME):
        return None
    try:
        stores[db] = ("openai", goose_store.sessions(db))
    except crush.StoreError:
        return None
    return {s.id for s in stores[db][1]}


_HERMES_HOME = ".hermes"
_HERMES_HOME_FILES = frozenset({"config.yaml", "SOUL.md", ".env"})
_HERMES_HOME_FOLDERS = frozenset({"sessions", "logs", "memories", "skills", "cron", "profiles"})


def _hermes_home(folder: Path, names: set[str], folders: set[str], stores: dict[Path, tuple[str, list]],
                 profile: bool = False) -> list[Path] | None:
    """The sessions of Hermes Agent's home (``~/.hermes``, ``$HERMES_HOME``, a named profile's
    ``profiles/<name>/``) when ``folder`` is one: its store ``state.db``, the files of its
    ``sessions/`` the store does not hold (``session_<id>.json`` snapshots and gateway
    ``<id>.jsonl`` transcripts of releases before the store, or of sessions it lost), and each
    profile's the same way; its logs, skills, memories and config are no sessions. Hermes keeps
    every session in the store since it replaced the per-session files (its docs' "Session
    Storage"), and a profile is "a separate Hermes home directory" with its own store
    (``hermes profile create``). None when ``folder`` is no Hermes home: a folder holding a
    Hermes store and other things (an incident's bundle) has the store read
    (:func:`_session_files`) and the rest as well. The store's session list is kept in ``stores``.

    Before, the home was entered by its ``sessions/`` alone: a home of the store only was passed
    by (``spec-debug analyze ~``: "no transcript files found"; ``analyze ~/.hermes``: its
    ``logs/agent.log`` read as a shell session), and every profile's sessions were never read."""
    db = folder / hermes_store.DB_NAME
    held: set[str] | None = None
    if hermes_store.DB_NAME in names and crush.is_sqlite(db) and hermes_store.is_store(db):
        try:
            stores[db] = ("openai", hermes_store.sessions(db))
            held = hermes_store.session_ids(db)
        except crush.StoreError:
            stores.pop(db, None)
    # told by its place (a profile of a home read, one named in ~/.hermes/profiles/), else by its store
    placed = profile or folder.name == _HERMES_HOME \
        or (folder.parent.name == "profiles" and folder.parent.parent.name == _HERMES_HOME)
    if held is None:
        if not (placed and folders & {"sessions", "profiles"}):
            return None
    elif not (placed or folder.parent.name == "profiles" or names & _HERMES_HOME_FILES
              or folders & _HERMES_HOME_FOLDERS):
        return None
    found = [db] if held is not None else []
    if "sessions" in folders:
        for file in _session_files(folder / "sessions", stores):
            stem = transcript_stem(file)
            if held is None or (stem[len("session_"):] if stem.startswith("session_") else stem) not in held:
                found.append(file)
    if not profile and "profiles" in folders:
        try:
            homes = sorted(e.path for e in os.scandir(folder / "profiles") if e.is_dir(follow_symlinks=True))
        except OSError:
            homes = []
        for home in map(Path, homes):
            try:
                entries = list(os.scandir(home))
            except OSError:
                continue
            files = {e.name for e in entries if not e.is_dir()}
            inside = {e.name for e in entries if e.is_dir()}
            found.extend(_hermes_home(home, files, inside, stores, profile=True) or [])
    return found


def _opencode_home(data: Path, stores: dict[Path, tuple[str, list]]) -> list[Path]:
    """OpenCode's data folder in a home scan: its store and the sessions of its storage not
    copied into it (:func:`_opencode_data`), or its storage alone (a release before the store)."""
    try:
        names = {e.name for e in os.scandir(data) if e.is_file()}
    except OSError:
        return []
    found = _opencode_data(data, names, stores)
    if found is None and opencode.is_storage(storage := data / _OPENCODE_STORAGE.name):
        found = opencode.session_files(storage)
    return found or []


def _goose_sessions(folder: Path, stores: dict[Path, tuple[str, list]]) -> list[Path]:
    """Goose's sessions folder in a home scan: its store, and the JSONL sessions not imported into
    it; a Goose release from before the store keeps only JSONL sessions there (the files
    ``import_legacy`` reads at a later release's first start)."""
    try:
        names = {p.name for p in folder.iterdir()}
    except OSError:
        return []
    imported = _goose_imported(folder, names, stores) or set()
    store = [folder / goose_store.DB_NAME] if goose_store.DB_NAME in names else []
    return store + [folder / n for n in sorted(names) if n.endswith(".jsonl") and n[:-6] not in imported]


def _is_go_opencode_data(folder: Path) -> bool:
    """``.opencode/`` holding the store of OpenCode's Go releases (:data:`formats.crush.GO_OPENCODE_STORE`):
    a project's ``.opencode/`` of the later OpenCode holds its config, commands and plugins, no store."""
    return folder.name == crush.GO_OPENCODE_STORE.parent.name and crush.is_sqlite(folder / crush.GO_OPENCODE_STORE.name)


def _opencode_data(folder: Path, names, stores: dict[Path, tuple[str, list]]) -> list[Path] | None:
    """OpenCode's data folder (``~/.local/share/opencode``) when ``folder`` holds its store: the
    store, and the sessions of its ``storage/`` not copied into it (OpenCode's first start with the
    store copies them and leaves the files, anomalyco/opencode ``src/storage/json-migration.ts``);
    None when ``folder`` holds no OpenCode store."""
    found, imported = [], set()
    for name in sorted(n for n in names if opencode_store.STORE_NAME.fullmatch(n)):
        if not crush.is_sqlite(db := folder / name):
            continue
        try:
            stores[db] = ("opencode", opencode_store.sessions(db))
        except crush.StoreError:
            continue
        found.append(db)
        imported.update(s.id for s in stores[db][1])
    if not found:
        return None
    storage = folder / _OPENCODE_STORAGE.name
    if opencode.is_storage(storage):
        found.extend(f for f in opencode.session_files(storage) if f.stem not in imported)
    return found


def _conversations(source: SessionSource) -> list[SessionSource]:
    """``source``, or one session per conversation when it is a ChatGPT export
    (:mod:`formats.chatgpt_export`), or per instance when it is an OpenHands evaluation's output
    (:mod:`formats.openhands_eval`)."""
    if source.format == "openhands" and not source.array and source.path.is_file():
        return _instances(source)
    if source.format == "openai" and not source.array and not source.parts and source.records is None \
            and source.path.is_file() and (logged := _logged_conversations(source) or _trajectory_lines(source)):
        return logged
    if source.format == "crush" and source.store_session is None:
        # the list detection read (read once: a store of thousands of sessions is no small query);
        # a sub-agent's session is read as an agent of the session that started it
        return [SessionSource(id=s.id, path=source.path, format="crush", store_session=s.id, title=s.title,
                              store_children=children)
                for s, children in crush.linked(source.store_sessions)]
    if source.format == "opencode" and source.store_session is None and source.path.suffix != ".json" \
            and crush.is_sqlite(source.path):
        # OpenCode's store (formats.opencode_store): a sub-agent's session an agent of its parent's
        return [SessionSource(id=s.id, path=source.path, format="opencode", store_session=s.id, title=s.title,
                              store_children=children)
                for s, children in crush.linked(source.store_sessions)]
    if source.goose_store and source.store_session is None:
        # Goose's store (formats.goose_store): a session a row of its sessions table, a sub-agent's an
        # agent of the session that started it; Hermes Agent's (formats.hermes_store) as well, a
        # delegate_task sub-agent's an agent of the session that delegated
        if any(getattr(s, "parent", None) is not None for s in source.store_sessions):
            return [SessionSource(id=s.id, path=source.path, format="openai", store_session=s.id, title=s.title,
                                  store_children=children)
                    for s, children in crush.linked(source.store_sessions)]
        return [SessionSource(id=s.id, path=source.path, format="openai", store_session=s.id, title=s.title)
                for s in source.store_sessions]
    if source.format == "text" and not source.recording and not source.specstory and source.page_session is None \
            and source.path.suffix.lower() in (".html", ".md") and source.path.is_file() \
            and (_html_page if source.path.suffix.lower() == ".html" else _md_page)(source.path):
        try:
            page = claude_code_log_html if source.path.suffix.lower() == ".html" else claude_code_log_md
            found_sessions = page.page_sessions(source.path)
        except OSError:
            return [source]
        return [SessionSource(id=session.id, path=source.path, format="text", page_session=session, title=session.title)
                for session in found_sessions] or [source]
    if source.format == "openai" and source.array and source.conversation is None and source.path.is_file() \
            and (trajectories := _trajectory_array(source)):
        return trajectories
    try:
        if source.format != "openai" or not source.array or not chatgpt_export.is_export(source.path):
            return [source]
        found = chatgpt_export.conversations(source.path, source.id)
    except OSError:
        return [source]  # gone or failing since its head was read: iter_events reports it as damaged
    return [SessionSource(id=conv.id, path=source.path, format="openai", array=True, conversation=conv,
                          title=conv.title) for conv in found] or [source]


def _proxy_log_folders(sources: list[SessionSource]) -> list[SessionSource]:
    """The sources with each folder's files of one logged call each made one session a conversation
    (:func:`_conversations_of`). llm-debug
    (SingularityDAO-dev/tamashii-terminal ``llm-debug/app.py``, ``log_request_response``) writes each
    call it proxies to ``logs/<%Y-%m-%d_%H-%M-%S-%f>.json``, ``{"request": {method, url, headers,
    body}, "response": {...}}``, and each request resends the whole history: read as a session
    each, a run of n calls was n sessions, its first commands and errors counted n times. Read in
    the order of their times (:func:`formats.openai_chat.call_time`; of their names, the time each
    was written, where one has none) as the records of one log, each call is read once, as in a
    JSONL log of them (:func:`formats.openai_chat.read`). LiteLLM's S3 logger keeps a call the
    same way, one object each, ``<prefix>/<YYYY-MM-DD>/time-<HH-MM-SS-ffffff>_<id>``
    (BerriAI/litellm ``litellm/integrations/s3_v2.py``, the key from ``s3.get_s3_object_key``), its
    Azure Blob Storage logger as ``<YYYY-MM-DD>/<id>.json``, a folder of them when synced down."""
    by_folder: dict[Path, list[tuple[SessionSource, str | None]]] = {}
    openings: dict[Path, set[str]] = {}
    threads: dict[int, _Thread] = {}  # _conversations_of
    for source in sources:
        if source.format == "openai" and not source.array and (call := _logged_call(source.path)) is not None:
            folder = source.path.parent
            by_folder.setdefault(folder, []).append((source, openai_chat.call_time(call)))
            threads[id(source)] = thread = _thread(call)
            if _DAY_FOLDER.fullmatch(folder.name) and thread.opening is not None:
                openings.setdefault(folder, set()).add(thread.opening)
    _join_days(by_folder, openings)
    grouped: dict[int, SessionSource] = {}
    dropped: set[int] = set()
    for folder, timed in by_folder.items():
        if len(timed) < 2:
            continue
        if all(at is not None for _source, at in timed):
            # by when each call was made: LiteLLM's Azure Blob Storage logger names a call's file
            # by its id, a uuid4 (``<YYYY-MM-DD>/<id>.json``, BerriAI/litellm ``litellm/integrations/
            # azure_storage/azure_storage.py``), in no order of time; a name breaks a tie
            timed.sort(key=lambda c: (c[1], c[0].path.name))
        else:
            timed.sort(key=lambda c: (c[0].path.parent.name, c[0].path.name))
        conversations = _conversations_of([source for source, _at in timed], threads)
        for calls in conversations:
            first = calls[0]
            if len(calls) < 2:
                continue  # a call of a conversation of its own: read alone, as a folder's one call
            name = folder.name or first.id
            if len(conversations) > 1:  # named by the day (the folder) of its first call (_join_days)
                traces = {threads[id(s)][2] or threads[id(s)][1] for s in calls}
                name = first.path.parent.name + "#" + (traces.pop() if len(traces) == 1 and None not in traces
                                                       else first.id)
            grouped[id(first)] = SessionSource(id=name, path=first.path, format="openai",
                                               parts=[s.path for s in calls[1:]])
            dropped.update(id(s) for s in calls[1:])
    return [grouped.get(id(s), s) for s in sources if id(s) not in dropped]


def _logged_conversations(source: SessionSource) -> list[SessionSource] | None:
    """One session per conversation of a JSONL file of logged calls, or None where it holds one.
    dolphin-logger appends every call it passes to one file a day, ``<logs>/<uuid>.jsonl``
    (QuixiAI/dolphin-logger ``src/dolphin_logger/logging_utils.py`` ``get_current_log_file``;
    ``providers/openai.py`` writes ``{"request", "response"}`` a line), whichever agent made it:
    read as one log, two agents' runs were one session, each one's commands, prompts and errors
    the other's. Its calls are parted as a
    folder's files of one call each are (:func:`_conversations_of`); each session reads its lines
    alone, named ``<file>#<its first line>`` or by the session its requests name. A HAR capture of
    calls (:mod:`formats.har`) is parted the same way, its calls counted from 0 for lines."""
    try:
        head = read_head(source.path, 8192)
        records = reader.iter_json_records(source.path, ReadStats())
        if har.looks_like_head(head):
            # a HAR capture (mitmproxy's) of the calls of agents that worked through one proxy:
            # its calls counted in order (openai_chat._har_calls reads the same)
            logged = enumerate(c for _i, _line, document in records if isinstance(document, dict)
                               for c in har.calls(document) or () if openai_chat.is_proxied_call(c))
        elif _logged_call_head(head.lstrip()):
            logged = ((lineno, call) for _index, lineno, call in records)
        else:
            return None
        calls: list[tuple[int]] = []
        threads: dict[int, _Thread] = {}
        for lineno, call in logged:
            if not (openai_chat.is_proxied_call(call) or openai_chat.is_litellm_payload(call)):
                return None  # not a log of calls alone: read whole, as before
            calls.append(marker := (lineno,))
            threads[id(marker)] = _thread(call)
    except (OSError, ValueError):
        return None  # iter_events reports what is wrong with it
    conversations = _conversations_of(calls, threads) if len(calls) > 1 else [calls]
    if len(conversations) < 2:
        return None
    found = []
    for part in conversations:
        names = {threads[id(m)][2] or threads[id(m)][1] for m in part}
        name = names.pop() if len(names) == 1 and None not in names else str(part[0][0])
        found.append(SessionSource(id=f"{source.id}#{name}", path=source.path, format="openai",
                                   records=frozenset(m[0] for m in part)))
    return found


def _trajectory_lines(source: SessionSource) -> list[SessionSource] | None:
    """One session per line of a JSONL file of ShareGPT trajectories (:mod:`formats.sharegpt`),
    or None where it holds one (or is no such file). Hermes Agent's batch runner appends a
    trajectory a prompt it ran (``trajectory_samples.jsonl``, ``failed_trajectories.jsonl``), and a
    published set holds thousands of unrelated conversations: read as one session, each run's
    prompt, commands and failures were the runs' before it (the session's title the first run's, a
    second run's failing ``nvidia-smi`` a repeat of the first's). Each session reads its own bytes
    (:attr:`SessionSource.span`), named ``<file>#<its line>``: the file is read once in all. Told by
    the first line, a trajectory, and every other naming ``conversations`` in its head; a plain file
    only (a compressed or UTF-16 one is read whole, as before)."""
    try:
        if b'"conversations"' not in read_head(source.path, 4096) or kind_of_file(source.path) is not None:
            return None
        spans: list[tuple[int, int, int]] = []
        with open(source.path, "rb") as f:
            if f.peek(2)[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
                return None
            pos = line = 0
            while raw := f.readline(reader.MAX_LINE_BYTES + 1):
                start, pos, line = pos, pos + len(raw), line + 1
                if raw.isspace():
                    continue
                if not spans:
                    try:
                        first = json.loads(raw)
                    except (ValueError, RecursionError):
                        return None
                    if not (isinstance(first, dict) and sharegpt.is_trajectory(first)):
                        return None
                elif b'"conversations"' not in raw[:4096] or len(raw) > reader.MAX_LINE_BYTES:
                    return None  # another kind of line (or one cut): the file is read whole
                spans.append((start, pos, line))
    except OSError:
        return None  # iter_events reports what is wrong with it
    if len(spans) < 2:
        return None
    return [SessionSource(id=f"{source.id}#{line}", path=source.path, format="openai", span=(start, end, line))
            for start, end, line in spans]


def _trajectory_array(source: SessionSource) -> list[SessionSource] | None:
    """One session per element of a JSON array of ShareGPT trajectories (:mod:`formats.sharegpt`),
    or None where it holds one (or is no such array). Published sets are saved as one array
    (``[{"id", "conversations": [...]}, ...]``, the ShareGPT dumps SGLang's and vLLM's benchmarks
    load among them), and a list of Hermes runs as well: read as one session, each run's prompt,
    commands and failures were the runs' before it, as in :func:`_trajectory_lines`' JSONL. Each
    session is named ``<file>#<n>``, n its element's place (from 1: an array on one line has one
    line for all), its messages taken out of the file read once, as a ChatGPT export's
    (:mod:`formats.chatgpt_export`). An array with any other element is read whole, as before."""
    try:
        if b'"conversations"' not in read_head(source.path, 4096):
            return None
        stats = ReadStats()
        elements = reader.iter_json_array(source.path, stats)
        found: list[chatgpt_export.Conversation] = []
        for index, line, obj in elements:
            if not sharegpt.is_trajectory(obj):
                elements.close()
                return None
            found.append(chatgpt_export.Conversation(str(index + 1), "", line, sharegpt.messages(obj),
                                                     openai_chat.time_of(obj)))
    except (OSError, ValueError):
        return None  # iter_events reports what is wrong with it
    if len(found) < 2 or stats.non_object:
        return None
    found[-1].file_stats = stats
    return [SessionSource(id=f"{source.id}#{conv.id}", path=source.path, format="openai", array=True,
                          conversation=conv) for conv in found]


def _conversations_of(calls: list, threads: dict[int, _Thread]) -> list[list]:
    """The calls of one folder (in the order they were made; or of one file:
    :func:`_logged_conversations`) parted by the conversation each goes on, each part in that
    order. LiteLLM's bucket loggers file every call of a day in one folder, ``<YYYY-MM-DD>/``, whoever made it, and a logging proxy's ``logs/`` keeps every call it passed:
    read as one log, two agents' unrelated conversations were one session, their commands
    interleaved, each one's prompts and errors the other's. What tells a conversation: the first
    prompt each request of it sends again (:func:`_opening`), and LiteLLM's ``trace_id``, a call's
    own (a uuid4, shared by its retries and fallbacks: BerriAI/litellm ``litellm/types/utils.py``,
    ``StandardLoggingPayload``) unless the client named its session, as ``x-litellm-session-id``,
    ``x-litellm-trace-id`` or an agent's ``x-<vendor>-session-id`` (Claude Code's
    ``x-claude-code-session-id``) do for each call of it (``litellm/proxy/litellm_pre_call_utils.py``,
    ``get_chain_id_from_headers``). Calls that share either are of one conversation, and the
    conversation a request names (:func:`_named_session`) is its own, whatever its first prompt. A request
    that goes on from a compaction's summary (:data:`formats.openai_chat.COMPACTION_QUESTION`) is of
    the conversation of the call that wrote it (and the call that wrote it, where it writes the history
    out in its request, of the conversation whose first prompt that holds), and one that goes on from
    a response the Responses API keeps (``previous_response_id``: it sends only what is new) of the
    call that got it. A call that
    shares neither with another and names none (an agent's side call: a title, a token count, a
    summary) is no conversation of its own: it goes on the one of the call before it (after it,
    for the first)."""
    parent = list(range(len(calls)))
    # a session_id header only Codex's ``originator`` vouches for (_named_session): a client that
    # stamps each request with a fresh id of its own names no conversation by it, read as one it
    # parted a run in a session per call
    # parted a run in a session per call. Where another value recurs, the log's client keeps its
    # header for a whole conversation: a value sent once is then a conversation of one call, unless
    # another call sends its first prompt again (a fresh-stamping client's run beside it)
    told = Counter(threads[id(source)].named for source in calls if id(source) in threads)
    kept = any(isinstance(named, _HeaderSession) and n > 1 for named, n in told.items())
    opened = Counter(threads[id(source)].opening for source in calls if id(source) in threads) if kept else Counter()
    for source in calls:
        thread = threads.get(id(source), _NO_THREAD)
        if isinstance(named := thread.named, _HeaderSession) and told[named] < 2 \
                and not (kept and thread.opening is not None and opened[thread.opening] < 2):
            threads[id(source)] = thread._replace(named=None)

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    seen: dict[tuple[str, str], int] = {}
    for i, source in enumerate(calls):
        thread = threads.get(id(source), _NO_THREAD)
        opening, trace, named = thread.opening, thread.trace, thread.named
        for key in (("named", named) if named is not None else ("opening", opening), ("trace", trace)):
            if key[1] is None:
                continue
            if key in seen:
                parent[root(i)] = root(seen[key])
            else:
                seen[key] = i
    answered: dict[str, int] = {}  # a compaction's summary, the call that wrote it (_thread)
    responses: dict[str, int] = {}  # a Responses API response's id, the call that got it
    for i, source in enumerate(calls):
        thread = threads.get(id(source), _NO_THREAD)
        if thread.summary is not None and (j := answered.get(thread.summary)) is not None:
            parent[root(i)] = root(j)
        if thread.replay is not None and i:
            # a compaction call that writes the history out, "[User]: <first prompt>" in it: of the
            # conversation whose first prompt it holds, else of the call before it
            j = next((at for (kind, said), at in seen.items() if kind == "opening" and at < i
                      and f"[User]: {said}\n" in thread.replay), i - 1)
            parent[root(i)] = root(j)
        if thread.previous is not None and (j := responses.get(thread.previous)) is not None:
            parent[root(i)] = root(j)
        if thread.answer is not None:
            answered.setdefault(thread.answer, i)
        if thread.response is not None:
            responses.setdefault(thread.response, i)
    sizes = Counter(root(i) for i in range(len(calls)))
    named = [threads.get(id(source), _NO_THREAD).named is not None for source in calls]
    owners = [root(i) if sizes[root(i)] > 1 or named[i] else None for i in range(len(calls))]
    if all(owner is None for owner in owners):
        return [calls]
    for i in range(len(calls)):  # a call alone goes on the conversation before it
        if owners[i] is None and i and owners[i - 1] is not None:
            owners[i] = owners[i - 1]
    first = next(owner for owner in owners if owner is not None)
    parts: dict[int, list[SessionSource]] = {}
    for source, owner in zip(calls, owners):
        parts.setdefault(first if owner is None else owner, []).append(source)
    return list(parts.values())


def _join_days(by_folder: dict[Path, list], openings: dict[Path, set[str]]) -> None:
    """Moves into a day's folder of logged calls (``<YYYY-MM-DD>/``, LiteLLM's bucket loggers) the
    calls of the days after it, beside it, that go on one of its conversations: the loggers file a
    call by the day it was made (UTC: BerriAI/litellm ``litellm/integrations/gcs_bucket/gcs_bucket.py``,
    ``_get_object_name``), so a run over midnight was two sessions, the second day's first request
    resending the whole history; its commands, prompts and errors were counted twice. A
    conversation is told by its first prompt (:func:`_opening`)."""
    days = sorted(folder for folder in by_folder if folder in openings)
    into: Path | None = None
    for day in days:
        if into is not None and into.parent == day.parent and openings[day] & openings[into]:
            by_folder[into].extend(by_folder.pop(day))
            openings[into] |= openings[day]
        else:
            into = day


class _HeaderSession(str):
    """A ``session_id`` request header no client vouched for (:func:`_named_session`): a name of a
    conversation only where another call of the log sends it too (:func:`_conversations_of`)."""


class _Thread(NamedTuple):
    """What tells the conversation of a logged call (:func:`_conversations_of`)."""
    opening: str | None  # the first prompt (_opening)
    trace: str | None  # LiteLLM's trace_id
    named: str | None  # the session its request names (_named_session)
    answer: str | None  # the text of its answer
    summary: str | None  # the summary of a compaction it goes on from (openai_chat.COMPACTION_QUESTION)
    response: str | None = None  # the id of the Responses API response it got
    previous: str | None = None  # its request's previous_response_id: the response it goes on from
    replay: str | None = None  # the history a compaction call writes out (openai_chat.COMPACTION_REPLAY)


_NO_THREAD = _Thread(None, None, None, None, None)

_STREAMED_RESPONSE_ID = re.compile(r'"response"\s*:\s*\{\s*"id"\s*:\s*"([^"]+)"')
"""The response's id in the first event of a Responses API stream a proxy kept as text,
``response.created``: ``{"type": "response.created", ..., "response": {"id": "resp_...", ...}}``."""


def _response_id(call: dict) -> str | None:
    """The id of the Responses API response a logged call got, or None."""
    response = call.get("response")
    body = response if openai_chat.is_litellm_payload(call) else \
        response.get("body") if isinstance(response, dict) else None
    if isinstance(body, dict):
        found = body.get("id") if body.get("object") == "response" else None
    elif isinstance(body, str) and '"response.created"' in body[:4096]:
        found = (m.group(1) if (m := _STREAMED_RESPONSE_ID.search(body, 0, 4096)) else None)
    else:
        found = None
    return found if isinstance(found, str) and found else None


def _request_body(call: dict) -> dict | None:
    """A logged call's request body (LiteLLM's payload keeps it, but the prompt, as ``model_parameters``)."""
    if openai_chat.is_litellm_payload(call):
        body = call.get("model_parameters")
    else:
        request = call.get("request")
        body = request.get("body") if isinstance(request, dict) and isinstance(request.get("body"), dict) else request
    return body if isinstance(body, dict) else None


def _thread(call: dict) -> _Thread:
    """What tells the conversation of a logged call, its request and its answer (:class:`_Thread`)."""
    trace = call.get("trace_id") if openai_chat.is_litellm_payload(call) else None
    messages = openai_chat.conversation(call) or []
    last = messages[-1] if messages else None
    answer = block_text(last.get("content")).strip() if isinstance(last, dict) and last.get("role") == "assistant" \
        else ""
    # a token count, or Claude Code's side call (a probe, a title: openai_chat.is_claude_side_call), no
    # turn of the conversation: every run's alike ("quota", "Warmup") were a session of their own
    opening = None if openai_chat.counts_tokens(call) or openai_chat.is_claude_side_call(call, messages) \
        else _opening(messages)
    summary = None
    replay = None
    if opening is not None and opening.startswith(openai_chat.COMPACTION_REPLAY):
        opening, replay = None, opening  # no first prompt of the run: it is written out in the history
    elif opening == openai_chat.COMPACTION_QUESTION:
        said = next((m for m in messages if isinstance(m, dict) and m.get("role") in ("assistant", "user")
                     and block_text(m.get("content")).strip() != openai_chat.COMPACTION_QUESTION), None)
        if said is not None and said.get("role") == "assistant" and (text := block_text(said.get("content")).strip()):
            opening, summary = None, text
    body = _request_body(call) or {}
    previous = body.get("previous_response_id")
    return _Thread(opening, trace if isinstance(trace, str) and trace else None, _named_session(call),
                   answer or None, summary, _response_id(call), previous if isinstance(previous, str) and previous
                   else None, replay)


def _named_session(call: dict) -> str | None:
    """The conversation a logged call's request names. Codex sends its conversation id as the
    ``prompt_cache_key`` of each request (openai/codex ``codex-rs/core/src/client.rs``,
    ``stream_responses_api``), and each request of a Codex session opens with the same AGENTS.md and
    environment context, one first prompt for every session in a repository (:func:`_opening`).
    Claude Code names its session in ``metadata.user_id``, ``user_<hash>_account_<uuid>_session_<uuid>``
    or, newer, the JSON of ``{device_id, account_uuid, session_id}`` (starbaser/ccproxy
    ``src/ccproxy/hooks/extract_session_id.py``), one for its main conversation, its sub-agents' and
    its side calls. Qwen Code names its session in ``metadata.sessionId``. LiteLLM keeps these among
    the call's ``model_parameters`` (BerriAI/litellm
    ``litellm/litellm_core_utils/model_param_helper.py``, the request's parameters but its prompt)."""
    body = _request_body(call)
    if body is None:
        return None
    key = body.get("prompt_cache_key")
    if isinstance(key, str) and key:
        return key
    stored = body.get("conversation")
    stored = stored.get("id") if isinstance(stored, dict) else stored
    if isinstance(stored, str) and stored:
        # a conversation the Responses API keeps (the Conversations API's id, "conv_..."), which
        # the request continues: openai/openai-python src/openai/types/responses/
        # response_create_params.py, conversation: str | {id}
        return stored
    if not openai_chat.is_litellm_payload(call) and isinstance(request := call.get("request"), dict) \
            and isinstance(headers := request.get("headers"), dict) and headers:
        # Codex names its conversation in a request header too, ``session_id`` (openai/codex
        # codex-rs/codex-api/src/requests/headers.rs build_conversation_headers), the only name
        # its Chat Completions requests (``wire_api = "chat"``) carry: no prompt_cache_key there.
        # Its client sends ``originator`` with every request (codex-rs/core/src/default_client.rs,
        # create_client); another client's header names a conversation where it recurs (_HeaderSession)
        named = next((v for k, v in headers.items() if isinstance(k, str) and k.lower() == "session_id"), None)
        if isinstance(named, str) and named.strip():
            vouched = any(isinstance(k, str) and k.lower() == "originator" for k in headers)
            return named.strip() if vouched else _HeaderSession(named.strip())
    meta = body.get("metadata") if isinstance(body.get("metadata"), dict) else {}
    if isinstance(meta.get("sessionId"), str) and meta["sessionId"].strip():
        # Qwen Code's {sessionId, promptId} (QwenLM/qwen-code packages/core/src/core/
        # openaiContentGenerator/provider/dashscope.ts, buildMetadata): each of its requests opens
        # with the same context of the day and folder (utils/environmentContext.ts), no first prompt
        return meta["sessionId"].strip()
    user = meta.get("user_id")
    if not isinstance(user, str):
        return None
    if user.startswith("{"):
        try:
            user = json.loads(user).get("session_id")
        except (ValueError, AttributeError):
            return None
        return user if isinstance(user, str) and user else None
    _user, marked, session = user.rpartition("_session_")
    return (session or None) if marked else None


def _opening(messages: list) -> str | None:
    """The first prompt of the conversation a logged call sends (of its ``messages``: its first user
    message's text, without a prompt-cache marker), what each later request of it sends again; None
    without one.
    Aider's own messages around the chat (:mod:`formats.aider_context`) are no prompt: read
    as the first, its changing repository map cut one run in several conversations, and its
    constant words joined two runs in one. A history aider summarized opens with no prompt of the
    run: such a call goes on the conversation before it (:func:`_conversations_of`)."""
    for message in aider_context.without_context(messages):
        if isinstance(message, dict) and message.get("role") == "user":
            text = block_text(message.get("content")).strip()
            if openai_chat.is_cli_context(text):
                continue  # Qwen Code's own context of the day and folder, the same for each of its sessions
            if text.startswith(openai_chat.TITLE_REQUEST):
                # OpenCode's title call: the first prompt follows, in this message or the next
                text = text[len(openai_chat.TITLE_REQUEST):].strip()
                if not text:
                    continue
            return None if text.startswith(aider_context.SUMMARY) else text or None
    return None


def _logged_call(file: Path) -> dict | None:
    """The record ``file`` holds when it is one JSON document, a logging proxy's record of one call
    (:func:`formats.openai_chat.is_proxied_call`) or LiteLLM's (:func:`formats.openai_chat.
    is_litellm_payload`), else None. Parsed only where its head names a request or a call type."""
    if not unpacked_name(file.name).lower().endswith(".json") \
            and not ("." not in file.name and _DAY_FOLDER.fullmatch(file.parent.name)):
        return None  # LiteLLM's GCS logger names a call's object with no extension (_is_gcs_call)
    try:
        head = read_head(file, 4096)
        if b'"request"' not in head and b'"call_type"' not in head:
            return None
        records = list(islice(reader.iter_json_records(file, ReadStats()), 2))
    except (OSError, ValueError):
        return None
    if len(records) != 1:
        return None
    record = records[0][2]
    return record if openai_chat.is_proxied_call(record) or openai_chat.is_litellm_payload(record) else None


def _instances(source: SessionSource) -> list[SessionSource]:
    try:
        if not openhands_eval.looks_like_head(read_head(source.path, _SNIFF_BYTES).lstrip()):
            return [source]
        found = openhands_eval.instances(source.path, source.id)
    except OSError:
        return [source]  # gone or failing since its head was read: iter_events reports it as damaged
    return [SessionSource(id=instance.id, path=source.path, format="openhands", instance=instance)
            for instance in found] or [source]


def _nest_codex_threads(sources: list[SessionSource], keep: SessionSource | None = None) -> list[SessionSource]:
    """Codex writes each sub-agent thread to a rollout of its own, beside its parent's in the
    day folder; the child names its parent in ``session_meta`` (:class:`codex_threads.Thread`). A child
    whose parent is among the sources goes under it; one whose parent is not stays a session."""
    # A `codex exec --json` log is a parent too: its thread.started names its thread, and its
    # collab_tool_call spawn_agent items the threads it started (codex_threads.thread_of).
    rollouts = [s for s in sources if s.format == "codex"]
    for source in rollouts:
        source.thread = codex_threads.thread_of(source.path)
    # The auto-reviewer's threads (codex_threads._internal) are no work of the session's: left
    # out of a scan, and never nested as a sub-agent (one named alone is still read).
    internal = {id(s) for s in rollouts if s is not keep and s.thread is not None and s.thread.internal}
    if internal:
        sources = [s for s in sources if id(s) not in internal]
        rollouts = [s for s in rollouts if id(s) not in internal]
    if len(rollouts) < 2:
        _fork_origins_elsewhere(rollouts)
        return sources
    by_thread: dict[str, SessionSource] = {}
    for source in rollouts:
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
    _fork_origins_elsewhere(rollouts)
    return [s for s in sources if id(s) not in nested]


def _fork_origins_elsewhere(rollouts: list[SessionSource]) -> None:
    """A session forked (``/fork``, or Esc Esc to edit an earlier prompt) from one not among the
    sources (of another day: ``sessions/2026/05/12/`` and the fork in ``.../13/``): its origin's
    rollout is looked for in the same ``sessions/`` tree (and ``archived_sessions/`` beside it) by
    the thread id that ends its name, as Codex finds a thread's rollout (openai/codex
    ``codex-rs/core/src/rollout/list.rs`` ``find_thread_path_by_id_str``). Without it, the copy of
    the origin's history heading the fork was read as the fork's own work: its commands counted
    again, at the time of the fork."""
    found: dict[str, Path] | None = None
    for source in rollouts:
        thread = source.thread
        if source.forked_from is not None or thread is None or not thread.forked_from or thread.parent:
            continue
        if found is None:
            found = _rollouts_by_thread(source.path)
        origin = found.get(thread.forked_from.lower())
        if origin is not None and origin != source.path:
            source.forked_from = origin


_ROLLOUT_THREAD = re.compile(r"rollout-.*-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl",
                             re.IGNORECASE)


def _rollouts_by_thread(path: Path) -> dict[str, Path]:
    """The rollouts of the Codex home ``path`` lies in (``sessions/YYYY/MM/DD/rollout-<ts>-<id>.jsonl``,
    and ``archived_sessions/``), by thread id; none when ``path`` lies in no day folder and not in
    ``archived_sessions/`` (where Codex moves an archived rollout, a fork's too)."""
    day = path.parent
    if day.name == "archived_sessions":
        sessions = day.parent / "sessions"
    elif all(p.name.isdigit() for p in (day, day.parent, day.parent.parent)):
        sessions = day.parent.parent.parent
    else:
        return {}
    found: dict[str, Path] = {}
    for file in [*sorted(sessions.glob("[0-9]*/[0-9]*/[0-9]*/rollout-*.jsonl*")),
                 *sorted((sessions.parent / "archived_sessions").glob("rollout-*.jsonl*"))]:
        named = _ROLLOUT_THREAD.match(unpacked_name(file.name))
        if named is not None and file.is_file():
            found.setdefault(named.group(1).lower(), file)
    return found


def _nest_gemini_subagents(sources: list[SessionSource]) -> list[SessionSource]:
    """Gemini CLI records a sub-agent in ``chats/<parentSessionId>/<agentId>.jsonl``
    (:mod:`formats.gemini_agents`): one whose parent's recording is among the sources goes under
    it; one whose parent is not stays a session."""
    recordings = [s for s in sources if s.format == "gemini-cli"]
    if len(recordings) < 2:
        return sources
    by_id: dict[str, SessionSource] = {}
    for source in recordings:
        found = gemini_agents.header(source.path)
        if found is not None and found.kind != "subagent":
            by_id.setdefault(found.session_id, source)
    nested: set[int] = set()
    for source in recordings:
        folder = source.path.parent.name
        parent = by_id.get(folder)
        if parent is not None and parent is not source and gemini_agents.is_subagent_of(source.path, folder):
            parent.children.append(source)
            nested.add(id(source))
    return [s for s in sources if id(s) not in nested]


def _kimi_code_agent(path: Path) -> str | None:
    """The agent whose log ``path`` is in a Kimi Code session, ``<session>/agents/<agent>/wire.jsonl``
    (:mod:`formats.kimi_code`); None for any other file."""
    if unpacked_name(path.name) != kimi_wire.TRANSCRIPT or path.parent.parent.name != kimi_code.AGENTS_DIR:
        return None
    return path.parent.name


def _kimi_code_sub_agents(main: Path) -> list[Path]:
    """The logs of the sub-agents beside a Kimi Code session's main agent (``agents/<subagentId>/``)."""
    try:
        folders = sorted(main.parent.parent.iterdir())
    except OSError:
        return []
    return [wire for folder in folders if folder.name != main.parent.name
            and (wire := folder / kimi_wire.TRANSCRIPT).is_file()]


def _nest_kimi_code_agents(sources: list[SessionSource]) -> list[SessionSource]:
    """A Kimi Code session's sub-agents (``agents/<subagentId>/wire.jsonl`` beside ``agents/main/``)
    are agents of the session, read after its main agent (:func:`formats.kimi_wire.read_agents`),
    not sessions of their own; a sub-agent's log copied without the main one stays a session."""
    mains = {s.path.parent.parent: s for s in sources if s.format == "kimi" and _kimi_code_agent(s.path) == MAIN_AGENT}
    if not mains:
        return sources
    kept = []
    for source in sources:
        agent = _kimi_code_agent(source.path) if source.format == "kimi" else None
        main = mains.get(source.path.parent.parent) if agent not in (None, MAIN_AGENT) else None
        if main is None:
            kept.append(source)
        else:
            main.children.append(source)
    return kept


def _nest_opencode_sub_sessions(sources: list[SessionSource]) -> list[SessionSource]:
    """OpenCode's sub-agent sessions in its file storage (a session file whose ``parentID`` is
    another session of the scan, :func:`formats.opencode.parent_of`) are agents of the session the
    person started, read after it, each after its parent (:func:`formats.opencode.read_session`);
    as sessions of their own, their commands were in no task call. One whose parent is not in the
    scan stays a session."""
    files = {s.path.stem: s for s in sources if s.format == "opencode" and s.path.suffix == ".json"}
    parents = {sid: parent for sid, s in files.items() if (parent := opencode.parent_of(s.path)) in files}
    if not parents:
        return sources
    nested = set()
    for sid in sorted(parents, key=lambda i: files[i].path.name):  # ids ascend as they were made
        root, depth = parents[sid], 0
        while root in parents and depth < 64:
            root, depth = parents[root], depth + 1
        if root not in parents:  # a cycle of parents, which no OpenCode writes, stays sessions
            files[root].children.append(files[sid])
            nested.add(id(files[sid]))
    for source in files.values():
        source.children.sort(key=lambda c: c.path.name)
    return [s for s in sources if id(s) not in nested]


def _is_cline_sdk_main(source: SessionSource) -> bool:
    """The Cline CLI 3 session's own messages file, ``<sessionId>/<sessionId>.messages.json``."""
    return source.format == "openai" and source.path.name == f"{source.path.parent.name}{cline_task.SDK_MESSAGES}"


def _names(folder: Path) -> set[str]:
    try:
        return {p.name for p in folder.iterdir()}
    except OSError:
        return set()


def _nest_cline_sdk_agents(sources: list[SessionSource]) -> list[SessionSource]:
    """The Cline CLI 3's sub-agents' and team tasks' messages files (``<agentId>.messages.json``
    beside the session's own) are agents of the session, read after it
    (:func:`formats.cline_task.read_sdk_agents`); one copied without the session's file stays a session."""
    mains = {s.path.parent: s for s in sources if _is_cline_sdk_main(s)}
    if not mains:
        return sources
    kept = []
    for source in sources:
        main = mains.get(source.path.parent) if source.format == "openai" and source.path.name.endswith(
            cline_task.SDK_MESSAGES) and not _is_cline_sdk_main(source) else None
        if main is None:
            kept.append(source)
        else:
            main.children.append(source)
    return kept


def _with_sub_agent_rollouts(source: SessionSource) -> list[SessionSource]:
    """A rollout named on the command line, with the sub-agent rollouts beside it in its day
    folder (``sessions/YYYY/MM/DD/``) that descend from it, as Claude Code sub-agents come
    with their session file."""
    siblings = [source]
    for file in sorted(source.path.parent.glob("rollout-*.jsonl*")):
        plain = unpacked_name(file.name)
        if file == source.path or not file.is_file() or not plain.endswith(".jsonl"):
            continue
        if plain != file.name and file.with_name(plain).is_file():
            continue  # a compressed copy beside its rollout (gzip -k)
        siblings.append(SessionSource(id=transcript_stem(file), path=file, format="codex"))
    if len(siblings) == 1:
        source.thread = codex_threads.thread_of(source.path)
        _fork_origins_elsewhere(siblings)
        return [source]
    _nest_codex_threads(siblings, keep=source)
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


_COPY_ENDS = 64 * 1024
"""The bytes read at each end of a file to tell an identical copy (:func:`_without_identical_copies`)."""


def _without_identical_copies(sources: list[SessionSource]) -> tuple[list[SessionSource], list[Path]]:
    """The sources less the files that copy one already kept, byte for byte, and the copies left
    out. A home scan reads every CLI home (``~/.claude``, and ``~/.claude-backup`` made with
    ``cp -r``; a second ``CODEX_HOME``), and a session copied into two of them was read twice:
    its commands, errors and readings counted once per copy (resumed copies are told only within
    one folder, :func:`_without_resumed_copies`). A copy is the same session id and format, the
    same size, and the same first and last :data:`_COPY_ENDS` bytes (hashed only where id and
    size already agree, so a scan reads nothing more for sessions of their own). The first one
    found is kept. A file holding several sessions (an export's conversations, a store), and a
    session of several files (a proxy's folder of calls, whose first may be another run's), are left
    as they are."""
    by_size: dict[tuple[str, str, int], list[SessionSource]] = {}
    for source in sources:
        if source.conversation is not None or source.instance is not None or source.store_session is not None \
                or source.store_sessions or source.page_session is not None or source.parts:
            continue
        try:
            if source.path.is_file():
                by_size.setdefault((source.id, source.format, source.path.stat().st_size), []).append(source)
        except OSError:
            continue
    dropped: set[int] = set()
    for group in by_size.values():
        if len(group) < 2:
            continue
        seen: set[bytes] = set()
        for source in group:
            ends = _ends_digest(source.path)
            if ends is None:
                continue
            if ends in seen:
                dropped.add(id(source))
            seen.add(ends)
    if not dropped:
        return sources, []
    return [s for s in sources if id(s) not in dropped], [s.path for s in sources if id(s) in dropped]


def _ends_digest(path: Path) -> bytes | None:
    """A digest of the file's first and last :data:`_COPY_ENDS` bytes (None: unreadable)."""
    try:
        with path.open("rb") as f:
            head = f.read(_COPY_ENDS)
            size = f.seek(0, os.SEEK_END)
            f.seek(max(len(head), size - _COPY_ENDS))
            tail = f.read(_COPY_ENDS)
    except OSError:
        return None
    return hashlib.blake2b(head + b"\0" + tail, digest_size=16).digest()


def _without_resumed_copies(sources: list[SessionSource]) -> list[SessionSource]:
    claude = [s.path for s in sources if s.format == "claude-code"]
    if len(claude) < 2:
        return sources
    firsts = claude_layout.first_uuids(claude)
    held = claude_layout.resumed_copies(claude, firsts)
    if len(claude) - len(held) >= 2:
        heads = claude_layout.shared_heads(claude, held, firsts)
        forks: dict[tuple[Path, str], list[SessionSource]] = {}
        for source in sources:
            if source.format == "claude-code" and source.path in firsts and source.path not in held:
                forks.setdefault((source.path.parent, firsts[source.path]), []).append(source)
            if source.path in heads:
                source.copied_head = heads[source.path]
        for group in forks.values():
            if any(source.path in heads for source in group):
                # The one file that reads the shared head finds the sub-agents it started in the
                # folder of whichever session wrote them (a fork re-stamps the copied lines' sessionId).
                for source in group:
                    source.history_files += [other.path for other in group if other is not source]
    if not held:
        return sources
    by_path = {s.path: s for s in sources if s.format == "claude-code"}
    for copy, holder in sorted(held.items()):
        while holder in held:  # a session resumed twice: the last file holds both (sizes grow, no loop)
            holder = held[holder]
        by_path[holder].history_files.append(copy)
    return [s for s in sources if s.path not in held]


def _orphans_to_their_copy(sources: list[SessionSource]) -> list[SessionSource]:
    """A Claude Code session folder whose trunk is gone (its sub-agent files, read alone: the
    CLI's cleanup deletes ``<id>.jsonl`` after cleanupPeriodDays and leaves ``<id>/subagents/``,
    anthropics/claude-code issues #55407, #47717) and a session that copied that trunk's lines
    (``claude --resume``, whose first line keeps the old sessionId, or /branch's ``forkedFrom``):
    the copy reads the sub-agents its copied lines started from that folder
    (``formats.claude_session``), and the folder's files were read a second time as sessions of
    their own (their commands and errors counted twice). The copy now reads the whole folder
    (:attr:`SessionSource.history_files`), and its files are no sessions of their own."""
    orphans: dict[Path, list[SessionSource]] = {}
    for source in sources:
        if source.format == "claude-code" and transcript_stem(source.path).startswith("agent-") \
                and (folder := claude_layout.session_folder_of(source.path)) is not None \
                and not any(trunk.is_file() for trunk in claude_layout.trunk_candidates(folder)):
            orphans.setdefault(folder, []).append(source)
    if not orphans:
        return sources
    projects = {folder.parent for folder in orphans}
    copies: dict[Path, SessionSource] = {}
    for source in sources:
        if source.format == "claude-code" and source.path.parent in projects \
                and not transcript_stem(source.path).startswith("agent-") \
                and (origin := claude_layout.copied_from(source.path)) is not None \
                and (folder := source.path.parent / origin) in orphans:
            # the copy that reads the shared head (a fork of it starts after it: copied_head)
            if folder not in copies or copies[folder].copied_head and not source.copied_head:
                copies[folder] = source
    adopted: set[int] = set()
    for folder, copy in copies.items():
        copy.history_files.append(folder.parent / f"{folder.name}.jsonl")
        adopted.update(id(source) for source in orphans[folder])
    return [source for source in sources if id(source) not in adopted]


def _unique_ids(sources: list[SessionSource], root: Path) -> None:
    """Session ids are file stems (a Claude Code session id, a Codex rollout name); two logs of
    one name in different folders (``gpu01/notes.log``, ``gpu02/notes.log``) get their path."""
    stems = Counter(s.id for s in sources)
    for source in sources:
        if stems[source.id] > 1:
            relative = source.path.relative_to(root)
            if source.parts:  # a proxy's folder of calls (_proxy_log_folders): the folder's path
                source.id = relative.parent.as_posix()
                continue
            source.id = (relative.parent / transcript_stem(relative)).as_posix() + _in_file(source)
    # Still two of one id: one folder holds ``notes.log`` and ``notes.txt``; the names say it.
    ids = Counter(s.id for s in sources)
    for source in sources:
        if ids[source.id] > 1:
            source.id = source.path.relative_to(root).as_posix() + _in_file(source)


def _in_file(source: SessionSource) -> str:
    """What tells a conversation of an export from the file's others (two copies of one export
    hold the same conversation ids): ``#<conversation id>``."""
    if source.instance is not None:
        return f"#{source.instance.id}"
    if source.page_session is not None:
        return f"#{source.page_session.id}"
    if source.span is not None:
        return f"#{source.span[2]}"
    return f"#{source.conversation.id}" if source.conversation is not None else ""


def _session_files(root: Path, stores: dict[Path, tuple[str, list]]) -> list[Path]:
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        names = set(filenames)
        if openhands_sdk.EVENTS_DIR in dirnames and openhands_sdk.is_conversation(Path(dirpath)):
            # One session of many event files, not one session each (formats.openhands_sdk)
            found.append(Path(dirpath))
            dirnames[:] = []
            continue
        if (hermes_store.DB_NAME in names or os.path.basename(dirpath) == _HERMES_HOME) \
                and (hermes := _hermes_home(Path(dirpath), names, set(dirnames), stores)) is not None:
            found.extend(hermes)
            dirnames[:] = []
            continue
        home = _agent_home(names, set(dirnames), Path(dirpath).name, Path(dirpath).parent.name)
        if home is not None:
            dirnames[:] = sorted(home)  # only where the CLI keeps its transcripts
            found.extend(_linked_folders(dirpath, dirnames, stores))
            continue
        if opencode.is_storage(Path(dirpath), set(dirnames)):
            # OpenCode's storage/: a session is its session file with the messages and parts
            # filed apart from it (formats.opencode); those files are no sessions of their own.
            found.extend(opencode.session_files(Path(dirpath)))
            dirnames[:] = []
            continue
        if grok_cli.TRANSCRIPT in names and grok_cli.SIDECAR in names:
            # A Grok CLI session folder: chat_history.jsonl is the session; updates.jsonl the same
            # talk as streamed updates (formats.grok_cli); subagents/ and terminal/ no sessions
            # (a sub-agent's run is also a session folder of its own beside this one).
            found.append(Path(dirpath) / grok_cli.TRANSCRIPT)
            dirnames[:] = []
            continue
        if kimi_wire.TRANSCRIPT in names and any(_KIMI_CONTEXT.fullmatch(unpacked_name(n)[:-6]) for n in names
                                                  if unpacked_name(n).endswith(".jsonl")):
            # A Kimi CLI session folder: wire.jsonl records the whole session with its times,
            # context.jsonl (and context_N.jsonl) the same talk without them (formats.kimi_wire);
            # read both, each command was counted twice. An empty wire log leaves the context.
            wire = Path(dirpath) / kimi_wire.TRANSCRIPT
            if kimi_wire.has_records(wire):
                found.append(wire)
                dirnames[:] = []
                continue
            names.discard(kimi_wire.TRANSCRIPT)
            filenames = [n for n in filenames if n != kimi_wire.TRANSCRIPT]
        if kimi_wire.TRANSCRIPT in names and Path(dirpath).parent.name == kimi_code.AGENTS_DIR:
            # A Kimi Code agent's folder (session_<id>/agents/<agent>/): its wire.jsonl is the agent's
            # session; its plans/ (the plan Markdown, src/features/plan/planService.ts) are none
            found.append(Path(dirpath) / kimi_wire.TRANSCRIPT)
            dirnames[:] = [d for d in dirnames if d == kimi_code.AGENTS_DIR]
            continue
        if f"{os.path.basename(dirpath)}{cline_task.SDK_MESSAGES}" in names \
                and (cline_sdk := cline_task.sdk_session_files(Path(dirpath), names)) is not None:
            # A Cline CLI 3 session folder: its messages files are the talk; its .log transcripts,
            # manifest and hook telemetry no session of their own (formats.cline_task). Anything
            # else in the folder is read as anywhere.
            found.extend(cline_sdk)
            filenames = [n for n in filenames if not cline_task.is_sdk_artifact(n, os.path.basename(dirpath))]
            names = set(filenames)
        if _SESSION_ID.fullmatch(os.path.basename(dirpath)) and claude_layout.is_session_folder(Path(dirpath)):
            # A Claude Code session folder reached by the walk has no trunk beside it (one with its
            # trunk is passed by above: the trunk reads it). Its sub-agents are read alone, as when
            # the folder is named; before, subagents/ was passed by and their commands lost.
            found.extend(claude_layout.agent_files(Path(dirpath)))
        if crush.STORE in names and Path(dirpath).name == crush.DATA_DIR:
            # Crush's data folder: the sessions are in crush.db; its logs/ and config are none
            found.append(Path(dirpath) / crush.STORE)
            dirnames[:] = []
            continue
        if crush.GO_OPENCODE_STORE.name in names and _is_go_opencode_data(Path(dirpath)):
            # OpenCode's Go releases' data folder, as Crush's: its store; its logs and commands are none
            found.append(Path(dirpath) / crush.GO_OPENCODE_STORE.name)
            dirnames[:] = []
            continue
        if _is_copilot_session(Path(dirpath), names):
            # Copilot CLI's session folder: the session is events.jsonl; its plan.md, checkpoints/,
            # files/ (pasted attachments) and rewind-snapshots/ are no sessions, their shell
            # blocks commands nobody ran.
            found.append(Path(dirpath) / _COPILOT_EVENTS)
            dirnames[:] = []
            continue
        if ".local" in dirnames and (data := Path(dirpath) / opencode_store.HOME_DATA).is_dir():
            # the rest of ~/.local is passed by
            found.extend(_opencode_home(data, stores))
        if ".config" in dirnames and (xdg := Path(dirpath, *reversed(_XDG_CLAUDE))).joinpath("projects").is_dir():
            # Claude Code's XDG home, ~/.config/claude/projects (_XDG_CLAUDE): the rest of ~/.config
            # (other apps' configs and logs) is passed by
            found.extend(_session_files(xdg, stores))
        if ".local" in dirnames and (goose_sessions := Path(dirpath) / goose_store.HOME_STORE.parent).is_dir():
            found.extend(_goose_sessions(goose_sessions, stores))  # the rest of ~/.local is passed by
        # Cline's and Roo Code's tasks in the editors' storage, local or a remote server's; the rest is passed by
        found.extend(cline_task.home_tasks(Path(dirpath), dirnames))
        gemini_project = _is_gemini_project(names, set(dirnames))
        # A <sessionId>/ folder beside <sessionId>.jsonl holds sub-agents, not sessions.
        trunks = {unpacked_name(name) for name in names}
        dirnames[:] = sorted(
            d for d in dirnames
            if d not in _NOT_SESSION_DIRS and (not d.startswith(".") or _is_agent_home(Path(dirpath) / d)
                                               or (d == crush.DATA_DIR and (Path(dirpath, d, crush.STORE)).is_file())
                                               or _is_go_opencode_data(Path(dirpath, d)))
            and not d.endswith((".dist-info", ".egg-info"))
            and not (gemini_project and (d in _GEMINI_PROJECT_FOLDERS or _SESSION_ID.fullmatch(d)))
            and f"{d}.jsonl" not in trunks and not claude_layout.is_auto_memory(Path(dirpath) / d, names)
            and not (d == _OPENHANDS_COMPLETIONS and trunks & _OPENHANDS_EVAL_FILES)
        )
        found.extend(_linked_folders(dirpath, dirnames, stores, only_dot=True))
        # Told by the name first: a Path a folder costs a home scan of 35,000 files 7%
        imported = _goose_imported(Path(dirpath), names, stores) if goose_store.DB_NAME in names else None
        opencode_data = _opencode_data(Path(dirpath), names, stores) \
            if any(n.startswith("opencode") and n.endswith(".db") for n in names) else None
        if opencode_data is not None:
            # OpenCode's data folder: its store, and of storage/ only what the store lacks
            found.extend(opencode_data)
            if opencode.is_storage(Path(dirpath) / _OPENCODE_STORAGE.name):
                dirnames[:] = [d for d in dirnames if d != _OPENCODE_STORAGE.name]  # another storage/ is read
            filenames = [n for n in filenames if n not in {p.name for p in opencode_data}]
        day_folder = _DAY_FOLDER.fullmatch(os.path.basename(dirpath)) is not None
        for name in sorted(filenames):
            if name == crush.STORE or (name == goose_store.DB_NAME and imported is not None) \
                    or (name == hermes_store.DB_NAME and Path(dirpath, name) in stores):
                # Crush's store copied out of its .crush folder; Goose's; Hermes Agent's (_hermes_home)
                found.append(Path(dirpath) / name)
                continue
            if imported and name.endswith(".jsonl") and name[:-6] in imported:
                continue  # a Goose session of one file a session, imported into its store: read there
            plain = unpacked_name(name)  # session.jsonl.gz is read as session.jsonl
            if plain != name and plain in names:
                continue  # `gzip -k` kept both: the session once, from the plain file
            lower = plain.lower()
            if not lower.endswith(_SESSION_SUFFIXES) or lower.endswith(".meta.json"):
                if not (lower.endswith(".html") and _claude_code_log_html(Path(dirpath) / name, lower, trunks)) \
                        and not (day_folder and "." not in name and _is_gcs_call(Path(dirpath) / name)):
                    continue
            if lower.startswith(("readme", "license", "agent-")) or lower in _NOT_SESSION_FILES \
                    or plain in _INSTRUCTION_FILES or _project_doc(plain, lower):
                continue
            if lower.startswith(_RENDERED_PAGES) and lower.endswith((".md", ".json")) \
                    and _claude_code_log_page(Path(dirpath) / name, lower, trunks):
                continue  # claude-code-log's Markdown or JSON of the sessions beside it: read from their JSONL
            if lower.endswith(_SWE_AGENT_LOGS) and f"{plain.rsplit('.', 2)[0]}.traj" in trunks:
                continue  # the run's own logs beside its trajectory, which tells the session
            if lower.startswith("checkpoint-") and lower.endswith(".json") and "chats" in dirnames:
                continue  # Gemini CLI's /chat save: a copy of the history the chats/ recording holds
            if gemini_project and lower in _GEMINI_PROJECT_FILES:
                continue  # the prompts typed (logs.json), not a session
            found.append(Path(dirpath) / name)
    return found


_DAY_FOLDER = re.compile(r"\d{4}-\d{2}-\d{2}")
"""A day's folder of a LiteLLM bucket logger, ``<YYYY-MM-DD>/`` (:func:`_is_gcs_call`)."""


def _is_gcs_call(file: Path) -> bool:
    """Whether ``file``, a name with no extension in a day's folder, is LiteLLM's GCS logger's
    record of one call: it writes the call's StandardLoggingPayload as JSON to the object
    ``<YYYY-MM-DD>/<response id>`` (``failure-<hex>`` for a failed call), no extension (BerriAI/litellm
    ``litellm/integrations/gcs_bucket/gcs_bucket.py``, ``_generate_success_object_name``), so a bucket
    synced down (``gsutil rsync``) was "no transcript files found". Only the head is read, and only
    in a day's folder: a folder of programs or other files without extensions is passed by as before,
    and a pipe or socket is never opened (opening a pipe waits for a writer)."""
    try:
        if not file.is_file():
            return False
        head = read_head(file, 4096)
    except OSError:
        return False
    return head.lstrip()[:1] == b"{" and b'"call_type"' in head


def _linked_folders(dirpath: str, dirnames: list[str], stores: dict[Path, tuple[str, list]],
                   only_dot: bool = False) -> list[Path]:
    """The session files of the folders in ``dirnames`` that are symlinks, read where they point,
    and those taken out of ``dirnames``: the walk follows no link (a link loop must not be walked),
    so a CLI home linked from a dotfiles checkout (``~/.claude -> ~/dotfiles/claude``), or its
    transcript folder moved to another disk behind a link, was never entered. Only these: the
    dot-folders kept in ``dirnames`` are CLI homes (``only_dot``), and a CLI home's are its
    transcript folders; other linked folders (a dataset linked into the home) stay unentered."""
    found = []
    for d in [d for d in dirnames if (not only_dot or d.startswith(".")) and os.path.islink(os.path.join(dirpath, d))]:
        dirnames.remove(d)
        target, here = os.path.realpath(os.path.join(dirpath, d)), os.path.realpath(dirpath)
        if os.path.isdir(target) and os.path.commonpath([target, here]) != target:  # no link to a folder above
            found.extend(_session_files(Path(dirpath, d), stores))
    return found


_OPENCODE_STORAGE = Path(".local", "share", "opencode", "storage")
"""Where OpenCode keeps its sessions in a home folder (its XDG data folder; the path
jazzyalex/agent-sessions ``OpenCodeSessionParser.swift`` reads): a home scan reads them without
entering the rest of ``~/.local`` (installed tools, shell histories, other apps' data)."""


_SWE_AGENT_LOGS = (".debug.log", ".info.log", ".trace.log")
"""The logs SWE-agent writes beside ``<instance_id>.traj`` in the instance's output folder,
``<instance_id>.{trace,debug,info}.log`` (SWE-agent/SWE-agent ``sweagent/run/run_batch.py``
``_add_instance_log_file_handlers``): the run's own logging, not the session."""


_OPENHANDS_COMPLETIONS = "llm_completions"
_OPENHANDS_EVAL_FILES = frozenset({"output.jsonl", "metadata.json"})
"""An OpenHands evaluation's output folder holds ``metadata.json``, ``output.jsonl`` (the
sessions, :mod:`formats.openhands_eval`) and, with ``log_completions`` on, ``llm_completions/
<instance_id>/<model>-<time>.json``: one raw LLM request and response a file (``{"messages",
"response", "args", "kwargs", "timestamp", "cost"}``, All-Hands-AI/OpenHands ``openhands/llm/llm.py``
wrapper; folder set by ``evaluation/utils/shared.py`` ``update_llm_config_for_completions_logging``).
Each repeats the instance's conversation so far: not a session of its own."""


_NOT_SESSION_FILES = frozenset({"journal.jsonl", ".what-is-this.md"})
"""A Workflow run's journal (:mod:`formats.claude_layout`), and the note SpecStory writes into
its ``.specstory/`` folder beside ``history/``."""
_INSTRUCTION_FILES = frozenset({"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "AGENTS.override.md", "GEMINI.md",
                                "QWEN.md"})
"""The instructions an agent reads from the folder it works in, by their exact names: Claude
Code's memory files (code.claude.com docs, "Manage Claude's memory"), Codex's (developers.openai.com
``codex/guides/agents-md``: ``AGENTS.override.md``, then ``AGENTS.md``, in each folder), Gemini
CLI's and Qwen Code's context files. No session: a folder scan of a project read them as shell logs,
their example commands (``$ python -m sglang.launch_server ...``) as commands the session ran and
their rules ("Error: do not push to main") as errors. Matched case and all: a transcript someone
saved as ``claude.md`` is still read."""


_PROJECT_DOCS = frozenset({"changelog", "contributing", "code_of_conduct", "contributors", "authors", "security",
                           "maintainers", "governance"})
"""A project's own documents beside README and LICENSE (GitHub's community health files,
docs.github.com "Creating a default community health file": CONTRIBUTING, CODE_OF_CONDUCT,
SECURITY, SUPPORT, GOVERNANCE; keepachangelog.com's CHANGELOG), any case."""
_PROJECT_DOCS_UPPER = frozenset({"CHANGES", "NOTICE", "COPYING", "SUPPORT"})
"""The same, by names plain words too (``changes.md`` may be a transcript someone saved): only
spelt in capitals, as projects spell them."""


def _project_doc(plain: str, lower: str) -> bool:
    """``CHANGELOG.md``, ``CONTRIBUTING.md`` and the like in a folder scan: no session. A scan of
    a project folder read them as shell logs, the ``$ pip install -e .`` a CONTRIBUTING.md
    documents as a command the session ran, a changelog's "Fixed: RuntimeError ..." as its text.
    Named alone, such a file is still read."""
    stem, dot, suffix = plain.rpartition(".")
    if not dot or suffix.lower() not in ("md", "txt"):
        return False
    return stem.lower() in _PROJECT_DOCS or stem in _PROJECT_DOCS_UPPER


_RENDERED_PAGES = ("combined_transcripts", "session-", "index.")
"""The names of the pages daaain/claude-code-log writes into a project's folder of Claude Code
sessions (``combined_transcripts.md``, ``combined_transcripts.<variant>.md`` and, split in pages,
``combined_transcripts_2.md``; ``session-<sessionId>.md``) and into ``~/.claude/projects/``
(``index.md``, the list of projects), with ``--format md`` (its converter; README: "Process all
projects in ~/.claude/projects/ ... ~/.claude/projects/project-name/combined_transcripts.html"); the
same names end ``.json`` with ``--format json`` (``JsonRenderer``: ``{"version": ..., "title": ...,
"sessions": [...], "messages": [...]}``, indented, its messages the rendered tree; the index
``{"version": ..., "total_projects": ...}``)."""
_JSON_PAGE_HEAD = re.compile(rb'\{\s*"version":\s*"[^"\n]*",\s*"(?:title|total_projects)":')


def _claude_code_log_page(path: Path, lower: str, trunks: set[str]) -> bool:
    """A claude-code-log page (:mod:`formats.claude_code_log_md`) in a folder scan, beside the
    sessions it renders (or the index of projects): no session of its own. A scan of a project's
    folder read the session three times, from its JSONL, the combined page and the session's
    page, each command and error counted thrice. Named alone, such a page is still read."""
    if not lower.startswith("index.") and not any(n.endswith(".jsonl") for n in trunks):
        # the pages alone (copied out of the folder): they are the sessions, each once
        return lower.endswith(".md") and _shadowed_page(path, lower, trunks)
    if not lower.endswith(".json"):
        return _md_page(path)
    try:
        head = read_head(path, 128).removeprefix(codecs.BOM_UTF8).lstrip()
    except OSError:
        return False
    return _JSON_PAGE_HEAD.match(head) is not None  # JsonRenderer's first two keys, in its order


def _claude_code_log_html(path: Path, lower: str, trunks: set[str]) -> bool:
    """A claude-code-log HTML page, its default output (:mod:`formats.claude_code_log_html`), in a
    folder scan with no session's JSONL beside it (copied out of the folder, or the folder given
    alone): the pages are the sessions, and were passed by as no transcript. Each session once:
    its ``session-<id>.html`` where there are such pages, else the combined page(s)."""
    if not lower.startswith(_RENDERED_PAGES[:2]) or any(n.endswith(".jsonl") for n in trunks) \
            or not _html_page(path):
        return False
    return not _shadowed_page(path, lower, trunks)


def _shadowed_page(path: Path, lower: str, trunks: set[str]) -> bool:
    """A claude-code-log page, among pages alone, whose sessions another page beside it holds and
    is read instead, so that each session is read once: a combined page where there are session
    pages (of either format); a session's (or the combined) Markdown where its HTML is there; a
    variant (``session-<id>.agent.html``: ``--depth``/``--detail``; ``.compact.md``) where the plain
    page is, or a later-named variant of the same. A folder of the pages of both formats (``--format
    md`` after the default HTML, or ``--output DIR``) read each session twice, each variant once more."""
    stem = lower.split(".", 1)[0]
    own = _page_rank(lower)
    for name in trunks:
        other = name.lower()
        if other == lower or not other.endswith((".html", ".md")) or not other.startswith(_RENDERED_PAGES[:2]):
            continue
        other_stem = other.split(".", 1)[0]
        covers = (lower.startswith(_RENDERED_PAGES[0]) and other.startswith("session-")) or (
            other_stem == stem and _page_rank(other) < own)
        if covers and (_html_page if other.endswith(".html") else _md_page)(path.parent / name):
            return True
    return False


def _page_rank(lower: str) -> tuple[bool, bool, str]:
    """Which of a session's pages is read (the least): the plain page before a variant, the HTML
    (its statuses and call ids written out) before the Markdown, then by name."""
    return lower.count(".") > 1, not lower.endswith(".html"), lower


def _md_page(path: Path) -> bool:
    """A claude-code-log Markdown page: its stamp first (:data:`claude_code_log_md.GENERATED`)."""
    try:
        return read_head(path, 128).removeprefix(codecs.BOM_UTF8).lstrip().startswith(
            claude_code_log_md.GENERATED.encode())
    except OSError:
        return False


def _html_page(path: Path) -> bool:
    """The doctype, then claude-code-log's stamp (``transcript.html``'s first two lines), or the
    head of a 0.2.x page, which has no stamp (:func:`claude_code_log_html.looks_like`)."""
    try:
        head = read_head(path, 256).removeprefix(codecs.BOM_UTF8).lstrip()
    except OSError:
        return False
    return head[:15].lower() == b"<!doctype html>" and (
        claude_code_log_md.GENERATED.encode() in head
        or claude_code_log_html.looks_like(head.decode("utf-8", "replace").splitlines()))


def _agent_home(files: set[str], folders: set[str], name: str = "", parent: str = "") -> set[str] | None:
    """The transcript folders of a CLI's home folder, when PATH is (or holds) one: everything
    else there (settings, instructions, agent and command definitions in Markdown, logs) is no
    session. Claude Code keeps sessions in ``~/.claude/projects/``; Codex in ``~/.codex/sessions/``
    and ``archived_sessions/`` beside ``config.toml``, ``auth.json``, ``history.jsonl`` and
    ``log/codex-tui.log`` (TRANSCRIPTS.md section 1; Sinity/polylogue
    ``docs/providers/openai-codex.md``)."""
    if folders & _AGENT_HOME_NAMES:
        # The folder holding a CLI's home (~ with .claude/ or .codex/) is the user's home, never
        # a CLI's own: ~ with a sessions/ and a log/ of the user's was taken for Codex's home,
        # ~/sessions/ read alone and ~/.codex, ~/.claude passed by.
        return None
    if name == ".factory" and folders & _FACTORY_FOLDERS:
        # Before Claude Code's rule: its settings.json beside projects/ took Factory's home for
        # Claude's, and sessions/ (where interactive sessions are kept) was passed by.
        return _FACTORY_FOLDERS & folders
    if "projects" in folders and (
            name == ".claude" or (name, parent) == _XDG_CLAUDE or files & _CLAUDE_HOME_FILES
            or folders & _CLAUDE_HOME_FOLDERS
            or (files & _CLAUDE_NAMED_HOME_FILES and name.lstrip(".").lower().startswith("claude"))):
        # By its name too, as Codex's: a copy of ~/.claude/projects alone (settings and
        # credentials left out) was passed by as a project's own .claude/, which has no projects/.
        return {"projects"}
    if ("sessions" in folders or "archived_sessions" in folders) \
            and (files & _CODEX_HOME_FILES or "log" in folders or name in _SESSIONS_HOMES):
        # archived_sessions/ alone tells Codex's home too: the archived rollouts copied without
        # sessions/ were passed by with the dot-folder
        return {"sessions", "archived_sessions"} & folders
    if ("tmp" in folders or "projects" in folders) and (name in (".gemini", ".qwen") or files & _GEMINI_HOME_FILES):
        # Gemini CLI keeps each project's sessions in ~/.gemini/tmp/<project_hash>/chats/ (its
        # instructions, GEMINI.md, were read as a shell log); Qwen Code in ~/.qwen/projects/
        # (above, as Claude Code's) or ~/.qwen/tmp/ in older releases.
        return {"tmp", "projects"} & folders
    if name == _HERMES_HOME and (hermes_store.DB_NAME in files or "profiles" in folders):
        # Hermes Agent's home of the store, or of profiles: entered from a home scan, read by
        # _hermes_home (was entered by its sessions/ alone)
        return {"sessions", "profiles"} & folders
    if name == ".openhands" and "conversations" in folders:
        # The OpenHands CLI (V1): ~/.openhands/conversations/<id>/ (formats.openhands_sdk); its
        # settings, MCP config and agent definitions beside it are no session.
        return {"conversations"}
    if name == ".pi" and "agent" in folders:
        return {"agent"}  # the Pi coding agent: ~/.pi/agent/ (a project's .pi/ has no agent/)
    if name == "agent" and parent == ".pi" and "sessions" in folders:
        # ~/.pi/agent/sessions/--<cwd>--/*.jsonl beside settings.json, auth.json, models.json,
        # prompts/, skills/, extensions/, themes/ (badlogic/pi-mono packages/coding-agent docs):
        # the Markdown there is no session.
        # Told by its parent: a project's own agent/ folder with sessions/ and prompts/ beside
        # its notes is no Pi home, and all of it is read.
        return {"sessions"}
    if "session-state" in folders and (name == ".copilot" or files & _COPILOT_HOME_FILES
                                       or ("config.json" in files and "logs" in folders)):
        # GitHub Copilot CLI: sessions in ~/.copilot/session-state/<id>/events.jsonl; its logs/
        # (the process's own log files) and config are no session. A logs/ folder alone does not
        # tell its home: an incident's bundle may hold a copied session-state/ beside its own
        # logs/ and sessions, all of them read.
        return {"session-state"}
    return None


_XDG_CLAUDE = ("claude", ".config")
"""Claude Code's home in the XDG place, ``~/.config/claude/`` (its name and its parent's): newer
releases keep ``projects/`` there, older ones in ``~/.claude/``; ryoppippi/ccusage scans both
(TRANSCRIPTS.md section 1a), as janekbaraniewski/openusage and siftd do."""


_SESSIONS_HOMES = frozenset({".codex", ".kimi", ".factory", ".grok", ".continue", ".kimi-code", ".hermes"})
"""Homes that keep their transcripts in ``sessions/``, told by name when their config files were
not copied: Kimi CLI's ``~/.kimi/sessions/<work_dir_hash>/<session_id>/context.jsonl``
(MoonshotAI/kimi-cli ``wiki/context-management.md``, ``src/kimi_cli/share.py``), Factory Droid's
``~/.factory/sessions/<cwd slug>/<session_id>.jsonl`` beside ``<session_id>.settings.json``, Grok
CLI's ``~/.grok/sessions/<workdir>/<session_id>/chat_history.jsonl`` (formats.grok_cli), Continue's
``~/.continue/sessions/<sessionId>.json`` (formats.continue_session; its dev_data/, index/ and logs/
are no sessions), Kimi Code's ``~/.kimi-code/sessions/<wd>/session_<id>/agents/<agent>/wire.jsonl``
(formats.kimi_code; its config.toml, hooks/ and agents/ definitions beside are none), Hermes Agent's
``~/.hermes/sessions/`` (its snapshots ``session_<id>.json`` and gateway transcripts ``<id>.jsonl``;
its logs/, skills/, memories/ and config.yaml are none; a home with its store state.db, or with
profiles/, is read by _hermes_home)."""
_FACTORY_FOLDERS = frozenset({"sessions", "projects"})
"""Factory Droid's transcript folders in ``~/.factory`` (beside its settings.json): ``sessions/<cwd
slug>/<id>.jsonl`` and ``projects/<workspace slug>/<id>.jsonl`` (the two places
yigitkonur/cli-continues ``src/parsers/droid.ts`` and jazzyalex/agent-sessions
``DroidSessionDiscovery.swift`` read; the latter finds ``droid exec`` stream-json logs there too)."""
_AGENT_HOME_NAMES = frozenset({".claude", ".codex", ".gemini", ".qwen", ".copilot", ".kimi", ".factory",
                               ".grok", ".pi", ".continue", ".openhands", ".kimi-code", ".hermes"})
"""The dot-folders a CLI keeps its sessions in, entered by a folder scan of a home folder (``spec-debug
analyze ~``) where other dot-folders (.git, .cache, .venv) are passed by."""


def _is_agent_home(folder: Path) -> bool:
    """``folder`` is a CLI's home (``~/.claude``, ``~/.codex``...), told by its name and what it
    holds (:func:`_agent_home`): a project's own ``.claude/`` (commands and agents in Markdown, no
    ``projects/``) is still passed by."""
    if folder.name not in _AGENT_HOME_NAMES and folder.name.split("-")[0].split("_")[0] not in _AGENT_HOME_NAMES:
        # .claude-work (CLAUDE_CONFIG_DIR), .codex_work (CODEX_HOME): a second account's home,
        # told by its files below, never by the name alone
        return False
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return False
    files = {e.name for e in entries if not e.is_dir()}
    folders = {e.name for e in entries if e.is_dir()}
    return _agent_home(files, folders, folder.name, folder.parent.name) is not None


_COPILOT_HOME_FILES = frozenset({"mcp-config.json", "command-history-state.json"})
_CLAUDE_HOME_FILES = frozenset({".credentials.json", "history.jsonl"})
_CLAUDE_NAMED_HOME_FILES = frozenset({"settings.json", "settings.local.json", "CLAUDE.md"})
"""Files a Claude home holds that other folders hold too: ``CLAUDE.md`` is the instructions
``/init`` writes into the folder Claude Code ran in (a user's home, a monorepo), and settings
files are any tool's. Beside a ``projects/`` of code they tell a home only in a folder named for
Claude (``.claude-backup``, ``claude-work``): ``~`` with ``CLAUDE.md`` and ``~/projects/`` was taken
for Claude's home, and the scan read ``~/projects/`` alone, ``~/.claude`` passed by."""
_CLAUDE_HOME_FOLDERS = frozenset({"todos", "statsig", "shell-snapshots", "plugins", "file-history", "session-env"})
_CODEX_HOME_FILES = frozenset({"config.toml", "auth.json", "history.jsonl", "version.json"})
_GEMINI_PROJECT_FILES = frozenset({"logs.json", "shell_history"})
_GEMINI_PROJECT_FOLDERS = frozenset({"tool-outputs", "logs"})
_COPILOT_EVENTS = "events.jsonl"


def _is_copilot_session(folder: Path, files: set[str]) -> bool:
    """A Copilot CLI session folder (``~/.copilot/session-state/<sessionId>/``): ``events.jsonl``
    beside the session's ``workspace.yaml``, or under ``session-state/`` (the layout a
    published map of ``~/.copilot`` shows: also ``plan.md``, ``checkpoints/<NNN>-<slug>.md``,
    ``files/``, ``rewind-snapshots/index.json``)."""
    return _COPILOT_EVENTS in files and ("workspace.yaml" in files or folder.parent.name == "session-state")


_SESSION_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _is_gemini_project(files: set[str], folders: set[str]) -> bool:
    """A Gemini CLI project folder (``~/.gemini/tmp/<project_hash>/``): its sessions are in
    chats/; logs/ holds activity logs, tool-outputs/ the full output of calls whose result was
    cut, ``<sessionId>/`` a session's files (google-gemini/gemini-cli
    ``packages/core/src/utils/sessionOperations.ts``), logs.json the prompts typed. Those are no
    sessions. It is told by a file or folder only Gemini CLI names so (logs.json, shell_history,
    tool-outputs/): a bundle of an incident's files with a chats/ and a logs/ folder of its own is
    no project folder, and its other files and logs/ are still read."""
    return "chats" in folders and bool(files & _GEMINI_PROJECT_FILES or "tool-outputs" in folders)
_GEMINI_HOME_FILES = frozenset({"installation_id", "google_accounts.json", "oauth_creds.json"})
"""Files only ``~/.gemini`` (or a copy of it under another name) holds: the install's id and the
Google login (google-gemini/gemini-cli ``packages/core/src/config/storage.ts``); a project may
have its own ``GEMINI.md`` and ``settings.json`` in ``.gemini/``, beside a ``tmp/`` of its own."""


def detect_format(path: Path) -> tuple[str, bool]:
    """Sniff the head of a file: ``(format, is_json_array)``."""
    detected, array, _ = _sniff(path)
    return {"asciicast": "text", "codex-exec": "codex", "specstory": "text"}.get(detected, detected), array


def _compression(path: Path) -> str | None:
    """The kind of archive ``path`` is, when it cannot be read as a transcript: zip, zstd
    without the ``zstd`` command, or a tar archive, compressed or not (``tar czf
    sessions.tgz ~/.claude/projects``: many files in one). Other compressed files are read
    through (:mod:`formats.compressed`)."""
    with open(path, "rb") as f:
        head = f.read(8)
    if head.startswith(_ZIP_MAGIC):
        return "zip"
    if head.startswith(_ZSTD_MAGIC) and not readable("zstd"):
        return "zstd"
    if read_head(path, _TAR_MAGIC_AT + 8)[_TAR_MAGIC_AT:_TAR_MAGIC_AT + 5] == b"ustar":
        return "tar"
    return None


def _marked_markdown_reader(path: Path):
    """The reader of a Markdown transcript with its roles marked (detected as ``specstory``):
    OpenCode's export, a Cline or Roo Code export, else SpecStory's; from one read of the
    file's head (decompressed, after a byte-order mark and blank lines)."""
    try:
        head = read_head(path, _SNIFF_BYTES, []).removeprefix(codecs.BOM_UTF8).lstrip()
    except OSError:
        return specstory  # gone since it was found: its reader reports it as damaged
    return opencode_export if opencode_export.looks_like(head) else \
        cline_export if cline_export.looks_like(head) else specstory


_CONTINUE_INDEX = "continue-index"
"""What :func:`_sniff` calls Continue's ``sessions.json`` (:mod:`formats.continue_session`)."""


def _loads(raw: bytes) -> object:
    """A head line's JSON value, a line with a cp1252 byte or two as the reader decodes it
    (reader.decode_json): a JSONL file written in Windows' code page whose every line has an accent
    ("démarre", "accéder") was sniffed as a text log, its calls no command. A line nested deeper
    than the decoder recurses (thousands of "[") is no record: ValueError, as for any broken line
    (was a RecursionError that ended the analysis)."""
    try:
        return json.loads(raw)
    except UnicodeDecodeError:
        return reader.decode_json(raw)
    except RecursionError:
        raise ValueError("nested too deep") from None


_PROXIED_CALL_HEAD = re.compile(rb'\{\s*"request"\s*:\s*\{')
_SHAREGPT_HEAD = re.compile(rb'\{\s*"conversations"\s*:\s*\[\s*\{\s*"from"\s*:')


def _logged_call_head(head: bytes) -> bool:
    """``head`` opens a logged call: a logging proxy's ``{"request": {...}, "response": {...}}``
    (llm-debug, SingularityDAO-dev/tamashii-terminal ``llm-debug/app.py``; dolphin-logger,
    QuixiAI/dolphin-logger: :func:`formats.openai_chat.is_proxied_call`), or LiteLLM's
    StandardLoggingPayload, whose ``call_type`` comes before its ``messages`` and ``response``
    (``StandardLoggingPayload(id=..., litellm_call_id=..., trace_id=..., call_type=..., ...)`` in
    BerriAI/litellm ``litellm/litellm_core_utils/litellm_logging.py``)."""
    if _PROXIED_CALL_HEAD.match(head):
        return True
    at = head.find(b'"call_type"', 0, 4096) if head[:1] == b"{" else -1
    return at > 0 and b'"messages"' not in head[:at]


def _sniff(path: Path, unreadable: list[str] | None = None) -> tuple[str, bool, bool]:
    """``(format, is_json_array, recognized)``: recognized is False when nothing in the head
    looked like a transcript line (the format is then a fallback guess)."""
    head = read_head(path, _SNIFF_BYTES, unreadable)  # decompressed (gzip, bzip2, xz)
    if head[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        # PowerShell's ">" (see reader.is_utf16); the window may end inside a character.
        head = head.decode("utf-16", "replace").encode("utf-8", "surrogatepass")
    head = head.removeprefix(codecs.BOM_UTF8)  # Windows editors save UTF-8 with a byte-order mark
    stripped = head.lstrip()
    if not stripped:
        return "text", False, False
    if stripped[:1] == b"{" and asciicast.looks_like_v1_head(stripped):
        return "asciicast", False, True  # one JSON document, read whole (formats.asciicast)
    if stripped[:1] == b"{" and har.looks_like_head(stripped):
        return "openai", False, True  # a proxy's HTTP Archive of the agent's calls (formats.har)
    if stripped[:1] not in (b"[", b"{") and responses_stream.looks_like_sse(stripped):
        return "openai", False, True  # an OpenAI event stream saved by curl -N (formats.responses_stream)
    if stripped[:1] not in (b"[", b"{") and (specstory.looks_like(stripped) or opencode_export.looks_like(stripped)
                                             or cline_export.looks_like(stripped)):
        # Markdown with its roles marked: SpecStory's, OpenCode's transcript, a Cline or Roo Code export
        return "specstory", False, True
    if stripped[:1] == b"{" and openhands.looks_wrapped(stripped):
        return "openhands", True, True
    if stripped[:1] == b"{" and swe_agent.looks_like_head(stripped):
        return "swe-agent", False, True
    if stripped[:1] == b"{" and openhands_eval.looks_like_head(stripped):
        return "openhands", False, True  # an evaluation's output.jsonl, one instance a line
    if stripped[:1] == b"{" and gemini_cli.looks_like_head(stripped):
        return "gemini-cli", False, True  # read as OpenAI chat or Claude Code: no command, no error
    if stripped[:1] == b"{" and continue_session.looks_like_head(stripped):
        return "openai", False, True  # a Continue session: one JSON document (formats.continue_session)
    if stripped[:1] == b"[" and continue_session.looks_like_index(stripped):
        return _CONTINUE_INDEX, False, False  # Continue's list of its sessions (sessions.json): no transcript
    if reader.LOGLINES.match(stripped):
        return "claude-code", False, True  # a Claude Code web session: its records under "loglines"
    if reader.CODEX_TS_ROLLOUT.match(stripped):
        return "codex", False, True  # a TypeScript Codex CLI's rollout: {session, items} in one document
    lines = stripped.splitlines()
    first = lines[0]
    verdict, records = _sniff_spread(stripped, lines)
    if verdict is not None:
        return verdict
    if records is not None:  # judged as the JSONL they were, one compact line per record
        lines = records
        stripped = b"\n".join(records)
        first = lines[0]
    if stripped[:1] in (b"[", b"{"):
        try:
            value = _loads(first)
        except ValueError:
            value = None
        if value is None and (partial := _sniff_partial(first)):
            return partial, False, True  # a first line longer than the sniff window
        opens_array = stripped[:1] == b"[" and stripped[1:].lstrip()[:1] in (b"{", b"]")
        if value is None and _logged_call_head(stripped):
            # A logging proxy's record of one call longer than the sniff window (the history a
            # long run resends): read whole, as the record it is. Read as an array, only the
            # request's messages were read, not the answer after them, and the call was no part
            # of its folder's log (_proxy_log_folders)
            return "openai", False, True
        if value is None and (opens_array or (stripped[:1] == b"{" and b'"messages"' in head)):
            return "openai", True, True
        if value is None and _SHAREGPT_HEAD.match(stripped):
            # ShareGPT trajectories one a line (formats.sharegpt), the first longer than the sniff window
            return "openai", False, True
        if value is None and stripped[:1] == b"{" and _RESPONSES_LIST.search(head) and _RESPONSES_ITEM.search(head):
            # A Responses API request or response whose first item is longer than the sniff
            # window (a pasted log): one JSON document, read as one record.
            return "openai", False, True
        if value is None and _THREAD_PAGE.match(stripped) and _THREAD_MESSAGE.search(head):
            # A page of an Assistants thread's messages (openai_chat.is_thread_message_list) longer
            # than the sniff window (limit=100, long answers): one JSON document (was a text log).
            return "openai", False, True
        if isinstance(value, list) and _mostly_chat(value):
            # chat messages, or a log of chat requests and their (Ollama) answers: was a text log
            return "openai", True, True
        if isinstance(value, dict) and codex.looks_like_legacy(value) and "type" not in value:
            return "codex", False, True  # the header line of a rollout from before the envelope
        if isinstance(value, dict) and asciicast.looks_like(value):
            return "asciicast", False, True
    votes = {"claude-code": 0, "codex": 0, "openai": 0, "codex-exec": 0, "openhands": 0, "qwen-code": 0,
             "gemini-cli": 0, "pi": 0, "copilot": 0, "droid": 0, "grok": 0, "opencode": 0, "kimi": 0}
    seen = written = 0
    kimi_code_records = kimi_code_turns = 0
    bare_items = typeless_roles = typed_roles = codex_tools = 0
    for raw in lines[:_SNIFF_LINES]:
        if not raw.strip():
            continue
        written += 1
        try:
            obj = _loads(raw)
        except ValueError:
            partial = _sniff_partial(raw)
            if partial:
                votes[partial] += 1
            continue
        if not isinstance(obj, dict):
            continue
        seen += 1
        kind = _record_kind(obj)
        if kind is not None:
            votes[kind] += 1
        if kind == "kimi" and not kimi_wire.looks_like(obj):
            kimi_code_records += 1
            kimi_code_turns += kimi_code.is_turn_record(obj)
        elif kind == "codex" and openai_chat.looks_like_item(obj):
            bare_items += 1
            codex_tools += _codex_tool_item(obj)
        elif kind == "openai" and "type" not in obj and isinstance(obj.get("role"), str):
            typeless_roles += 1
        elif kind == "openai" and obj.get("type") == "message" and isinstance(obj.get("role"), str):
            typed_roles += 1
    if kimi_code_records and not kimi_code_turns:
        # Kimi Code records with no turn or context record among them: an application's own log of
        # the same words ({type: "task.started" | "llm.request", time: epoch ms}), no Kimi session
        votes["kimi"] -= kimi_code_records
    if votes["codex"] and votes["codex"] == bare_items and typeless_roles:
        # Responses API items one a line with no rollout header or envelope, and a message with no
        # ``type`` among them, which Codex never writes (its items are tagged): items an OpenAI
        # Agents SDK loop saved (``result.to_input_list()``: the prompt is ``{"content", "role":
        # "user"}``; openai/openai-agents-python ``src/agents/items.py``, ``ItemHelpers.
        # input_to_new_input_list``). Read as a Codex rollout, a command's output, which records no
        # exit status, was never checked for its program's failure ("cat: x: No such file")
        votes["codex"] = 0
        votes["openai"] += bare_items
    elif votes["codex"] and votes["codex"] == bare_items and typed_roles and not codex_tools:
        # The same items with the messages typed too ({"type": "message", "role": "user", "content":
        # [{"type": "input_text", ...}]}: the Responses API's own input list, as a program saves its
        # `input` one item a line), with no call of a Codex tool (shell, exec_command, apply_patch)
        # nor Codex's {"output", "metadata": {"exit_code"}} wrapper: a program's own tools, whose
        # outputs record no exit status. Read as a Codex rollout (more tool items than messages win
        # the vote), an output with no exit code was a command that worked ("NVIDIA-SMI has
        # failed" missed); a headerless rollout of the old CLI calls Codex's tools and is kept.
        votes["codex"] = 0
        votes["openai"] += bare_items
    if votes["gemini-cli"]:
        # Gemini CLI's stream-json: its tool and init events are its own, while its many reply
        # chunks ({"type": "message", "role", "content"}) look like Responses API items.
        return "gemini-cli", False, True
    best = max(votes, key=lambda k: votes[k])
    if votes[best]:
        return best, False, True
    if stripped[:1] not in (b"{", b"[") and 2 * seen < written:
        # Prose with a JSON line or two (a Markdown note quoting a record in a ```json block)
        # is a text log, not an unknown Claude Code session refused as "not a transcript".
        return "text", False, False
    return ("claude-code" if seen else "text"), False, False


def _mostly_chat(elements: list) -> bool:
    """Whether a one-line JSON array is chat messages: most of its elements are chat records.
    ``json.dumps(messages)`` writes the whole log on one line, and one element the reader does
    not know (a framework's own marker, an item type newer than it) made it a text log of one
    line, every message lost; an indented array of the same is read as messages whatever its
    elements (:func:`_sniff_spread`), and the odd element is counted as an unknown type."""
    chat = sum(1 for v in elements if isinstance(v, dict) and openai_chat.is_chat_record(v))
    return 2 * chat > len(elements)


def _sniff_spread(stripped: bytes, lines: list[bytes]) -> tuple[tuple[str, bool, bool] | None, list[bytes] | None]:
    """Records spread over many lines (:func:`reader.layout`): indented objects one after
    another (``jq .`` over a JSONL file) or one array of them (``jq -s .``). Gives a verdict,
    or the head's records as compact lines to be judged as JSONL, or neither (one chat
    request or export, ``{"messages": [...]}`` or an array of messages: read as an array)."""
    if lines[0].strip() == b"{":
        objects = pretty_objects(stripped, _SNIFF_LINES)
        if not objects:
            # The first object is longer than the sniff window (a pasted screenshot in the
            # first prompt): its keys, one a line, are judged as a cut JSONL line.
            partial = _sniff_partial(b"{" + b"".join(line.strip() for line in lines[1:400]))
            return ((partial, False, True) if partial else None), None
        if len(objects) == 1 and isinstance(objects[0].get("messages"), list):
            return None, None
        return None, [json.dumps(o).encode() for o in objects]
    if stripped[:1] != b"[":
        return None, None
    objects = array_objects(stripped, _SNIFF_LINES)
    if not objects:
        body = stripped[1:].lstrip()
        partial = _sniff_partial(body) or _sniff_partial(b"".join(line.strip() for line in body.splitlines()[:400]))
        return ((partial, False, True) if partial else None), None
    if all(openai_chat.is_chat_record(o) for o in objects):
        if stripped[1:].lstrip()[:1] not in (b"{", b"]"):
            # chat messages behind a null, a number or a string (a dump that kept an empty slot):
            # still the array of messages, its stray elements counted as not an object (was a
            # text log of one line, every message lost)
            return ("openai", True, True), None
        return None, None
    if all(gemini_cli.is_prompt_log_entry(o) for o in objects):
        return ("gemini-log", False, True), None
    if 2 * sum(map(_is_stream_record, objects)) > len(objects):
        # a saved stream's chunks or events in one array (formats.responses_stream); a ping, a
        # message_stop or an error among them is no piece of an answer
        return ("openai", True, True), None
    kind = max(Counter(map(_record_kind, objects)).items(), key=lambda kv: (kv[0] is not None, kv[1]))[0]
    return ((kind, False, True) if kind in ("claude-code", "codex", "codex-exec", "openhands") else None), None


def _codex_tool_item(obj: dict) -> bool:
    """A bare Responses item only Codex writes: a call of one of its own tools, or a tool output in
    its ``{"output", "metadata": {"exit_code"}}`` wrapper (openai/codex ``codex-rs/core/src/
    tools/spec.rs`` tool names; ``codex-rs/protocol/src/models.rs`` shell output)."""
    name = obj.get("name")
    if name == "shell" and obj.get("type") == "function_call":
        # Codex's shell tool takes an argv ({"command": ["bash", "-lc", "..."]}); a program's own
        # tool named "shell" takes a string, as most do
        return '"command": [' in str(obj.get("arguments"))[:200].replace('":[', '": [')
    if isinstance(name, str) and (name in codex.CODEX_TOOLS or name.startswith("mcp__")):
        return True
    output = obj.get("output")
    return isinstance(output, str) and output.startswith('{"output"') and '"metadata"' in output[:4000]


def _is_stream_record(obj: dict) -> bool:
    """A piece of a saved API stream (:mod:`formats.responses_stream` reads them all)."""
    return chat_stream.looks_like(obj) or responses_stream.looks_like(obj) or anthropic_stream.looks_like(obj) \
        or ollama_stream.looks_like(obj)


def _record_kind(obj: dict) -> str | None:
    """The format one JSON record looks like it is from."""
    if opencode.looks_like(obj):
        return "opencode"  # a session file of OpenCode's storage (formats.opencode)
    if _is_stream_record(obj):
        # a Responses API event or a Chat Completions chunk as the SDK dumps it, an Anthropic Messages
        # or Ollama /api/chat stream's piece: all read by formats.responses_stream
        return "openai"
    if grok_cli.looks_like(obj):
        return "grok"  # its user/assistant turns have neither Claude Code's envelope nor a role
    if kimi_wire.looks_like(obj):
        return "kimi"  # Kimi CLI's wire.jsonl: {timestamp, message: {type, payload}} (formats.kimi_wire)
    if droid_stream.looks_like(obj):
        return "droid"  # droid exec --output-format stream-json (its messages have role and text)
    if qwen_code.looks_like(obj):
        return "qwen-code"  # Claude Code's envelope around Gemini API content
    if gemini_stream.looks_like(obj) or gemini_stream.looks_like_result(obj):
        return "gemini-cli"  # gemini -p --output-format stream-json (or json)
    if copilot_cli.looks_like(obj):
        return "copilot"  # {"type": "user.message", "data": {...}}
    if pi_agent.looks_like(obj):
        return "pi"  # a type and a message on each line, as Claude Code's
    if codex.looks_like(obj):
        return "codex"
    if codex_exec.looks_like(obj):
        return "codex-exec"
    if claude_code.looks_like(obj):
        return "claude-code"
    if openai_chat.looks_like(obj):
        return "openai"
    if openhands.looks_like(obj):
        return "openhands"
    if kimi_code.is_wire_record(obj):
        return "kimi"  # Kimi Code's {type: "turn.prompt" | "context.append_loop_event" ..., time} (formats.kimi_code)
    return None


_ZIP_MAGIC = b"PK\x03\x04"
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"  # RFC 8878
_TAR_MAGIC_AT = 257
"""A POSIX tar header has ``ustar`` at byte 257 (POSIX.1-2001 pax/ustar format; GNU tar writes
``ustar  ``)."""
_CLAUDE_PREFIX = re.compile(rb'"type":\s?"(?:user|assistant|system|summary)"')
_CLAUDE_ENVELOPE = re.compile(rb'"(?:sessionId|parentUuid)":|"message":\s?\{"role":')
_RESPONSES_LIST = re.compile(rb'"(?:input|output)":\s*\[\s*\{')
_RESPONSES_ITEM = re.compile(rb'"role":\s*"(?:user|assistant|system|developer)"|"type":\s*"(?:message|function_call|'
                             rb'function_call_output|reasoning|input_text|output_text)"')
"""See :func:`openai_chat.is_responses_exchange`."""
_THREAD_PAGE = re.compile(rb'\{\s*(?:"object":\s*"list",\s*)?"data":\s*\[\s*\{')
_THREAD_MESSAGE = re.compile(rb'"object":\s*"thread\.message"')
"""The head of a page of thread messages, as the API sends it (``object`` first) or the SDK's
``to_json()`` writes it (``data`` first): see :func:`openai_chat.is_thread_message_list`."""
_HERMES_META = re.compile(rb'\{"role":\s?"session_meta",')
"""How Hermes Agent's gateway starts a session's JSONL transcript: ``{"role": "session_meta", "tools",
"model", "platform", "timestamp"}`` as ``json.dumps`` writes it (NousResearch/hermes-agent
``gateway/run.py``, ``append_to_transcript`` of a fresh session)."""
_CODEX_PREFIX = re.compile(rb'^\{"timestamp":\s?"[^"]*",\s?(?:"ordinal":\s?\d+,\s?)?'
                           rb'"type":\s?"(?:session_meta|response_item|event_msg|turn_context)"')
"""The start of a rollout line; 2026 CLIs write the line's ``ordinal`` between its time and its type
(openai/codex ``codex-rs/protocol`` ``RolloutLine{timestamp, ordinal, #[serde(flatten)] item}``, the
ordinal skipped when None)."""


def _sniff_partial(line: bytes) -> str | None:
    """The format of a JSONL line that does not parse, from its start: a line cut by the sniff
    window (a pasted screenshot travels base64 inside the first prompt's line, easily past
    256 KiB) or broken. Claude Code writes the envelope keys (``sessionId``, ``type``) before
    ``message``; Codex writes ``timestamp`` and ``type`` before ``payload``."""
    start = line[:8192]
    if _CODEX_PREFIX.match(start):
        return "codex"
    if _HERMES_META.match(start):
        # Hermes Agent's gateway transcript (~/.hermes/sessions/<id>.jsonl): its first line holds the
        # whole tool list sent to the model, often past the sniff window (read as a text log, its
        # calls were no command); its other lines are chat messages
        return "openai"
    if _CLAUDE_PREFIX.search(start) and _CLAUDE_ENVELOPE.search(start):
        return "claude-code"
    return None


def iter_events(source: SessionSource, stats: ReadStats, tree: AgentTree) -> Iterator[Event]:
    """All events of one session: the trunk, then its sub-agents (Claude Code)."""
    main = tree.get(MAIN_AGENT)
    main.file = str(source.path)
    cursor = Cursor(session=source.id, agent=MAIN_AGENT, file=str(source.path))
    try:
        if source.format == "codex" and source.exec_events and not source.children:
            yield from codex_exec.read(source.path, cursor, stats)
        elif source.format == "codex":
            yield from codex_threads.read_session(source, cursor, stats, tree)
        elif source.goose_store:
            # Goose's store or Hermes Agent's (formats.hermes_store), told by their messages tables
            if source.store_children:  # (Hermes's sub-agents: formats.hermes_store; Goose's: formats.goose_store)
                store = hermes_store if hermes_store.is_store(source.path) else goose_store
                yield from store.read_session(source.path, source.store_session or "", source.store_children,
                                              cursor, stats, tree)
            else:
                store = hermes_store if hermes_store.is_store(source.path) else goose_store
                yield from store.read(source.path, source.store_session or "", cursor, stats)
        elif source.format == "openai" and source.children and _is_cline_sdk_main(source):
            yield from cline_task.read_sdk_agents(
                source.path, [c.path for c in source.children], cursor, tree,
                lambda path, at: openai_chat.read(path, at, stats, array=source.array))
        elif source.format == "openai" and source.conversation is not None:
            yield from chatgpt_export.read(source.conversation, cursor, stats)
        elif source.format == "openai" and (stream := responses_stream.layout(source.path)):
            yield from responses_stream.read(source.path, cursor, stats, stream)
        elif source.format == "openai":
            yield from openai_chat.read(source.path, cursor, stats, array=source.array, parts=source.parts,
                                        only=source.records, span=source.span)
        elif source.format == "openhands" and source.instance is not None:
            yield from openhands_eval.read(source.instance, cursor, stats)
        elif source.format == "openhands" and source.path.is_dir():
            yield from openhands_sdk.read(source.path, cursor, stats)
        elif source.format == "openhands":
            yield from openhands.read(source.path, cursor, stats, wrapped=source.array)
        elif source.format == "swe-agent":
            yield from swe_agent.read(source.path, cursor, stats)
        elif source.format == "gemini-cli" and gemini_stream.is_stream(source.path):
            yield from gemini_stream.read(source.path, cursor, stats)
        elif source.format == "gemini-cli" and source.children:
            yield from gemini_agents.read_session(source.path, [c.path for c in source.children], cursor, stats, tree)
        elif source.format == "gemini-cli":
            yield from gemini_cli.read(source.path, cursor, stats)
        elif source.format == "copilot":
            yield from copilot_cli.read(source.path, cursor, stats, tree)
        elif source.format == "opencode" and source.store_session is not None:
            yield from opencode_store.read_session(source.path, source.store_session, source.store_children, cursor,
                                                   stats, tree)
        elif source.format == "opencode" and source.children:
            yield from opencode.read_session(source.path, [(c.path, opencode.parent_of(c.path) or source.id)
                                                           for c in source.children], cursor, stats, tree)
        elif source.format == "opencode":
            yield from opencode.read(source.path, cursor, stats)
        elif source.format == "grok":
            yield from grok_cli.read(source.path, cursor, stats)
        elif source.format == "kimi" and source.children:
            yield from kimi_wire.read_agents(source.path, [c.path for c in source.children], cursor, stats, tree)
        elif source.format == "kimi":
            yield from kimi_wire.read(source.path, cursor, stats, tree)
        elif source.format == "crush":
            yield from crush.read_session(source.path, source.store_session or "", source.store_children, cursor, stats,
                                          tree)
        elif source.format == "droid":
            yield from droid_stream.read(source.path, cursor, stats)
        elif source.format == "pi":
            yield from pi_agent.read(source.path, cursor, stats)
        elif source.format == "qwen-code":
            yield from qwen_code.read(source.path, cursor, stats)
        elif source.format == "text" and source.recording:
            yield from asciicast.read(source.path, cursor, stats)
        elif source.format == "text" and source.page_session is not None:
            page = claude_code_log_html if source.path.suffix.lower() == ".html" else claude_code_log_md
            lines = text_log.decoded_lines(source.path, stats, source.page_session.span)
            version = {"version": source.page_session.version} if page is claude_code_log_md else {}
            yield from claude_code_log_md.link_spawns(page.read_lines(lines, cursor, stats, session=source.page_session.id,
                                                                      **version), cursor, tree)
        elif source.format == "text" and source.specstory:
            yield from _marked_markdown_reader(source.path).read(source.path, cursor, stats)
        elif source.format == "text":
            yield from claude_code_log_md.link_spawns(text_log.read(source.path, cursor, stats), cursor, tree)
        else:
            # A sub-agent's background end may be written in the trunk, read before its call.
            yield from claude_code.settle_background_ends(
                claude_session.read(source.path, cursor, stats, tree, source.copied_head, source.history_files,
                                    source.alone), cursor)
    except OSError as exc:
        # The file went away or failed after it was found: Claude Code deletes sessions older
        # than cleanupPeriodDays (30 by default: code.claude.com docs, "Settings") from the
        # very folder being read, and a network mount can fail mid-read. The other sessions,
        # and the events read so far, stand.
        name = Path(exc.filename).name if exc.filename else source.path.name
        stats.damaged.append(f"{name}: cannot be read ({exc.strerror or exc}); the events before it were kept")
