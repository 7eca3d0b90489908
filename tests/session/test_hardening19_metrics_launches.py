"""A benchmark run against a server names no model (``bench_serving --backend sglang``); the
launch before it does. A session that measured Llama-3.1-8B and Qwen3-30B-A3B without
speculation compares the Llama EAGLE3 run with Llama's baseline, not with the last one read.
Launch lines as in https://github.com/sgl-project/sglang/pull/10846 (Llama-3.1-8B-Instruct with
lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B) and https://github.com/sgl-project/SpecForge/issues/339
(Qwen3-30B-A3B on two H100s, base model 222.47 tok/s at bs=1); the summary is bench_serving's."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.incident_story import _Writer

START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
SESSION = "7e1a0000-0000-4000-8000-00000000bb1b"
LLAMA = "python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct --port 30000"
LLAMA_EAGLE3 = (LLAMA + " --speculative-algo EAGLE3 --speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B"
                " --speculative-num-steps 2 --speculative-eagle-topk 1 --speculative-num-draft-tokens 3")
QWEN = "python3 -m sglang.launch_server --model-path Qwen/Qwen3-30B-A3B --tp 2 --port 30000"
BENCH = "python3 -m sglang.bench_serving --backend sglang --dataset-name sharegpt --num-prompts 80 --max-concurrency 1"
READY = "The server is fired up and ready to roll!"


def _summary(output_tps: float) -> str:
    return ("============ Serving Benchmark Result ============\n"
            "Backend:                                 sglang\n"
            "Max request concurrency:                 1\n"
            "Successful requests:                     80\n"
            "Request throughput (req/s):              0.81\n"
            f"Output token throughput (tok/s):         {output_tps}\n"
            "==================================================\n")


def _analyze(tmp_path: Path):
    w = _Writer(SESSION, None, START)
    w.bash(LLAMA, READY)
    w.bash(BENCH, _summary(160.31))
    w.say("Baseline without speculation at bs=1: 160.31 tok/s.")
    w.bash(QWEN, READY)
    w.bash(BENCH, _summary(222.47))
    w.say("Baseline without speculation at bs=1: 222.47 tok/s.")
    w.bash(LLAMA_EAGLE3, READY)
    w.bash(BENCH, _summary(207.62))
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def test_a_bare_benchmark_is_compared_with_the_baseline_of_the_model_launched_before_it(tmp_path):
    a = _analyze(tmp_path)
    # before: SD501 "207.62 tok/s measured vs 222.47 tok/s baseline" (Qwen3-30B's, another model)
    assert [f.evidence for f in a.findings if f.code == "SD501"] == []


def test_the_postmortem_names_the_launched_models_baseline(tmp_path):
    impact = postmortem_view(_analyze(tmp_path))["impact"]
    # before: 222.47 (Qwen3-30B's); the throughput row went "from" Llama's 160.31 to Llama's 207.62,
    # leaving out Qwen's 222.47 between them
    assert impact["baseline"]["value"] == 160.31
    # Llama's 160.31 is the plain server's benchmark: the baseline, not a "before" (hardening46)
    assert (impact["throughput"]["before"], impact["throughput"]["after"], impact["throughput"]["readings"]) == \
        (207.62, 207.62, 1)


def test_a_slower_eagle3_run_of_the_same_model_is_still_sd501(tmp_path):
    w = _Writer(SESSION, None, START)
    w.bash(LLAMA, READY)
    w.say("Baseline without speculation at bs=1: 222.47 tok/s.")
    w.bash(LLAMA_EAGLE3, READY)
    w.bash(BENCH, _summary(159.78))
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    evidence = [line for f in analyze_path(path).findings if f.code == "SD501" for line in f.evidence]
    assert [line for line in evidence if "159.78 tok/s measured vs 222.47 tok/s baseline" in line]
