"""Postmortem of a session that benchmarked EAGLE-3 at one request, then at 64 at once: the
throughput row already told no before and after for the two runs ("measured once at this load"),
but the acceptance rows right below it said "accept_length 2.1 -> 1.42 tokens", a fall no change
made (the two runs drafted for different loads). Now acceptance read at another batch size or
load is not compared either: the row says "measured once at this load" and lists the other
reading in `other_loads`; readings at one load, before and after a fix, are compared as before."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem
from tests.session.bash_session import write_bash_session

_BENCH = "ssh gpu01 'python3 -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 200 --max-concurrency {c}'"


def _result(c: int, tput: float, accept: float) -> str:
    return ("============ Serving Benchmark Result ============\nBackend:                                 sglang\n"
            f"Max request concurrency:                 {c}\nSuccessful requests:                     200\n"
            f"Output token throughput (tok/s):         {tput}\nAccept length:                           {accept}\n"
            "==================================================")


def test_acceptance_at_two_loads_is_not_compared(tmp_path: Path) -> None:
    runs = [(_BENCH.format(c=1), _result(1, 61.2, 2.10)), (_BENCH.format(c=64), _result(64, 1234.5, 1.42))]
    analysis = analyze_path(write_bash_session(tmp_path, "s", "EAGLE-3 on gpu01 is slow, please look.", runs))
    row = postmortem_view(analysis)["impact"]["accept_length"]
    assert (row["before"], row["before_seq"], row["after"], row["after_seq"], row["readings"]) == (1.42, 4, 1.42, 4, 1)
    assert row["other_loads"] == [{"value": 2.1, "seq": 2, "unit": "tokens"}]
    md = render_postmortem(analysis, "md")
    assert "| accept_length | 1.42 tokens [[msg 4]](#msg-4) | — (measured once at this load) | 1 | gpu01 |" in md
    impact = md[md.index("## Impact"):md.index("## Detection")]
    assert "2.1 tokens" not in impact
    assert "<td>accept_length</td><td>1.42 tokens" in render_postmortem(analysis, "html")


def test_acceptance_at_one_load_before_and_after_a_fix_is_compared(tmp_path: Path) -> None:
    runs = [(_BENCH.format(c=1), _result(1, 61.2, 1.02)), (_BENCH.format(c=64), _result(64, 1234.5, 1.01)),
            ("ssh gpu01 'sed -i s/num-steps 1/num-steps 3/ /root/launch.sh && bash /root/launch.sh'", "started"),
            (_BENCH.format(c=1), _result(1, 98.4, 2.85))]
    analysis = analyze_path(write_bash_session(tmp_path, "s", "EAGLE-3 on gpu01 is slow, please look.", runs))
    row = postmortem_view(analysis)["impact"]["accept_length"]
    assert (row["before"], row["before_seq"], row["after"], row["after_seq"], row["readings"]) == (1.02, 2, 2.85, 8, 2)
    assert row["other_loads"] == [{"value": 1.01, "seq": 4, "unit": "tokens"}]
