"""Postmortem of a session that read throughput at two loads (a server log's Decode batch lines
at one request, then a benchmark that sent 200 prompts at once): the Summary said "Throughput
was measured once: 1234.56 tok/s" and the Impact row "— (measured once)", while the Detection
right below said "First measured throughput: 61.2 tok/s". Readings of two loads are still no
before and after, but the Summary now says the other reading was at another load, with its
link, and the row says "measured once at this load". A host read once says "measured once"."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem
from tests.session.bash_session import write_bash_session

_DECODE = ("[2026-03-02 08:1{i}:00 TP0] Decode batch, #running-req: 1, #token: 900, token usage: 0.01, accept len: "
           "2.10, accept rate: 0.51, cuda graph: True, gen throughput (token/s): 61.20, #queue-req: 0")
_BENCH = ("============ Serving Benchmark Result ============\nBackend:                                 sglang\n"
          "Successful requests:                     200\nOutput token throughput (tok/s):         1234.56\n"
          "==================================================")
_LOG = ("ssh gpu01 'tail -n 4 /var/log/sglang/server.log'", "\n".join(_DECODE.format(i=i) for i in range(4)))
_RUN = ("ssh gpu01 'python3 -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 200'", _BENCH)


def test_the_other_load_is_named_not_hidden(tmp_path: Path) -> None:
    analysis = analyze_path(write_bash_session(tmp_path, "s", "EAGLE-3 on gpu01 is slow, please look.", [_LOG, _RUN]))
    view = postmortem_view(analysis)
    assert [x for x in view["summary"] if x.startswith("Throughput")] == [
        "Throughput was measured once at the load of its last reading: 1234.56 tok/s [msg 4]; 1 other reading "
        "(61.2 tok/s [msg 2]) was at another batch size or load, so no before and after is told."]
    md = render_postmortem(analysis, "md")
    assert "| throughput | 1234.56 tok/s [[msg 4]](#msg-4) | — (measured once at this load) | 1 | gpu01 |" in md
    assert "(61.2 tok/s [[msg 2]](#msg-2))" in md and '<a id="msg-2"></a>' in md
    html = render_postmortem(analysis, "html")
    assert "<td>— (measured once at this load)</td>" in html


def test_one_reading_alone_is_measured_once(tmp_path: Path) -> None:
    analysis = analyze_path(write_bash_session(tmp_path, "s", "EAGLE-3 on gpu01 is slow, please look.", [_RUN]))
    view = postmortem_view(analysis)
    assert [x for x in view["summary"] if x.startswith("Throughput")] == [
        "Throughput was measured once: 1234.56 tok/s [msg 2]."]
    assert view["impact"]["throughput"]["other_loads"] == []
    assert "| throughput | 1234.56 tok/s [[msg 2]](#msg-2) | — (measured once) | 1 | gpu01 |" in \
        render_postmortem(analysis, "md")
