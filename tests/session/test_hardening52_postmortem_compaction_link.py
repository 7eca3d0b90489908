"""postmortem: "The context was compacted 1 time; earlier details were summarised." was the one
line of What went wrong that named no message; it now links the compaction ([msg N], the phase
that starts there), as every other claim of the postmortem does."""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem
from tests.session.incident_story import SSH, _Writer

SESSION = "7e1a0000-0000-4000-8000-0000000052c0"


def test_the_compaction_line_names_its_message(tmp_path):
    m = _Writer(SESSION, None, datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc))
    m.prompt("The EAGLE-3 draft is slow on 10.1.230.174.")
    m.bash(f"{SSH} 'tail -n 2 /root/sglang_server.log'", "accept len: 1.02")
    at = m.raw({"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted",
                "compactMetadata": {"trigger": "auto", "preTokens": 167000},
                "timestamp": m.clock.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "sessionId": SESSION,
                "uuid": "compact-1", "isSidechain": False})
    m.bash(f"{SSH} 'nvidia-smi'", "NVIDIA H100 80GB HBM3")
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    analysis = analyze_path(path)
    line = next(w for w in postmortem_view(analysis)["went_wrong"] if "compacted" in w)
    assert line == f"The context was compacted 1 time [msg {at}]; earlier details were summarised.", line
    assert f"compacted 1 time [[msg {at}]](#msg-{at})" in render_postmortem(analysis, "md")
