"""Reading a large Claude Code session file with worker processes.

The file is cut at line starts into spans of :data:`SPAN_BYTES`; each worker decodes its
span's JSON, builds the events and runs every per-event scan
(:func:`spec_debug.session.extract.extract`), then sends back the events without their
long texts. The parent takes the spans back in file order, renumbers seq and line, settles what
a span's lines alone cannot (:class:`~spec_debug.session.formats.claude_code.SpanEdges`: stream-json's
folder, a bare result's answer), and links sub-agent lines exactly as a sequential read does, so
the analysis is the same either way.
At most a few spans are in flight, so memory stays bounded whatever the file size.

Only files of at least :data:`PARALLEL_MIN_BYTES` go this way: below that, starting the
workers costs more than it saves (2 cores, generated session: 20 MB took 0.44 s with
workers and 0.57 s without; 5 MB took the same either way).
"""

from __future__ import annotations

import io
import os
import pickle
import sys
import threading
from collections.abc import Iterator
from dataclasses import fields
from operator import attrgetter
from pathlib import Path

from spec_debug.session import reasoning
from spec_debug.session.events import MAIN_AGENT, Event, ReadStats, Spawn
from spec_debug.session.extract import LAST_WORDS, NOTHING, QUOTE_REACH, Extracted, extract, output_read_again
from spec_debug.session.failures import ErrorInfo
from spec_debug.session.formats import claude_code
from spec_debug.session.formats.common import Cursor
from spec_debug.session.metrics import Metric
from spec_debug.session.nesting import deep_values
from spec_debug.session.reader import iter_json_records, line_starts
from spec_debug.session.shell import Target
from spec_debug.session.span_workers import ordered_results
from spec_debug.session.spec_facts import Observation

PARALLEL_MIN_BYTES = 16 * 1024 * 1024
SPAN_BYTES = 8 * 1024 * 1024
MAX_WORKERS = 3
"""The parent keeps the session state: on the 500 MB bench session it needs 1.8 s of CPU (and
0.3 s more to write the JSON), the workers 5.9-6.2 s between them (one process alone: 6.6 s;
the difference is what crossing processes costs, and two workers slowing each other on shared
caches; 2 cores, December 2026). A fourth worker would wait on the parent and add its ~50 MB to
the peak memory of the whole analysis."""

# Everything travels as plain tuples: pickle writes those in C, a dataclass through Python
# calls (and the parent rebuilds an event with one call).
_EVENT = attrgetter(*(f.name for f in fields(Event)))
_EXTRACTED = [f.name for f in fields(Event)].index("extracted")
_METRIC = attrgetter("name", "value", "unit", "context", "hintable")
_ERROR = attrgetter("kind", "exception", "message", "file", "line")
_OBSERVATION = attrgetter("code", "evidence", "severity")
_TARGET = attrgetter("host", "user", "port", "jump", "container", "inner")
_KEEP_TEXT = frozenset({"prompt", "system", "summary", "compaction", "other"})
"""Kinds whose text the analysis still reads after the scans (prompt titles and records)."""


def worker_count() -> int:
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return min(cpus, MAX_WORKERS)


def use_workers(path: Path) -> bool:
    try:
        big = path.stat().st_size >= PARALLEL_MIN_BYTES
    except OSError:
        return False
    # Linux only: fork and forkserver are there; macOS made spawn its default because forked
    # system frameworks can crash (CPython bpo-33725).
    if not (big and worker_count() >= 2 and sys.platform.startswith("linux")):
        return False
    # Workers cut the file at byte offsets of its lines: a compressed file's offsets are not
    # its text's, a UTF-16 file's lines are not found by b"\n", and a pretty-printed record
    # or a JSON array element spans many lines. Those are read in one pass.
    from spec_debug.session import reader
    from spec_debug.session.formats import compressed

    return not (compressed.kind_of_file(path) or reader.is_utf16(path)) and reader.layout(path) == "jsonl"


def _start_method() -> str:
    """fork when this process is single-threaded: the workers start in milliseconds and need
    nothing pickled to begin. With other threads running (a fleet run, a test server), a forked
    child could inherit a lock another thread holds, so the workers come from a forkserver."""
    return "fork" if threading.active_count() == 1 else "forkserver"


def read_claude(path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    """The events of one Claude Code file, as :func:`claude_code.read` gives them."""
    if not use_workers(path):
        return claude_code.read(path, cursor, stats)
    return claude_code.link_records(_parsed_in_workers(path, cursor, stats), cursor)


def _parsed_in_workers(path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[claude_code.ParsedRecord]:
    bounds = line_starts(path, SPAN_BYTES)
    names = (cursor.session, cursor.agent, cursor.file, cursor.agent_files)
    tasks = ((str(path), span, *names) for span in zip(bounds, bounds[1:]))
    index_base = line_base = 0
    seq_base = cursor.seq_base
    session, agent, file = cursor.session, cursor.agent, cursor.file
    narrated = False  # a message or init line since the last result line (claude_code.SpanEdges)
    folder: str | None = None  # stream-json's working folder (claude_code.follow_folder)
    for packed_span in ordered_results(_parse_span, tasks, worker_count(), _start_method()):
        records, span_stats, (span_narrated, answer, inits) = pickle.loads(packed_span)
        if answer is not None and not narrated:  # the span's first result line is a bare answer
            records[answer[0]][4][0] = answer[1]
        if span_narrated is not None:
            narrated = span_narrated
        follow = inits or folder is not None
        calls: list[Extracted] = []  # of the span's tool calls, in order (see _Commands)
        for index, lineno, sidechain, agent_id, rows in records:
            index += index_base
            lineno += line_base
            seq = seq_base + index
            events = []
            for row in rows:
                ev = Event(*row)
                ev.seq, ev.line = seq, lineno
                if ev.session is None:  # the worker's cursor's (see _row): this cursor's, equal
                    ev.session, ev.agent, ev.file = session, agent, file
                packed = row[_EXTRACTED]
                if packed is None:
                    ev.extracted = NOTHING
                elif packed.__class__ is str:
                    ev.extracted = _UNQUOTED if not packed else _why_only(packed)
                elif packed.__class__ is int:
                    ev.extracted = calls[packed]
                else:
                    ev.extracted = _unpack(packed)
                if ev.kind == "tool_call":
                    calls.append(ev.extracted)
                if ev.spawn is not None:
                    ev.spawn = Spawn(*ev.spawn)
                events.append(ev)
            if follow:
                folder = claude_code.follow_folder(events, folder)
            yield index, lineno, sidechain, agent_id, events
        index_base += span_stats.records
        line_base += span_stats.lines
        stats.add(span_stats)


def _parse_span(path: str, span: tuple[int, int], session: str, agent: str, file: str,
                agent_files: frozenset[str]) -> bytes:
    """In a worker: the records of one span (their index and line counted from the span's
    start: the parent knows where it starts), each event as one tuple in :class:`Event`'s
    field order (see :func:`_row`), pickled by :func:`_without_memo`. A forkserver's worker has
    the default recursion limit, not the parent's raised one (nesting.py)."""
    with deep_values():
        return _parsed_span(path, span, session, agent, file, agent_files)


def _parsed_span(path: str, span: tuple[int, int], session: str, agent: str, file: str,
                 agent_files: frozenset[str]) -> bytes:
    stats = ReadStats()
    cursor = Cursor(session=session, agent=agent, file=file, agent_files=agent_files)
    out = []
    held = _Held(cursor)
    commands = _Commands()
    read_again: dict[str | None, bool] = {}  # the span's calls: is their output read again
    sub_agent_file = agent != MAIN_AGENT
    edges = claude_code.SpanEdges(False if span[0] == 0 else None)
    for index, lineno, sidechain, agent_id, events in claude_code.parse_records(
            iter_json_records(Path(path), stats, span), cursor, stats, edges):
        if sidechain and not held.quote_all:
            held.quote_every_block()
        words = sidechain or sub_agent_file  # a sub-agent's lines: its texts keep their start
        rows: list = []
        for ev in events:
            kind = ev.kind
            if kind == "tool_call":
                held.quoted_by(ev)
                read_again[ev.call_id] = output_read_again(ev.command)
                # an edit tool's new text (formats.common.edited_text, bounded) is read again as a change
                rows.append(_row(ev, commands.packed(ev), cursor, ev.command is None and ev.spawn is None and ev.text != ""))
                continue
            x = ev.extracted  # a reader that already knows the outcome (a refused call) set it
            if x is None:
                x = extract(ev, True)
            if kind in _REASONING and x.why is None:
                if held.takes(ev):
                    held.hold(rows, ev, x, kind == "text" and words)  # packed when a command quoting it is known
                    continue
                x.why = reasoning.why_text(ev.text[-1000:]) if held.quote_all else ""
            # a result whose call the span does not hold (it ended the span before) keeps its text
            rows.append(_row(ev, _pack(x), cursor, kind == "tool_result" and read_again.get(ev.call_id, True)
                             or (kind == "text" and words)))
        out.append((index, lineno, sidechain, agent_id, rows))
    held.release(quoted=True)  # the next span's first command may quote it
    answer = None if edges.unsure is None else _as_answer(out, edges.unsure, cursor, sub_agent_file)
    return _without_memo((out, stats, (edges.narrated, answer, edges.inits)))


def _as_answer(out: list, index: int, cursor: Cursor, sub_agent_file: bool) -> tuple[int, tuple]:
    """``(position in out, row)``: the result line of record ``index``, read as a note, as the
    agent's text instead (``claude_code.SpanEdges.unsure``: the parent knows which it is). Its
    reasoning is worked out whether or not a command quotes it: the analysis reads it only
    for one that does."""
    position = next(i for i, record in enumerate(out) if record[0] == index)
    _, _, sidechain, _, rows = out[position]
    ev = Event(*rows[0])
    if ev.session is None:  # the cursor's (see _row)
        ev.session, ev.agent, ev.file = cursor.session, cursor.agent, cursor.file
    claude_code.as_answer(ev)
    x = extract(ev, True)
    x.why = reasoning.why_text(ev.text[-1000:])
    return position, _row(ev, _pack(x), cursor, sidechain or sub_agent_file)


def _without_memo(result: tuple) -> bytes:
    """``result`` pickled without the pickler's memo (``Pickler.fast``, in the pickle docs since
    Python 2). A span's rows are some 40,000 small tuples and strings, and memoizing each (so
    that an object met twice is written once) cost more than writing them: an 8 MB span of the
    bench session took 11.5 ms to pickle, 4 ms without the memo, and the parent's unpickling
    and rebuild of it about the same time (no memo opcodes to run, some more small strings to
    make; its cursor's strings are not sent, see :func:`_row`; runs scattered by +-2 ms on a
    loaded machine). The rows hold no cycle (tuples, strings and numbers, the parsed JSON of
    an ``agentId`` at most), which is what the memo would be needed for; an object two rows
    shared arrives as two equal ones."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, pickle.DEFAULT_PROTOCOL)
    try:
        pickler.fast = True
    except AttributeError:  # documented as deprecated: a Python without it pickles with the memo, slower
        pass
    pickler.dump(result)
    return buffer.getvalue()


def _row(ev: Event, packed: tuple | str | int | None, cursor: Cursor, keep_text: bool = False) -> tuple:
    """``ev`` as a tuple, with its Extracted ``packed`` (:func:`_pack`, :meth:`_Commands.packed`).
    ``keep_text``: a tool result the analysis reads again (:func:`extract.output_read_again`), or
    a sub-agent's text, whose first words may be its last (the analysis's ``last_words``: "I was
    unable to ..." fails an agent whose every call failed)."""
    if ev.kind == "text" and keep_text:
        ev.text = ev.text[:LAST_WORDS]
    elif not keep_text and ev.kind not in _KEEP_TEXT:
        ev.text = ""  # scanned already: only the findings travel
    if ev.spawn is not None:
        ev.spawn = (ev.spawn.description, ev.spawn.agent_type, ev.spawn.prompt_key, ev.spawn.session_id,
                    ev.spawn.name)
    ev.extracted = packed
    ev.seq = ev.line = 0  # the parent sets both (its record's): 0 unpickles to a shared int, a count to a new one
    if ev.session is cursor.session and ev.agent is cursor.agent and ev.file is cursor.file:
        # Every event of a span is its cursor's (the agent is worked out in the parent), and the
        # rows are pickled without a memo (_without_memo): the parent puts its own cursor's
        # session, agent and file back (the same values) rather than unpickling three copies
        # per event. None marks that: no event this reader builds has a session of None.
        ev.session = ev.agent = ev.file = None
    return _EVENT(ev)


_REASONING = frozenset({"text", "thinking"})


class _Held:
    """The text or thinking block a command may still be shown with, as
    :class:`~spec_debug.session.analysis._SessionState` holds it for an agent: a text always
    replaces the held block, a thinking block unless the held one is from its own line; a
    command at most :data:`QUOTE_REACH` seq after it quotes it. A block's text does not
    travel to the parent, so its reasoning is worked out here, and only for a block a
    command quotes (or that is still held when the span ends): most blocks are replaced
    before any command comes.

    Events are linked to agents only in the parent. A span without sidechain lines has one
    agent (the file's); from the first sidechain line on (old CLIs wrote sub-agents inline)
    every block's reasoning is worked out, since agents cannot be told apart here."""

    def __init__(self, cursor: Cursor) -> None:
        self.cursor = cursor
        self.quote_all = False
        self.rows: list | None = None
        self.slot = 0
        self.ev: Event | None = None
        self.x: Extracted | None = None
        self.text = ""
        self.words = False
        self.seq: int | None = None
        """Seq of the block held, kept after it is packed (a thinking block of the same
        line does not replace it)."""

    def takes(self, ev: Event) -> bool:
        return not self.quote_all and (ev.kind == "text" or self.seq != ev.seq)

    def hold(self, rows: list, ev: Event, x: Extracted, words: bool = False) -> None:
        """``words``: a sub-agent's text, whose start travels (see :func:`_row`)."""
        self.release(quoted=False)
        self.rows, self.slot, self.ev, self.x, self.text, self.seq = rows, len(rows), ev, x, ev.text, ev.seq
        self.words = words
        rows.append(None)

    def quoted_by(self, call: Event) -> None:
        if self.seq is not None and 0 <= call.seq - self.seq <= QUOTE_REACH:
            self.release(quoted=True)

    def quote_every_block(self) -> None:
        self.release(quoted=True)
        self.quote_all = True

    def release(self, quoted: bool) -> None:
        """Pack the held block into its slot, with its reasoning if a command quotes it."""
        if self.rows is None:
            return
        self.x.why = reasoning.why_text(self.text[-1000:]) if quoted else ""
        self.rows[self.slot] = _row(self.ev, _pack(self.x), self.cursor, self.words)
        self.rows = self.ev = self.x = None
        self.text = ""


class _Commands:
    """A span's tool calls by command. What :func:`extract` finds in a call with a command (its
    kind, loop template, target and launch facts; never a Metric, which the analysis may
    rename) depends on the command alone, and a session runs the same commands again and again
    (44% of the bench session's calls repeat one of their span): a repeat is not scanned again
    nor sent. Its row holds the ordinal, among the span's tool calls, of the first call with
    that command, and the parent gives it the Extracted it built for that one (it reads an
    Extracted, never changes one; a Target is frozen)."""

    def __init__(self) -> None:
        self.count = 0
        self.first: dict[str, int] = {}

    def packed(self, call: Event) -> tuple | str | int | None:
        ordinal = self.count
        self.count += 1
        x = call.extracted  # a reader that already knows the outcome (a refused call) set it
        if x is None:
            command = call.command
            if command:
                first = self.first.get(command)
                if first is not None:
                    return first
                self.first[command] = ordinal
            x = extract(call, True)
        return _pack(x)


def _pack(x: Extracted) -> tuple | str | None:
    """``x`` as the parent rebuilds it (:func:`_parsed_in_workers`, :func:`_unpack`): None when
    nothing was found (most tool results, and the events no extractor reads), the reasoning
    alone for a text or thinking block in which nothing else was found (most blocks), else a
    tuple of every field with the small objects as tuples."""
    # Every field but why at its default: its tuples and strings are falsy only when empty, and
    # outcome and target are None.
    if not (x.metrics or x.errors or x.launch or x.observations or x.concat_orders or x.layer_ids or x.hypotheses
            or x.first_sentence or x.category or x.template) and x.outcome is None and x.target is None:
        return x.why
    return (tuple(map(_METRIC, x.metrics)) if x.metrics else (), tuple(map(_ERROR, x.errors)) if x.errors else (),
            tuple(map(_OBSERVATION, x.launch)) if x.launch else (),
            tuple(map(_OBSERVATION, x.observations)) if x.observations else (),
            x.concat_orders, x.layer_ids, x.hypotheses, x.outcome, x.why, x.first_sentence, x.category, x.template,
            None if x.target is None else _TARGET(x.target))


_UNQUOTED = Extracted(why="")
"""What the parent gives every block that was found to say nothing and that no command quotes:
one object for them all, as :data:`NOTHING` is for the events with no findings (the analysis
reads an Extracted, it never changes one)."""


def _why_only(why: str) -> Extracted:
    return Extracted((), (), (), (), (), (), (), None, why)


def _unpack(packed: tuple) -> Extracted:
    metrics, errors, launch, observations, concat_orders, layer_ids, hypotheses, outcome, why, first_sentence, \
        category, template, target = packed
    # one reading (the throughput a text states) is unpacked without a comprehension (its own frame)
    return Extracted(((Metric(*metrics[0]),) if len(metrics) == 1 else tuple([Metric(*m) for m in metrics]))
                     if metrics else (),
                     tuple([ErrorInfo(*e) for e in errors]) if errors else (),
                     tuple([Observation(*o) for o in launch]) if launch else (),
                     tuple([Observation(*o) for o in observations]) if observations else (),
                     concat_orders, layer_ids, hypotheses, outcome, why, first_sentence, category, template,
                     None if target is None else Target(*target))
