"""distill: the benchmark of the baseline server the session started is no step.

The on-call starts a no-speculation server beside the EAGLE-3 one (`--port 30001`), benchmarks
both, and the playbook kept `bench_serving --port 30001`: the launch is left out (it changes the
host), so the step benchmarks a port nothing listens on. The same benchmark words against the
EAGLE-3 server's port stay a step.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook
from tests.session.incident_story import _Writer

MODEL = "--model-path meta-llama/Llama-3.1-8B-Instruct"
EAGLE3 = (f"python3 -m sglang.launch_server {MODEL} --port 30000 --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /models/e3 --speculative-num-steps 3")
PLAIN = f"nohup python3 -m sglang.launch_server {MODEL} --port {{port}} > /tmp/base.log 2>&1 &"
BENCH = "python3 -m sglang.bench_serving --backend sglang --num-prompts 64 --port {port}"


def _summary(tput: float, accept: float | None = None) -> str:
    return (f"Output token throughput (tok/s):         {tput:.2f}\n"
            + (f"Accept length:                           {accept:.2f}\n" if accept else ""))


def _runs(tmp_path, calls):
    w = _Writer("48480000-0000-4000-8000-0000000000c7", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 made serving slower on gpu01.")
    for command, output in calls:
        w.bash(f"ssh gpu01 '{command}'", output)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return [s["run"] for s in distill_playbook(analyze_path(path))["steps"]]


def test_the_baseline_servers_benchmark_is_left_out(tmp_path):
    runs = _runs(tmp_path, [(EAGLE3, "ready"), (BENCH.format(port=30000), _summary(94.7, 1.02)),
                            (PLAIN.format(port=30001), ""), (BENCH.format(port=30001), _summary(141.4))])
    assert runs == [BENCH.format(port=30000)]


def test_the_same_words_against_the_eagle3_server_stay(tmp_path):
    # one port: the baseline first, then EAGLE-3 relaunched there; the benchmark is one step
    runs = _runs(tmp_path, [(PLAIN.format(port=30000), ""), (BENCH.format(port=30000), _summary(141.4)),
                            (f"pkill -f sglang; {EAGLE3}", "ready"), (BENCH.format(port=30000), _summary(94.7, 1.02))])
    assert runs == [BENCH.format(port=30000)]
