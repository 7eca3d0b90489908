"""analyze: a benchmark of a no-speculation server the session found running is the baseline.

The on-call story (DESIGN.md: "EAGLE-3 made serving slower on gpu01"): both servers were already
up, the plain one on 30001 beside EAGLE-3 on 30000, on gpu01 and on gpu02. The agent said "First the
baseline without speculation on gpu01 (port 30001)" and benchmarked it; SGLang's bench_serving
printed no "Accept length" line (it prints one only when the server reports one:
python/sglang/bench_serving.py `if accept_length:`). With no launch in the session to tell which
server was plain, the 90 tok/s baseline was read as an EAGLE-3 reading: no SD501 for the 54.8 tok/s
EAGLE-3 run beside it, and the postmortem's impact said throughput "went from 90 tok/s" (the
baseline) "to 171.2", on gpu02 "from 150" (gpu02's baseline) "to 265".
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem
from tests.session.incident_story import _Writer, _bench

FIXED = ("python -m sglang.launch_server --model-path /models/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
         "--speculative-draft-model-path /models/llama31-eagle3 --speculative-num-steps 3 --speculative-eagle-topk 1 "
         "--speculative-num-draft-tokens 4 --port 30000")


def _plain_bench(tput: float) -> str:
    """bench_serving of a server that does not speculate: no Accept length line."""
    return "\n".join(line for line in _bench(tput, 1.0).splitlines() if not line.startswith("Accept length"))


def _bench_cmd(host: str, port: int) -> str:
    return (f"ssh {host} 'python -m sglang.bench_serving --backend sglang --port {port} --num-prompts 64 "
            f"--max-concurrency 1'")


def _session(tmp_path: Path, first_words: str) -> Path:
    m = _Writer("5e5e0000-0000-4000-8000-000000006303", None, datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 made serving slower on gpu01 and gpu02. Compare against the no-speculation baselines on "
             "each host and fix it.")
    m.bash(_bench_cmd("gpu01", 30001), _plain_bench(90.0), text=first_words)
    m.bash(_bench_cmd("gpu01", 30000), _bench(54.8, 1.02), text="Now the EAGLE-3 server on gpu01.")
    m.bash(_bench_cmd("gpu02", 30001), _plain_bench(150.0), text="Baseline without speculation on gpu02 (H200).")
    m.bash(_bench_cmd("gpu02", 30000), _bench(120.5, 1.1), text="EAGLE-3 on gpu02.")
    m.bash("ssh gpu01 'ps -eo args | grep [s]glang.launch_server'", FIXED.replace("steps 3", "steps 1"),
           text="Both are below baseline. Let me see the launch flags.")
    for host in ("gpu01", "gpu02"):
        m.bash(f"ssh {host} 'pkill -f sglang.launch_server; nohup {FIXED} > /tmp/sgl.log 2>&1 &'", "",
               text=f"Relaunch on {host} with 3 steps.")
    m.bash(_bench_cmd("gpu01", 30000), _bench(171.2, 3.2), text="Benchmark gpu01 again.")
    m.bash(_bench_cmd("gpu02", 30000), _bench(265.0, 3.3), text="Benchmark gpu02 again.")
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    return path


def test_the_plain_servers_benchmarks_are_the_baselines(tmp_path):
    a = analyze_path(_session(tmp_path, "First the baseline without speculation on gpu01 (port 30001)."))
    assert [(m.seq, m.value, m.host) for m in a.metrics if m.name == "throughput" and m.baseline] == \
        [(2, 90.0, "gpu01"), (6, 150.0, "gpu02")]
    [sd501] = [f for f in a.findings if f.code == "SD501"]
    assert sd501.evidence == ["[msg 4] 54.8 tok/s measured vs 90 tok/s baseline [msg 2]",
                              "[msg 8] 120.5 tok/s measured vs 150 tok/s baseline [msg 6]"]
    md = render_postmortem(a, "md")
    assert "| throughput | 54.8 tok/s [[msg 4]](#msg-4) | 171.2 tok/s [[msg 16]](#msg-16) | 2 | gpu01 |" in md, md
    assert "| throughput | 120.5 tok/s [[msg 8]](#msg-8) | 265 tok/s [[msg 18]](#msg-18) | 2 | gpu02 |" in md, md
    assert "from 90" not in md and "from 150" not in md


@pytest.mark.parametrize("words", [
    # the drafter named outside the "without ..." phrase: the EAGLE-3 run, compared with one
    "Benchmark EAGLE-3 on gpu01 (port 30001) to compare with the run without speculation.",
    # "a baseline" alone: as often the deployment as it stands, before a change
    "Let me get a baseline on gpu01 (port 30001) before changing anything.",
])
def test_words_that_do_not_say_the_run_is_without_speculation(tmp_path, words):
    """No accept length printed, and words that do not say the run drafts nothing: gpu01's
    benchmark stays a reading (gpu02's, said to be without speculation, is its baseline)."""
    a = analyze_path(_session(tmp_path, words))
    assert [(m.seq, m.value) for m in a.metrics if m.name == "throughput" and m.baseline] == [(6, 150.0)]
