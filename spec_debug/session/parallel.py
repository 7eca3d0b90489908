"""Reading a large Claude Code session file with worker processes.

The file is cut at line starts into spans of :data:`SPAN_BYTES`; each worker decodes its
span's JSON, builds the events and runs every per-event scan
(:func:`spec_debug.session.extract.extract`), then sends back the events without their
long texts. The parent takes the spans back in file order, renumbers seq and line, and links
sub-agent lines exactly as a sequential read does, so the analysis is the same either way.
At most a few spans are in flight, so memory stays bounded whatever the file size.

Only files of at least :data:`PARALLEL_MIN_BYTES` go this way: below that, starting the
workers costs more than it saves (2 cores, generated session: 20 MB took 0.44 s with
workers and 0.57 s without; 5 MB took the same either way).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Iterator
from dataclasses import fields
from operator import attrgetter
from pathlib import Path

from spec_debug.session import reasoning
from spec_debug.session.events import Event, ReadStats, Spawn
from spec_debug.session.extract import NOTHING, Extracted, extract
from spec_debug.session.failures import ErrorInfo
from spec_debug.session.formats import claude_code
from spec_debug.session.formats.common import Cursor
from spec_debug.session.metrics import Metric
from spec_debug.session.reader import iter_json_records, line_starts
from spec_debug.session.shell import Target
from spec_debug.session.spec_facts import Observation

PARALLEL_MIN_BYTES = 16 * 1024 * 1024
SPAN_BYTES = 8 * 1024 * 1024
MAX_WORKERS = 3
"""The parent, which keeps the session state, is the critical path: on a 500 MB session it
needs 3.2 s alone, the workers 11 s between them, so a fourth worker would wait on it (and
add its ~40 MB to the peak memory of the whole analysis)."""
_IN_FLIGHT_PER_WORKER = 2

# Everything travels as plain tuples: pickle writes those in C, a dataclass through Python
# calls (and the parent rebuilds an event with one call).
_EVENT = attrgetter(*(f.name for f in fields(Event)))
_EXTRACTED = [f.name for f in fields(Event)].index("extracted")
_METRIC = attrgetter("name", "value", "unit", "context", "hintable")
_ERROR = attrgetter("kind", "exception", "message", "file", "line")
_OBSERVATION = attrgetter("code", "evidence")
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
    return big and worker_count() >= 2 and sys.platform.startswith("linux")


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
    spans = list(zip(bounds, bounds[1:]))
    workers = worker_count()
    pool = multiprocessing.get_context(_start_method()).Pool(workers, initializer=_ignore_sigint)
    try:
        pending: deque = deque()
        spans_left = iter(spans)
        index_base = line_base = 0
        seq_base = cursor.seq_base
        names = (cursor.session, cursor.agent, cursor.file)

        def submit() -> None:
            span = next(spans_left, None)
            if span is not None:
                pending.append(pool.apply_async(_parse_span, (str(path), span, *names)))

        for _ in range(workers * _IN_FLIGHT_PER_WORKER):
            submit()
        while pending:
            records, span_stats = pending.popleft().get()
            submit()
            for index, lineno, sidechain, agent_id, rows in records:
                index += index_base
                lineno += line_base
                seq = seq_base + index
                events = []
                for row in rows:
                    ev = Event(*row)
                    ev.seq, ev.line = seq, lineno
                    packed = row[_EXTRACTED]
                    if packed is not None:
                        ev.extracted = _unpack(packed)
                    if ev.spawn is not None:
                        ev.spawn = Spawn(*ev.spawn)
                    events.append(ev)
                yield index, lineno, sidechain, agent_id, events
            index_base += span_stats.records
            line_base += span_stats.lines
            stats.add(span_stats)
    finally:
        pool.terminate()
        pool.join()


def _ignore_sigint() -> None:
    """Ctrl-C is the parent's to handle: it stops the workers (``pool.terminate``) without a
    traceback from each of them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _parse_span(path: str, span: tuple[int, int], session: str, agent: str, file: str) -> tuple[list, ReadStats]:
    """In a worker: the records of one span, each event as one tuple in :class:`Event`'s field
    order (seq and line count from the span's start: the parent knows where it starts)."""
    stats = ReadStats()
    cursor = Cursor(session=session, agent=agent, file=file)
    out = []
    parsed = list(claude_code.parse_records(iter_json_records(Path(path), stats, span), cursor, stats))
    quoted = _reasoning_quoted(parsed)
    for index, lineno, sidechain, agent_id, events in parsed:
        rows = []
        for ev in events:
            x = extract(ev, True)
            if x.why is None and ev.kind in _REASONING:
                # Its text is not sent on: the reasoning must be worked out here if used.
                x.why = reasoning.why_text(ev.text[-1000:]) if id(ev) in quoted else ""
            if ev.kind not in _KEEP_TEXT:
                ev.text = ""  # scanned already: only the findings travel
            if ev.spawn is not None:
                ev.spawn = (ev.spawn.description, ev.spawn.agent_type)
            ev.extracted = None if x is NOTHING else _pack(x)
            rows.append(_EVENT(ev))
        out.append((index, lineno, sidechain, agent_id, rows))
    return out, stats


_REASONING = frozenset({"text", "thinking"})


def _reasoning_quoted(parsed: list) -> set[int]:
    """``id()`` of the text and thinking events whose reasoning a command may be shown with:
    the ones :class:`~spec_debug.session.analysis._SessionState` holds as an agent's last
    reasoning when one of its commands comes within 3 seq, plus the one still held when the
    span ends (the next span's first command may quote it). Replays its rule: a text always
    replaces the held one, a thinking block unless the held one is from its own line.

    Events are linked to agents only in the parent; a span without sidechain lines has one
    agent (the file's). With sidechain lines (old CLIs wrote sub-agents inline) every text
    and thinking event is counted as quoted."""
    if any(sidechain for _, _, sidechain, _, _ in parsed):
        return {id(ev) for *_, events in parsed for ev in events if ev.kind in _REASONING}
    quoted: set[int] = set()
    held = None
    for *_, events in parsed:
        for ev in events:
            kind = ev.kind
            if kind == "text" or (kind == "thinking" and (held is None or held.seq != ev.seq)):
                held = ev
            elif kind == "tool_call" and held is not None and 0 <= ev.seq - held.seq <= 3:
                quoted.add(id(held))
    if held is not None:
        quoted.add(id(held))
    return quoted


def _pack(x: Extracted) -> tuple:
    return (tuple(map(_METRIC, x.metrics)) if x.metrics else (), tuple(map(_ERROR, x.errors)) if x.errors else (),
            tuple(map(_OBSERVATION, x.launch)) if x.launch else (),
            tuple(map(_OBSERVATION, x.observations)) if x.observations else (),
            x.concat_orders, x.layer_ids, x.hypotheses, x.outcome, x.why, x.first_sentence, x.category, x.template,
            None if x.target is None else _TARGET(x.target))


def _unpack(packed: tuple) -> Extracted:
    metrics, errors, launch, observations, concat_orders, layer_ids, hypotheses, outcome, why, first_sentence, \
        category, template, target = packed
    return Extracted(tuple([Metric(*m) for m in metrics]) if metrics else (),
                     tuple([ErrorInfo(*e) for e in errors]) if errors else (),
                     tuple([Observation(*o) for o in launch]) if launch else (),
                     tuple([Observation(*o) for o in observations]) if observations else (),
                     concat_orders, layer_ids, hypotheses, outcome, why, first_sentence, category, template,
                     None if target is None else Target(*target))
