"""Crush's session store: the SQLite database ``<project>/.crush/crush.db`` (charmbracelet/crush
``internal/db/connect.go``; the data directory is ``.crush`` unless configured).

Its ``sessions`` table has a row a session (``id``, ``parent_session_id``, ``title``, ``created_at``)
and ``messages`` a row a message (``session_id``, ``role``: user, assistant, tool or system,
``parts``, ``created_at`` in epoch seconds; ``internal/db/migrations/20250424200609_initial.sql``).
``parts`` is a JSON list of ``{"type", "data"}`` (``marshalParts`` in ``internal/message/
message.go``; the part structs in ``internal/message/content.go``):

- ``text{text}``, ``reasoning{thinking}``, ``image_url``, ``binary``;
- ``tool_call{id, name, input}`` (``input`` the arguments as a JSON string) in assistant messages,
  ``tool_result{tool_call_id, name, content, metadata, is_error}`` in tool messages;
- ``finish{reason, time, message, details}``: ``reason`` ``error`` when the model's request failed;
- ``shell_command{command, output, exit_code}``: a command the person ran with ``!``.

The bash tool ends a failed command's output with ``Exit code N`` (or ``Command was aborted before
completion``), then ``<cwd>…</cwd>`` (``formatOutput`` in ``internal/agent/tools/bash.go``).

The database is opened read-only (``mode=ro``): Crush may be running on it, and reading must
neither lock it nor change it. Rows are read one at a time.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from spec_debug.session.agents import AgentTree
from spec_debug.session.events import MAIN_AGENT, Event, ReadStats
from spec_debug.session.formats.common import Cursor, call_text, decode_arguments, remote_host, shell_command, \
    tool_path
from spec_debug.session.formats.instants import stamp

STORE = "crush.db"
DATA_DIR = ".crush"
GO_OPENCODE_STORE = Path(".opencode", "opencode.db")
"""The store of OpenCode's Go releases (opencode-ai/opencode, Crush before its rename: data.directory
``.opencode`` in the project, ``internal/config/config.go``; ``opencode.db`` in it,
``internal/db/connect.go``), Crush's tables: read as Crush's."""
_MAGIC = b"SQLite format 3\x00"
_EXIT_TAIL = re.compile(r"(?:\A|\n)Exit code (-?\d+)\s*(?:<cwd>[^\n]*</cwd>\s*)?\Z")
_ABORTED = "Command was aborted before completion"
_BUSY_MS = 2000
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_BATCH = 256
"""Rows read (and their compressed parts unpacked) at a time: a session's messages stream."""


class StoreError(Exception):
    """The database cannot be read (corrupt, locked past the wait, not Crush's); ``reason`` says
    which: ``locked``, ``damaged`` or ``foreign``, each asks the person for something else."""

    def __init__(self, message: str, reason: str = "foreign") -> None:
        super().__init__(message)
        self.reason = reason


def _store_error(exc: sqlite3.Error) -> StoreError:
    name = getattr(exc, "sqlite_errorname", None) or ""
    reason = "locked" if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) else \
        "damaged" if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_IOERR")) else "foreign"
    return StoreError(str(exc), reason)


class _Store(sqlite3.Connection):
    """A connection that removes its private view of the store (:func:`_private_view`) on close."""
    scratch: str | None = None

    def close(self) -> None:
        super().close()
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = None


@dataclass(frozen=True, slots=True)
class Session:
    id: str
    title: str | None
    parent: str | None


def is_sqlite(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(16) == _MAGIC
    except OSError:
        return False


def _connect(path: Path) -> sqlite3.Connection:
    """Read-only, through a URI so that ``mode=ro`` holds (a plain path would open it read-write).
    A store nobody has open (no ``-wal`` or ``-journal`` file beside it: a copy, or Crush not
    running) is opened ``immutable``: a reader of a WAL database otherwise creates ``-wal`` and
    ``-shm`` files beside it, and a copy kept as evidence would not stay as it was. A ``-wal``
    without its ``-shm`` is a copy too (a running Crush keeps both): read from a private view
    (:func:`_private_view`), since ``immutable`` would leave out what the WAL holds."""
    resolved = path.resolve()
    wal, shm = Path(f"{resolved}-wal"), Path(f"{resolved}-shm")
    live = wal.exists() or Path(f"{resolved}-journal").exists()
    scratch = None
    try:
        if wal.exists() and not shm.exists():
            scratch, resolved = _private_view(resolved, wal)
        uri = f"file:{quote(str(resolved))}?mode=ro" + ("" if live else "&immutable=1")
        conn = sqlite3.connect(uri, uri=True, timeout=_BUSY_MS / 1000, check_same_thread=False, factory=_Store)
    except (sqlite3.Error, OSError) as exc:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
        raise (_store_error(exc) if isinstance(exc, sqlite3.Error) else StoreError(str(exc), "damaged")) from None
    conn.scratch = scratch
    conn.text_factory = _text
    return conn


def open_read_only(path: Path) -> sqlite3.Connection:
    """:func:`_connect` for the readers of other agents' SQLite stores (:mod:`formats.goose_store`):
    a copy kept as evidence stays as it was, a live store is neither locked nor changed."""
    return _connect(path)


def store_error(exc: sqlite3.Error) -> StoreError:
    return _store_error(exc)


def read_store(path: Path, stats: ReadStats, events: Callable[[sqlite3.Connection, list[int]], Iterator[Event]]) \
        -> Iterator[Event]:
    """What ``events`` reads of another agent's store ``path`` (:func:`open_read_only`), given the
    connection and a one-item list it counts the messages read in: a store that cannot be opened,
    or fails part way, is noted in ``stats.damaged`` and the messages read before it are kept."""
    try:
        conn = open_read_only(path)
    except StoreError as exc:
        stats.damaged.append(f"{path.name}: cannot be read ({exc}); no message of it was read")
        return
    read_rows = [0]
    try:
        yield from events(conn, read_rows)
    except sqlite3.Error as exc:
        stats.damaged.append(f"{path.name}: cannot be read past message {read_rows[0]} ({exc}); the messages "
                             "before it were kept")
    finally:
        conn.close()


def _text(raw: bytes) -> str | bytes:
    """A TEXT value; compressed parts (:func:`_unpacked`) bound as text stay bytes, not mojibake."""
    return raw if raw[:4] == _ZSTD_MAGIC else raw.decode("utf-8", "replace")


def _private_view(db: Path, wal: Path) -> tuple[str, Path]:
    """The store and its WAL in a folder of our own: SQLite reads a WAL through its ``-shm`` index
    and creates that beside the database when it is missing (https://sqlite.org/wal.html, "Read-Only
    Databases"; a read-only exclusive-locking open fails with a disk I/O error). The store is
    hard-linked (copied across file systems): opened read-only, neither file is written."""
    scratch = tempfile.mkdtemp(prefix="spec-debug-crush-")
    view = Path(scratch) / db.name
    try:
        os.link(db, view)
    except OSError:
        shutil.copyfile(db, view)
    shutil.copyfile(wal, f"{view}-wal")
    return scratch, view


def columns(conn: sqlite3.Connection, table: str) -> set[str]:
    """The names of ``table``'s columns (none when it is missing): each store's reader checks the
    columns it needs (Crush's, Goose's, OpenCode's), as releases add and drop them."""
    return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def sessions(path: Path) -> list[Session]:
    """The sessions of a Crush store, oldest first; :class:`StoreError` when it is no Crush store
    or cannot be read."""
    try:
        conn = _connect(path)
        try:
            session_cols, message_cols = columns(conn, "sessions"), columns(conn, "messages")
            if not {"id"} <= session_cols or not {"session_id", "role", "parts"} <= message_cols:
                raise StoreError("no Crush sessions and messages tables")
            title = "title" if "title" in session_cols else "NULL"
            parent = "parent_session_id" if "parent_session_id" in session_cols else "NULL"
            order = "created_at, rowid" if "created_at" in session_cols else "rowid"
            rows = conn.execute(f"SELECT id, {title}, {parent} FROM sessions ORDER BY {order}").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise _store_error(exc) from None
    return [Session(str(i), t if isinstance(t, str) and t else None, p if isinstance(p, str) and p else None)
            for i, t, p in rows]


def sub_agents(found: list[Session], root: str) -> list[Session]:
    """The sessions Crush's agent tool started under ``root``, and theirs, oldest first: a sub-agent's
    session has the parent's id in ``parent_session_id`` and is named after the call that started it,
    ``<messageID>$$<toolCallID>`` (``CreateAgentToolSessionID``; the bare call id in earlier releases),
    charmbracelet/crush ``internal/session/session.go``, ``internal/agent/coordinator.go``."""
    return _below(root, _by_parent(found), {s.id: i for i, s in enumerate(found)})


def linked(found: list[Session]) -> list[tuple[Session, list[Session]]]:
    """The sessions of the store read as sessions (all but a sub-agent's whose parent is in the
    store: that one is read as an agent of the session that started it), each with its
    :func:`sub_agents`. The sessions are indexed by their parent once: a store of thousands of
    sessions is linked in time linear in its sessions (a scan of all of them per session was
    quadratic: 5,000 sessions took seconds). A session no root leads to (its parent itself, or a
    cycle of parents: no Crush or OpenCode writes one, a damaged or edited store may hold one) is read
    as a session, as a sub-agent whose parent is gone is: dropped, its talk was lost unsaid."""
    known = {s.id for s in found}
    order, by_parent = {s.id: i for i, s in enumerate(found)}, _by_parent(found)
    read = [(s, _below(s.id, by_parent, order) if s.id in by_parent else [])
            for s in found if s.parent is None or s.parent not in known]
    covered = {s.id for s, below in read} | {c.id for _, below in read for c in below}
    if len(covered) == len(known):
        return read
    for s in found:
        if s.id not in covered:
            below = [c for c in _below(s.id, by_parent, order) if c.id not in covered and c.id != s.id]
            covered.update([s.id, *(c.id for c in below)])
            read.append((s, below))
    return sorted(read, key=lambda pair: order[pair[0].id])


def _by_parent(found: list[Session]) -> dict[str, list[Session]]:
    by_parent: dict[str, list[Session]] = {}
    for s in found:
        if s.parent is not None:
            by_parent.setdefault(s.parent, []).append(s)
    return by_parent


def _below(root: str, by_parent: dict[str, list[Session]], order: dict[str, int]) -> list[Session]:
    """A layer of sub-agents at a time, each layer oldest first; a session met again (a cycle of
    parents, which no Crush writes but a damaged store may hold) is not listed twice."""
    seen, layer, below = {root}, [root], []
    while layer:
        step = sorted({c.id: c for p in layer for c in by_parent.get(p, ()) if c.id not in seen}.values(),
                      key=lambda c: order[c.id])
        seen.update(c.id for c in step)
        below.extend(step)
        layer = [c.id for c in step]
    return below


def read_session(path: Path, session_id: str, children: list[Session], cursor: Cursor, stats: ReadStats,
                 tree: AgentTree | None) -> Iterator[Event]:
    """The session's messages, then each sub-agent's, an agent named by its session's id."""
    yield from read(path, session_id, cursor, stats)
    seq_base = cursor.seq_base + cursor.records
    for child in children:
        if tree is not None:
            info = tree.get(child.id, parent=child.parent if child.parent != session_id else MAIN_AGENT)
            info.spawned_by = child.id.rsplit("$$", 1)[-1]  # the call's id
            info.agent_type, info.description = "agent", child.title or ""
            info.file = str(path)
        sub = Cursor(session=cursor.session, agent=child.id, file=cursor.file, seq_base=seq_base)
        yield from read(path, child.id, sub, stats)
        seq_base += sub.records


def read(path: Path, session_id: str, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    try:
        conn = _connect(path)
    except StoreError as exc:
        stats.damaged.append(f"{path.name}: cannot be read ({exc}); no message of it was read")
        return
    index = 0
    try:
        order = "created_at, rowid" if "created_at" in columns(conn, "messages") else "rowid"
        when = "created_at" if "created_at" in columns(conn, "messages") else "NULL"
        rows = conn.execute(f"SELECT rowid, role, parts, {when} FROM messages WHERE session_id = ? ORDER BY {order}",
                            (session_id,))
        for rowid, role, parts, created in _unpacked(rows, path, stats):
            cursor.records = index + 1
            stats.lines += 1
            yield from _message(role, parts, stamp(created), cursor.seq_base + index, rowid, cursor, stats)
            index += 1
    except sqlite3.Error as exc:
        stats.damaged.append(f"{path.name}: cannot be read past message {index} ({exc}); the messages before it "
                             "were kept")
    finally:
        conn.close()


def _unpacked(rows: sqlite3.Cursor, path: Path, stats: ReadStats) -> Iterator[tuple]:
    """The rows, a batch at a time, each row's ``parts`` decoded where Crush stored them
    zstd-compressed: later releases compress each row's parts JSON (a zstd frame, told from JSON's
    ``[`` by its magic number; ``compressParts`` in charmbracelet/crush
    ``internal/message/parts_codec.go``), earlier rows stay plain JSON."""
    noted = False
    while batch := rows.fetchmany(_BATCH):
        packed = [i for i, row in enumerate(batch) if isinstance(row[2], bytes) and row[2][:4] == _ZSTD_MAGIC]
        if packed:
            parts = _unzstd([batch[i][2] for i in packed])
            if parts is None and not noted:
                noted = True
                stats.damaged.append(f"{path.name}: its messages' parts are zstd-compressed and the zstd command "
                                     "to read them is not installed (apt install zstd): those messages were not read")
            for n, i in enumerate(packed):
                batch[i] = (batch[i][0], batch[i][1], parts[n] if parts else None, batch[i][3])
        yield from batch


def _unzstd(frames: list[bytes]) -> list | None:
    """Each frame's parts, decoded (None for a frame that does not decompress to JSON); None when
    this machine cannot decompress zstd. Python before 3.14 has no zstd: the ``zstd`` command
    unpacks a batch in one run (the frames concatenated decompress to their JSON lists one after
    another), else each frame alone."""
    try:
        from compression import zstd  # type: ignore[import-not-found]  # Python 3.14
    except ImportError:
        zstd = None
    if zstd is not None:
        return [_json_parts(lambda f=f: zstd.decompress(f)) for f in frames]
    if shutil.which("zstd") is None:
        return None
    try:
        together = _json_lists(_zstd_command(b"".join(frames)), len(frames))
    except (ValueError, OSError, subprocess.SubprocessError):
        together = None  # a damaged frame among them: each alone, the others still read
    return together if together is not None else [_json_parts(lambda f=f: _zstd_command(f)) for f in frames]


def _zstd_command(data: bytes) -> bytes:
    done = subprocess.run(["zstd", "-dcq"], input=data, capture_output=True, timeout=120, check=False)
    if done.returncode != 0:
        raise ValueError(done.stderr.decode("utf-8", "replace").strip() or "zstd failed")
    return done.stdout


def _json_parts(unpack) -> list | None:
    try:
        value = json.loads(unpack())
    except (ValueError, RecursionError, OSError, subprocess.SubprocessError):
        return None
    return value if isinstance(value, list) else None


def _json_lists(data: bytes, count: int) -> list | None:
    """``count`` JSON lists one after another in ``data``, or None when it holds anything else."""
    text, found, at = data.decode("utf-8", "replace"), [], 0
    decoder = json.JSONDecoder()
    while at < len(text):
        if text[at].isspace():
            at += 1
            continue
        try:
            value, at = decoder.raw_decode(text, at)
        except (ValueError, RecursionError):
            return None
        if not isinstance(value, list):
            return None
        found.append(value)
    return found if len(found) == count else None


def _message(role, parts, ts, seq: int, rowid: int, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    def event(kind, role_, block=0, **kw) -> Event:
        return Event(session=cursor.session, seq=seq, agent=cursor.agent, role=role_, kind=kind, block=block,
                     timestamp=ts, file=cursor.file, line=rowid, **kw)

    try:
        decoded = parts if isinstance(parts, list) else json.loads(parts) if isinstance(parts, (str, bytes)) else None
    except (ValueError, RecursionError):
        decoded = None
    if not isinstance(decoded, list):
        stats.broken_json += 1
        return
    role = role if isinstance(role, str) else "?"
    for block, part in enumerate(decoded):
        kind = part.get("type") if isinstance(part, dict) else None
        data = part.get("data") if isinstance(part, dict) and isinstance(part.get("data"), dict) else {}
        yield from _part(kind, data, role, block, event, stats)


def _part(kind, data: dict, role: str, block: int, event, stats: ReadStats) -> Iterator[Event]:
    if kind == "text":
        text = data.get("text") if isinstance(data.get("text"), str) else ""
        if text.strip():
            yield event({"user": "prompt", "assistant": "text"}.get(role, "system"), role, block, text=text)
    elif kind == "reasoning":
        if isinstance(data.get("thinking"), str) and data["thinking"].strip():
            yield event("thinking", role, block, text=data["thinking"])
    elif kind == "tool_call":
        yield _call(data, role, block, event)
    elif kind == "tool_result":
        yield _result(data, block, event)
    elif kind == "shell_command":
        yield from _typed_command(data, role, block, event)
    elif kind == "finish":
        reason = data.get("reason") if isinstance(data.get("reason"), str) else ""
        said = " ".join(str(data[k]) for k in ("message", "details") if isinstance(data.get(k), str) and data[k])
        if reason == "error":
            # a request that failed for good is the agent's failure, as Codex's error events are
            yield event("system", role, block, raw_type="error", text=said or "the model's request failed")
        else:
            yield event("other", role, block, raw_type="finish", text=reason)
    elif kind in ("image_url", "binary"):
        yield event("other", role, block, raw_type=kind)
    else:
        stats.unknown_types += 1
        yield event("other", role, block, raw_type=str(kind))


def _call(data: dict, role: str, block: int, event) -> Event:
    name = data.get("name") if isinstance(data.get("name"), str) else "?"
    raw = data.get("input")
    args = decode_arguments(raw)
    command = shell_command(args) if isinstance(args, dict) else None
    call_id = data.get("id") if isinstance(data.get("id"), str) else None
    return event("tool_call", role, block, tool_name=name, call_id=call_id, command=command,
                 text=call_text(command, raw if raw is not None else {}), path=tool_path(args),
                 host=remote_host(args) if command is not None else None)


def _result(data: dict, block: int, event) -> Event:
    output = data.get("content") if isinstance(data.get("content"), str) else ""
    found = _EXIT_TAIL.search(output[-600:])
    code = int(found.group(1)) if found else None
    failed = data.get("is_error") is True or bool(code) or _ABORTED in output[-600:]
    if code is None and not failed:
        code = _finished_exit(data.get("metadata"))
        failed = bool(code)
    call_id = data.get("tool_call_id") if isinstance(data.get("tool_call_id"), str) else None
    return event("tool_result", "tool", block, call_id=call_id, text=output, exit_code=code, is_error=failed)


def _finished_exit(raw) -> int | None:
    """The exit code of a bash run that finished, from its result's metadata
    (``BashResponseMetadata{start_time, end_time, output, working_directory}``, charmbracelet/crush
    ``internal/llm/tools/bash.go``, ``internal/agent/tools/bash.go``): its ``exit_code`` where a
    release writes one, else 0, as the tool appends ``Exit code N`` only when N is not 0 and the
    abort note when it was cut. None for any other tool, and for a run moved to the background
    (``background`` with the ``shell_id`` of the job: still running when the result was written).
    A run asked for in the background that ended within the tool's first second is written as
    finished: ``background`` without a ``shell_id`` (``internal/agent/tools/bash.go`` since
    4401d5b, background jobs)."""
    if not isinstance(raw, str) or '"working_directory"' not in raw:
        return None
    try:
        meta = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(meta, dict) or "start_time" not in meta:
        return None
    if meta.get("background") is True and meta.get("shell_id"):
        return None
    code = meta.get("exit_code", 0)
    return code if type(code) is int else None


def _typed_command(data: dict, role: str, block: int, event) -> Iterator[Event]:
    """A ``!`` command the person ran: a call and its result, with the exit code Crush kept."""
    command = data.get("command") if isinstance(data.get("command"), str) else ""
    if not command.strip():
        return
    code = data.get("exit_code") if type(data.get("exit_code")) is int else None
    call = event("tool_call", role, block, tool_name="shell_command", command=command, text=command,
                 host=remote_host({"command": command}))
    call.call_id = f"shell-{call.seq}-{block}"
    yield call
    output = data.get("output") if isinstance(data.get("output"), str) else ""
    yield event("tool_result", "tool", block, call_id=call.call_id, text=output, exit_code=code, is_error=bool(code))
