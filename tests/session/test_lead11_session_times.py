"""A session's first and last timestamps are its earliest and latest instants, whatever form
the tool wrote them in (the strings themselves are kept)."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path


def _line(n: int, ts: str) -> str:
    return json.dumps({"type": "user", "uuid": f"u{n}", "sessionId": "s", "timestamp": ts,
                       "message": {"role": "user", "content": [{"type": "text", "text": f"message {n}"}]}})


def test_first_and_last_are_instants_not_text(tmp_path):
    # "12:00:00Z" sorts after "12:00:00.500Z" as text (Z is above the dot) though it is earlier;
    # "13:30:00+02:00" (11:30 UTC) sorts after "12:00:00Z" as text though it is earlier.
    stamps = ["2026-03-02T12:00:00.500Z", "2026-03-02T12:00:00Z", "2026-03-02T13:30:00+02:00",
              "2026-03-02T12:10:00.000Z", "2026-03-02T12:09:59.999Z"]
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(_line(n, ts) for n, ts in enumerate(stamps)) + "\n")
    (session,) = analyze_path(path).sessions
    assert (session["first_timestamp"], session["last_timestamp"]) == \
        ("2026-03-02T13:30:00+02:00", "2026-03-02T12:10:00.000Z")
