"""Postmortem of a session that benchmarked at one request, at 64, and after a relaunch at one
again: the Impact rows compared the two runs at one request (61.2 -> 98.2 tok/s), rightly, but
the run at 64 (1234.5 tok/s) was in no row and nothing in the Impact said it was left out. Now
a line under the table names the readings each compared row left out, at another load."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem
from tests.session.bash_session import write_bash_session
from tests.session.test_hardening75_postmortem_acceptance_loads import _BENCH, _result


def _analysis(tmp_path: Path, runs: list[tuple[str, str]]):
    return analyze_path(write_bash_session(tmp_path, "s", "EAGLE-3 on gpu01 is slow, please look.", runs))


def test_the_reading_left_out_of_a_compared_row_is_named(tmp_path: Path) -> None:
    analysis = _analysis(tmp_path, [(_BENCH.format(c=1), _result(1, 61.2, 2.10)),
                                    (_BENCH.format(c=64), _result(64, 1234.5, 1.42)),
                                    ("ssh gpu01 bash /root/launch.sh", "started"),
                                    (_BENCH.format(c=1), _result(1, 98.2, 2.9))])
    view = postmortem_view(analysis)
    assert (view["impact"]["throughput"]["before"], view["impact"]["throughput"]["after"]) == (61.2, 98.2)
    assert view["impact_not_compared"] == [
        "Not in the throughput row of gpu01, read at another batch size or load: 1234.5 tok/s [msg 4].",
        "Not in the accept_length row of gpu01, read at another batch size or load: 1.42 tokens [msg 4]."]
    md = render_postmortem(analysis, "md")
    impact = md[md.index("## Impact"):md.index("## Detection")]
    assert "\n\nNot in the throughput row of gpu01, read at another batch size or load: 1234.5 tok/s " \
           "[[msg 4]](#msg-4).\n" in impact
    assert '<a id="msg-4"></a>' in md
    html = render_postmortem(analysis, "html")
    assert "<p>Not in the throughput row of gpu01, read at another batch size or load: 1234.5 tok/s " in html


def test_a_row_measured_once_at_its_load_says_it_in_the_summary_alone(tmp_path: Path) -> None:
    analysis = _analysis(tmp_path, [(_BENCH.format(c=1), _result(1, 61.2, 2.10)),
                                    (_BENCH.format(c=64), _result(64, 1234.5, 1.42))])
    assert postmortem_view(analysis)["impact_not_compared"] == []
