"""Detection's "First measured throughput" is the first reading, whatever its load.

A session benchmarked gpu01 at one request a second (60.5 tok/s), then at eight (140.2 tok/s).
Readings of two loads are no before and after (hardening 66): the Impact row keeps the last
load's. But Detection took that row's first reading as the first one measured and said "First
measured throughput: 140.2 tok/s [msg 4]", though 60.5 tok/s was measured first, at [msg 2].
It names the first reading of the host now; where the readings are of one load, as before."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem
from tests.session.test_hardening66_bench_load import _Session


def _analysis(tmp_path: Path, *runs: tuple[str, str]):
    s = _Session()
    s.add("user", "EAGLE-3 on gpu01 is slow, please fix it.")
    for flags, value in runs:
        s.bench(flags, value)
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in s.lines), encoding="utf-8")
    return analyze_path(path)


def test_the_first_reading_of_another_load_is_the_first_measured(tmp_path: Path) -> None:
    analysis = _analysis(tmp_path, ("--request-rate 1", "60.5"), ("--request-rate 8", "140.2"))
    view = postmortem_view(analysis)
    assert view["detection"] == ["Reported by the user [msg 0].", "First measured throughput: 60.5 tok/s [msg 2]."]
    # (hardening 66; round 74 names the other load's reading, was "measured once: 140.2 tok/s [msg 4].")
    assert ("Throughput was measured once at the load of its last reading: 140.2 tok/s [msg 4]; 1 other reading "
            "(60.5 tok/s [msg 2]) was at another batch size or load, so no before and after is told.") in view["summary"]
    md = render_postmortem(analysis, "md")
    assert "- First measured throughput: 60.5 tok/s [[msg 2]](#msg-2).\n" in md
    assert '<a id="msg-2"></a>' in md  # the link has its supporting entry


def test_readings_of_one_load_as_before(tmp_path: Path) -> None:
    analysis = _analysis(tmp_path, ("--request-rate 8", "60.5"), ("--request-rate 8", "140.2"))
    assert postmortem_view(analysis)["detection"][-1] == "First measured throughput: 60.5 tok/s [msg 2]."
