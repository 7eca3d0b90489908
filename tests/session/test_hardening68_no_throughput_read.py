"""An incident with no throughput reading at all (the EAGLE-3 server died of an OOM while it
loaded the draft; tests/data/transcripts_hardening19) got the Resolution "No change in the
session was followed by a rise in measured throughput.": it told the on-call reader that
throughput was measured and did not rise. It now says that none was measured; a session with
readings and no rise keeps the old line (test_hardening46_pivots_baseline)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem

SESSION = Path(__file__).resolve().parents[1] / "data" / "transcripts_hardening19" / \
    "8e2f4a6c-1b3d-4f5e-9a7b-2c4d6e8f0a1b.jsonl"
_NONE_READ = "No throughput was measured in the session, so no change was seen to raise it."


def test_no_reading_says_none_was_measured() -> None:
    a = analyze_path(SESSION)
    assert a.metrics == []
    md = render_postmortem(a, "md")
    assert f"## Resolution\n\n- {_NONE_READ}\n" in md
    assert "was followed by a rise in measured throughput" not in md
    html = render_postmortem(a, "html")
    assert f"<li>{_NONE_READ}</li>" in html
    assert "was followed by a rise in measured throughput" not in html
