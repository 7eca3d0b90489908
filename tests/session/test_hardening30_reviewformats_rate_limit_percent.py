"""A stream-json ``rate_limit_event``'s ``utilization`` has been seen both as a fraction (0.91, as
the ``anthropic-ratelimit-unified-5h-utilization`` header) and as a percentage (87.5): stream-json
readers normalise it so (a value over 1 is a percentage already). 87.5 was said '8750% used'."""

from __future__ import annotations

import json

from spec_debug.session.events import ReadStats
from spec_debug.session.formats import claude_code
from spec_debug.session.formats.common import Cursor


def test_a_utilization_given_as_a_percentage_is_said_as_one(tmp_path):
    def warning(used: float) -> dict:
        return {"type": "rate_limit_event", "session_id": "s1", "rate_limit_info": {
            "status": "allowed_warning", "rateLimitType": "seven_day", "utilization": used}}

    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(warning(used)) + "\n" for used in (87.5, 0.91, 1, 250)))
    events = list(claude_code.read(path, Cursor(session="s", agent="main", file=str(path)), ReadStats()))
    assert [e.text for e in events if e.raw_type == "rate_limit_event"] == [
        "rate limit allowed warning (seven_day, 88% used)", "rate limit allowed warning (seven_day, 91% used)",
        "rate limit allowed warning (seven_day, 100% used)", "rate limit allowed warning (seven_day)"]
