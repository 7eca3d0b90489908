"""A reader that sets an event's outcome itself (``Event.extracted``: a Cursor CLI call the
person refused is ``denied``, not run) is heard the same when worker processes read the
session's spans as when one process reads it (the span reader scanned the event again and
called the refusal a ``tool_error``)."""

from __future__ import annotations

import json

from tests.session.test_hardening26_formats_cursor_stream import LINES
from tests.session.test_session_parallel import _both, pytestmark  # noqa: F401 (forked workers only)


def test_a_refused_cursor_call_is_denied_with_and_without_workers(monkeypatch, tmp_path):
    path = tmp_path / "cursor-run.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in LINES))
    alone, with_workers = _both(monkeypatch, path, span_bytes=1024)
    assert ["denied", "Command not in allowlist"] in [[e["kind"], e["message"]] for e in json.loads(alone)["errors"]]
    assert with_workers == alone
