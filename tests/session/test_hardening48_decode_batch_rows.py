"""analyze: SGLang Decode batch readings keep the batch size they were logged at.

The fix is checked at one request (96 tok/s before, 239 tok/s after), then the server is watched
under production traffic, twelve requests per batch (1410 tok/s). The Decode batch mean named
no batch size, so the postmortem's impact said throughput went from 96 to 1410 tok/s, and once
the traffic reading had its row it said "measured once: 1410 tok/s": neither is the fix's effect.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem
from tests.session.incident_story import _Writer

LOG = "grep 'Decode batch' /var/log/sglang/server.log | tail -n 2"


def _log(tput: float, accept: float, running: int) -> str:
    return "\n".join(f"[2026-03-02 08:0{i}:00 TP0] Decode batch, #running-req: {running}, #token: 900, token usage: "
                     f"0.01, accept len: {accept}, accept rate: 0.5, cuda graph: True, gen throughput (token/s): {tput}, "
                     "#queue-req: 0, " for i in range(2))


def _analysis(tmp_path):
    w = _Writer("48480000-0000-4000-8000-0000000000e1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 accept length is about 1.0 on gpu01.")
    w.bash(f"ssh gpu01 '{LOG}'", _log(96.31, 1.02, 1))
    w.bash("ssh gpu01 'sudo systemctl restart sglang'", "")
    w.bash(f"ssh gpu01 '{LOG}'", _log(239.22, 3.2, 1))
    w.bash(f"ssh gpu01 'sleep 120; {LOG}'", _log(1410.57, 3.1, 12))
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def test_each_reading_names_its_batch_size(tmp_path):
    a = _analysis(tmp_path)
    assert [(m.value, m.context) for m in a.metrics if m.name == "throughput"] == [
        (96.31, "SGLang Decode batch, mean of 2 lines, batch size 1"),
        (239.22, "SGLang Decode batch, mean of 2 lines, batch size 1"),
        (1410.57, "SGLang Decode batch, mean of 2 lines, batch size 12")]


def test_the_impact_compares_the_fix_at_one_batch_size(tmp_path):
    md = render_postmortem(_analysis(tmp_path), "md")
    assert "| throughput | 96.31 tok/s [[msg 2]](#msg-2) | 239.22 tok/s [[msg 6]](#msg-6) | 2 | gpu01 |" in md
    assert "Throughput went from 96.31 tok/s [[msg 2]](#msg-2) to 239.22 tok/s [[msg 6]](#msg-6)" in md
