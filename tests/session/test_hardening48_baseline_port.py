"""analyze: the baseline server is the one on the port the benchmark names.

The on-call keeps EAGLE-3 serving on port 30000 and starts the model without speculation on
30001 beside it. A benchmark of 30000 whose output shows no acceptance (a client that prints
none) was read as the baseline server's, because the last launch on the host was the plain
one: the slow EAGLE-3 reading became a second baseline and SD501 never fired.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

MODEL = "--model-path meta-llama/Llama-3.1-8B-Instruct"
EAGLE3 = (f"python3 -m sglang.launch_server {MODEL} --port 30000 --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /models/e3")
PLAIN = f"nohup python3 -m sglang.launch_server {MODEL} --port 30001 > /tmp/base.log 2>&1 &"
BENCH = "python3 -m sglang.bench_serving --backend sglang --num-prompts 64 {target}"


def _analysis(tmp_path, eagle3_target: str):
    w = _Writer("48480000-0000-4000-8000-0000000000c9", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 made serving slower on gpu01.")
    for command, output in [(EAGLE3, "ready"), (PLAIN, ""),
                            (BENCH.format(target="--port 30001"), "Output token throughput (tok/s):   141.40\n"),
                            (BENCH.format(target=eagle3_target), "Output token throughput (tok/s):   94.70\n")]:
        w.bash(f"ssh gpu01 '{command}'", output)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def test_the_eagle3_port_is_measured_against_the_baseline_port(tmp_path):
    for target in ("--port 30000", "--base-url http://127.0.0.1:30000"):
        a = _analysis(tmp_path, target)
        assert [(m.value, m.baseline) for m in a.metrics if m.name == "throughput"] == [(141.4, True), (94.7, False)]
        assert [f.evidence for f in a.findings if f.code == "SD501"] == [
            ["[msg 8] 94.7 tok/s measured vs 141.4 tok/s baseline [msg 6]"]]
