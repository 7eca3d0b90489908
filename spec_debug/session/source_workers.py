"""A folder of sessions, one worker process per session at a time.

Sessions are independent (each has its own agents, records and counts), so a folder such as
``~/.claude/projects/-work-kimi/`` with hundreds of sessions is analysed a session per worker,
and the parts are merged in the order the sessions were found: the analysis is the same as a
one-process pass. A session large enough to be read by span workers
(:mod:`spec_debug.session.parallel`) is analysed in this process with its own span workers, as
before; a worker reads its sessions in one pass (a worker cannot start workers of its own).

Only a few parts are in flight at a time (:data:`span_workers.IN_FLIGHT` per worker), so
memory stays bounded however many sessions the folder holds.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any

from spec_debug.session import parallel
from spec_debug.session.span_workers import ordered_results

MIN_SESSIONS = 4
"""Fewer sessions are analysed in this process: starting the workers costs more than it saves
(2 cores: 4 sessions of 0.5 MB took the same either way)."""


def parts_in_order(sources: list, analyze: Callable[[Any], Any]) -> Iterator[Any]:
    """``analyze(source)`` for each source, in order."""
    inline = [_needs_span_workers(source) for source in sources]
    shared = [source for source, big in zip(sources, inline) if not big]
    if len(shared) < MIN_SESSIONS or parallel.worker_count() < 2 or not sys.platform.startswith("linux"):
        for source in sources:
            yield analyze(source)
        return
    parts = ordered_results(_in_worker, ((analyze, source) for source in shared), parallel.worker_count(),
                            parallel._start_method())
    try:
        for source, big in zip(sources, inline):
            yield analyze(source) if big else next(parts)
    finally:
        parts.close()


def _needs_span_workers(source: Any) -> bool:
    path = getattr(source, "path", None)
    return path is not None and path.is_file() and parallel.use_workers(path)


def _in_worker(analyze: Callable[[Any], Any], source: Any) -> Any:
    parallel.PARALLEL_MIN_BYTES = float("inf")  # no span workers inside a worker
    return analyze(source)
