"""analyze: a server launched without speculation in the background is still the plain one.

The on-call engineer starts the no-speculation baseline beside the EAGLE-3 server the usual
way, ``nohup python -m sglang.launch_server ... > /tmp/nospec.log 2>&1 & echo $!``, then
benchmarks it. The line's ``$!`` (the pid it prints) and its log file's name ("nospec") were
read as flags the launch might speculate with, so its 1500 tok/s was a reading of the drafter:
no SD501 for the 1100 tok/s EAGLE-3 run, and the postmortem's resolution said "throughput rose
from 1100 to 1500 tok/s after" the baseline's launch, a fix that never happened.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem
from tests.session.incident_story import _Writer

MODEL = "--model-path meta-llama/Llama-3.1-8B-Instruct"
EAGLE3 = (f"python3 -m sglang.launch_server {MODEL} --port 30000 --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B --speculative-num-steps 3")
BENCH = "python3 -m sglang.bench_serving --backend sglang --num-prompts 200 --port {port}"
READY = "The server is fired up and ready to roll!"


def _summary(output_tps: float, accept: float | None = None) -> str:
    return ("============ Serving Benchmark Result ============\n"
            f"Output token throughput (tok/s):         {output_tps:.2f}\n"
            + (f"Accept length:                           {accept:.2f}\n" if accept else "")
            + "==================================================\n")


def _analyze(tmp_path, plain_launch: str):
    w = _Writer("9a1b0000-0000-4000-8000-00000000b048", None, datetime(2026, 3, 5, 9, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 made serving slower on gpu01, find out why.")
    for command, output in [(f"ssh gpu01 '{EAGLE3}'", READY),
                            (f"ssh gpu01 '{BENCH.format(port=30000)}'", _summary(1100, 1.02)),
                            (f"ssh gpu01 '{plain_launch}'", "48213"),
                            (f"ssh gpu01 '{BENCH.format(port=30001)}'", _summary(1500))]:
        w.bash(command, output)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


@pytest.mark.parametrize("plain_launch", [
    f"CUDA_VISIBLE_DEVICES=1 nohup python3 -m sglang.launch_server {MODEL} --port 30001 > /tmp/nospec.log 2>&1 & echo $!",
    f"nohup python3 -m sglang.launch_server {MODEL} --port 30001 >> /tmp/no-spec-baseline.log 2>&1 &",
])
def test_a_background_plain_launch_gives_the_baseline(tmp_path, plain_launch):
    a = _analyze(tmp_path, plain_launch)
    assert [(m.name, m.value, m.baseline) for m in a.metrics if m.name == "throughput"] == \
        [("throughput", 1100.0, False), ("throughput", 1500.0, True)]
    assert [f.evidence for f in a.findings if f.code == "SD501"] == \
        [["[msg 4] 1100 tok/s measured vs 1500 tok/s baseline [msg 8]"]]
    md = render_postmortem(a, "md")
    assert "rose from 1100 to 1500" not in md


def test_a_launch_whose_flags_are_in_a_variable_is_still_unknown(tmp_path):
    # $SPEC_ARGS may hold --speculative-algorithm: its benchmark is no baseline
    a = _analyze(tmp_path, f"nohup python3 -m sglang.launch_server {MODEL} --port 30001 $SPEC_ARGS > /tmp/s.log 2>&1 &")
    assert [(m.value, m.baseline) for m in a.metrics if m.name == "throughput"] == [(1100.0, False), (1500.0, False)]
    assert [f for f in a.findings if f.code == "SD501"] == []
