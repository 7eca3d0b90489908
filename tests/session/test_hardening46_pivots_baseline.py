"""analyze: the throughput of a server launched without speculation is the baseline, not a reading.

The on-call story told the other way round: EAGLE-3 is launched on gpu01 and gpu02 and measured
(80.5 and 82 tok/s), then gpu01 is relaunched without speculation (120 tok/s: the baseline,
read after the slow reading), then with another topk (81 tok/s), and the agent turns to the
drafter's config. Before, the postmortem told the baseline run as the fix ("Throughput rose
from 80.5 to 120 tok/s on gpu01 after `pkill -f sglang; nohup ... launch_server` "), its
impact row ended at the baseline's 120 tok/s, and the pivot said 81 tok/s was "not improving on
120" (the baseline, as if an attempt) or on gpu02's 82 (another host's reading).
"""

from __future__ import annotations

import re
from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem
from tests.session.incident_story import _Writer

LAUNCH = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --port 30000"
SPEC = (" --speculative-algorithm EAGLE3 --speculative-draft-model-path /models/e3 --speculative-num-steps 3"
        " --speculative-eagle-topk {topk} --speculative-num-draft-tokens 4")
BENCH = "python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 100 --max-concurrency 1"


def _bench(tput: float, accept: float | None = None) -> str:
    return ("============ Serving Benchmark Result ============\n"
            "Backend:                                 sglang\n"
            "Maximum request concurrency:             1\n"
            "Successful requests:                     100\n"
            f"Output token throughput (tok/s):         {tput}\n"
            + (f"Accept length:                           {accept}\n" if accept else "")
            + "==================================================")


def _session(tmp_path, last: float = 81.0, accept: float = 1.3):
    w = _Writer("46460000-0000-4000-8000-0000000000b1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 on gpu01 and gpu02 is slow.")
    for host, tput in (("gpu01", 80.5), ("gpu02", 82.0)):
        w.bash(f"ssh {host} 'nohup {LAUNCH}{SPEC.format(topk=1)} > spec.log 2>&1 &'", "")
        w.bash(f"ssh {host} '{BENCH}'", _bench(tput, 1.3))
    w.bash(f"ssh gpu01 'pkill -f sglang; nohup {LAUNCH} > base.log 2>&1 &'", "")
    w.bash(f"ssh gpu01 '{BENCH}'", _bench(120.0), text="Now the baseline without speculation.")
    w.bash(f"ssh gpu01 'pkill -f sglang; nohup {LAUNCH}{SPEC.format(topk=4)} > spec.log 2>&1 &'", "")
    w.bash(f"ssh gpu01 '{BENCH}'", _bench(last, accept), text="Changed topk; re-measuring.")
    w.bash("cat /models/e3/config.json", '{"draft_vocab_size": 32000}',
           text="Throughput did not improve. Let me read the drafter config instead.")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def test_the_plain_servers_reading_is_marked_as_the_baseline(tmp_path):
    a = _session(tmp_path)
    tput = [(m.seq, m.value, m.host, m.baseline) for m in a.metrics if m.name == "throughput"]
    assert tput == [(4, 80.5, "gpu01", False), (8, 82.0, "gpu02", False), (12, 120.0, "gpu01", True),
                    (16, 81.0, "gpu01", False)]
    assert a.to_json()["metrics"][4]["baseline"] is True



def test_the_eagle3_run_before_the_plain_one_is_compared_with_it(tmp_path):
    # before: the 80.5 tok/s read before the baseline had no SD501 (only the later 81 did)
    a = _session(tmp_path)
    assert [(f.seq, f.evidence) for f in a.findings if f.code == "SD501"] == [(4, [
        "[msg 4] 80.5 tok/s measured vs 120 tok/s baseline [msg 12]",
        "[msg 8] 82 tok/s measured vs 120 tok/s baseline [msg 12]",
        "[msg 16] 81 tok/s measured vs 120 tok/s baseline [msg 12]"])]


def test_the_pivot_compares_with_the_last_attempt_on_the_same_host(tmp_path):
    a = _session(tmp_path)
    assert [(p.seq, p.trigger_seq, p.kind) for p in a.pivots] == [(17, 16, "metric")]
    assert a.pivots[0].summary.startswith("After throughput 81 tok/s not improving on 80.5, baseline 120 [msg 16]")


def test_the_postmortem_does_not_tell_the_baseline_as_the_fix(tmp_path):
    md = render_postmortem(_session(tmp_path), "md")
    assert "| throughput | 80.5 tok/s [[msg 4]](#msg-4) | 81 tok/s [[msg 16]](#msg-16) | 2 | gpu01 |" in md
    assert ("Throughput on gpu01 went from 80.5 tok/s [[msg 4]](#msg-4) to 81 tok/s [[msg 16]](#msg-16) "
            "against a 120 tok/s baseline [[msg 12]](#msg-12).") in md
    assert "Baseline without speculation: 120 tok/s [[msg 12]](#msg-12)." in md
    assert "rose from" not in md
    assert "- No change in the session was followed by a rise in measured throughput." in md


def test_the_html_postmortem_links_only_to_its_own_entries(tmp_path):
    html = render_postmortem(_session(tmp_path), "html")
    ids = set(re.findall(r'id="([^"]+)"', html))
    assert {h for h in re.findall(r'href="#([^"]+)"', html)} <= ids
    assert not re.findall(r'(?:src|href)="(?!#)', html)  # self-contained


def test_a_rise_after_the_baseline_run_credits_the_eagle3_relaunch_alone(tmp_path):
    # the topk change works (130 tok/s, over the 120 baseline): a confirmation, no pivot. Before,
    # the resolution credited the relaunch without speculation too, "after `pkill -f sglang; nohup
    # python -m sglang.launch_server … --port 30000 >…` [msg 9], relaunching the server with …"
    a = _session(tmp_path, last=130.0, accept=2.9)
    assert a.pivots == []
    md = render_postmortem(a, "md")
    assert ("- Throughput rose from 80.5 to 130 tok/s on gpu01 [[msg 16]](#msg-16) after relaunching the server with "
            "`--speculative-algorithm EAGLE3 --speculative-draft-model-path /models/e3 --speculative-num-steps 3 "
            "--speculative-eagle-topk 4 --speculative-num-draft-tokens 4` [[msg 13]](#msg-13).") in md
    assert "[msg 9]](#msg-9)" not in md.split("## Resolution")[1].split("## Lessons")[0]


def test_a_baseline_run_below_the_eagle3_run_is_no_failed_attempt(tmp_path):
    # EAGLE-3 at 130 tok/s, then the plain server at 120 for comparison, then the agent reads the
    # drafter's config. Before, the 120 "did not improve on 130": a pivot from benchmarking.
    w = _Writer("46460000-0000-4000-8000-0000000000b3", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Is EAGLE-3 worth it on gpu01?")
    w.bash(f"ssh gpu01 'nohup {LAUNCH}{SPEC.format(topk=1)} > spec.log 2>&1 &'", "")
    w.bash(f"ssh gpu01 '{BENCH}'", _bench(130.0, 2.9))
    w.bash(f"ssh gpu01 'pkill -f sglang; nohup {LAUNCH} > base.log 2>&1 &'", "")
    w.bash(f"ssh gpu01 '{BENCH}'", _bench(120.0), text="Now the baseline without speculation.")
    w.bash("cat /models/e3/config.json", '{"draft_vocab_size": 32000}', text="Let me note the drafter's config.")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [m.baseline for m in a.metrics if m.name == "throughput"] == [False, True]
    assert a.pivots == []
