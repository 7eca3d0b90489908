"""analyze: a second reading of the same server is no failed attempt, so no change of approach.

The on-call engineer reads the SGLang decode log (96 tok/s), then runs bench_serving against
the same server (94.7 tok/s): nothing changed between the two. The pivot detector read the
second as "throughput 94.7 tok/s not improving on 96.3" and called the next command (the
launch of the no-speculation baseline) a change of approach; after the fix, the log's 239 tok/s
read after the benchmark's 236.5 made the ``kill`` of the baseline server a pivot. A reading
prompts a pivot only when an attempt (an edit, a launch, a command that changes the host, a
sub-agent) was made since the last one.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

LAUNCH = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --port 30000"
SPEC = " --speculative-algorithm EAGLE3 --speculative-draft-model-path /models/e3 --speculative-eagle-topk {topk}"
BENCH = "python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64"
LOG = "grep 'Decode batch' /var/log/sglang/server.log | tail -n 2"


def _bench(tput: float, accept: float) -> str:
    return (f"Output token throughput (tok/s):         {tput}\n"
            f"Accept length:                           {accept}\n")


def _log(tput: float, accept: float) -> str:
    return "\n".join(f"[2026-03-02 08:0{i}:00 TP0] Decode batch, #running-req: 1, #token: 900, token usage: 0.01, "
                     f"accept len: {accept}, accept rate: 0.26, cuda graph: True, gen throughput (token/s): {tput}, "
                     "#queue-req: 0, " for i in range(2))


def _pivots(tmp_path, calls):
    w = _Writer("48480000-0000-4000-8000-0000000000c1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 on gpu01 is slow.")
    for command, output in calls:
        w.bash(command, output)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    return [(p.trigger_seq, p.seq, p.kind) for p in a.pivots]


def test_two_readings_of_one_server_then_another_step_is_no_pivot(tmp_path):
    assert _pivots(tmp_path, [(f"ssh gpu01 '{LOG}'", _log(96.3, 1.02)),
                              # looking around changes nothing either
                              ("ssh gpu01 'pip show sglang | head -2'", "Name: sglang\nVersion: 0.5.4"),
                              ("ssh gpu01 'journalctl -u sglang -n 20 | grep -i draft'", "Load weight end."),
                              (f"ssh gpu01 '{BENCH}'", _bench(94.7, 1.02)),
                              ("ssh gpu01 'cat /models/e3/config.json'", '{"draft_vocab_size": 32000}'),
                              (f"ssh gpu01 '{BENCH}'", _bench(236.5, 3.2)),
                              (f"ssh gpu01 '{LOG}'", _log(239.2, 3.2)),
                              ("ssh gpu01 'kill 48213'", "")]) == []


def test_a_relaunch_that_did_not_help_still_prompts_a_pivot(tmp_path):
    # the relaunch with another topk is an attempt: its flat reading says it did not work
    assert _pivots(tmp_path, [(f"ssh gpu01 '{BENCH}'", _bench(80.5, 1.3)),
                              (f"ssh gpu01 'pkill -f sglang; nohup {LAUNCH}{SPEC.format(topk=4)} > s.log 2>&1 &'", ""),
                              (f"ssh gpu01 '{BENCH}'", _bench(81.0, 1.3)),
                              ("ssh gpu01 'cat /models/e3/config.json'", '{"draft_vocab_size": 32000}')]) == \
        [(6, 7, "metric")]
