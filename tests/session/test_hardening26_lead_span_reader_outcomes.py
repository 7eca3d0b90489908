"""A reader that sets an event's outcome itself (``Event.extracted``: a Cursor CLI call the
person refused is ``denied``, not run) is heard the same when worker processes read the
session's spans as when one process reads it (the span reader scanned the event again and
called the refusal a ``tool_error``)."""

from __future__ import annotations

import json
import multiprocessing

import pytest

from spec_debug.session import analyze_path, parallel
from tests.session.test_hardening26_formats_cursor_stream import LINES

pytestmark = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                                reason="the worker processes are forked")


def _errors(path) -> list[tuple[str, str]]:
    return [(e["kind"], e["message"]) for e in analyze_path(path).to_json()["errors"]]


def test_a_refused_cursor_call_is_denied_with_and_without_workers(monkeypatch, tmp_path):
    path = tmp_path / "cursor-run.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in LINES))
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", float("inf"))
    alone = _errors(path)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "SPAN_BYTES", 1024)
    monkeypatch.setattr(parallel, "worker_count", lambda: 2)
    spans = []
    real = parallel._parsed_in_workers

    def spy(*args):
        for record in real(*args):
            spans.append(record[0])
            yield record

    monkeypatch.setattr(parallel, "_parsed_in_workers", spy)
    with_workers = _errors(path)
    assert spans, "the workers did not run"
    assert ("denied", "Command not in allowlist") in alone
    assert with_workers == alone
