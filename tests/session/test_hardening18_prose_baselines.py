"""Baselines stated in prose are the run without speculation, with their batch size when the
sentence states one, and each reading is judged against its own row's. Numbers and sentences are
those of the thread named above each test."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.baselines import row_key
from spec_debug.session.metrics import extract_metrics
from tests.session.incident_story import _Writer

START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)


def _readings(text: str) -> list[tuple[str, float, str | None]]:
    return [(m.name, m.value, row_key(m.context, m.value)) for m in extract_metrics(text)
            if m.name in ("throughput", "baseline_throughput")]


def _sd501(tmp_path: Path, *prompts: str) -> list[str]:
    w = _Writer("7e1a0000-0000-4000-8000-00000000bb19", None, START)
    for text in prompts:
        w.prompt(text)
    path = tmp_path / "7e1a0000-0000-4000-8000-00000000bb19.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return [line for f in analyze_path(path).findings if f.code == "SD501" for line in f.evidence]


def test_baselines_stated_per_batch_size_in_prose_are_baselines_of_their_rows():
    # https://github.com/sgl-project/SpecForge/issues/339: the base model's bs=1 and bs=4 speeds
    text = "Baseline at bs=1: 222.47 tok/s; baseline at bs=4: 566.21 tok/s"
    # before: both read as ordinary throughputs (and so as slowdowns of nothing)
    assert _readings(text) == [("baseline_throughput", 222.47, "1"), ("baseline_throughput", 566.21, "4")]


def test_an_eagle3_run_is_judged_against_the_prose_baseline_of_its_batch_size(tmp_path):
    # https://github.com/sgl-project/SpecForge/issues/339: EAGLE3 at bs=4 gave 447.90 tok/s
    evidence = _sd501(tmp_path, "Baseline at bs=1: 222.47 tok/s; baseline at bs=4: 566.21 tok/s",
                      "EAGLE3 at bs=4: 447.90 tok/s")
    # before: no SD501 at all, the baselines were throughputs
    assert [line for line in evidence if "447.9 tok/s measured vs 566.21 tok/s baseline" in line]


def test_without_speculation_at_the_head_of_the_sentence_names_the_baseline():
    # https://github.com/sgl-project/SpecForge/issues/339, the base model's bs=1 row in words
    assert _readings("Without speculation, the output throughput is 222.47 tok/s at bs=1") == \
        [("baseline_throughput", 222.47, "1")]


def test_the_peak_without_a_draft_model_is_the_baseline_and_the_eagle_runs_are_not():
    # https://github.com/NickL77/BaldEagle/issues/15
    text = ("I noticed that on the first two difficulty levels of Math-500, the acclen was about 4 and the "
            "throughput reached 1300 tokens/s. However, as the difficulty increased, the length of acclen "
            "decreased and the throughput dropped severely to only 100 tokens/s. \n\nEmmm. \n"
            "I just noticed when post model without draft model the peak throughput reached 2700 tokens/s")
    assert sorted(_readings(text)) == [("baseline_throughput", 2700.0, None), ("throughput", 100.0, None),
                                       ("throughput", 1300.0, None)]


def test_a_bare_trailing_without_is_the_run_without_speculation():
    # https://github.com/sgl-project/sglang/pull/4716: EAGLE3 234.54 token/s, w/o spec 88.61 token/s
    assert sorted(_readings("On Llama-3.3-70B EAGLE3 gets 234.54 token/s with the draft and 88.61 token/s without.")) \
        == [("baseline_throughput", 88.61, None), ("throughput", 234.54, None)]
    assert sorted(_readings("With EAGLE3 it is 234.54 token/s; without, 88.61 token/s")) \
        == [("baseline_throughput", 88.61, None), ("throughput", 234.54, None)]


def test_a_reading_after_the_no_spec_one_or_a_comparison_stays_a_throughput():
    # https://github.com/sgl-project/sglang/issues/6949 ("with eagle: 30 tps / without eagle: 21 tps"), reordered
    assert sorted(_readings("Without eagle: 21 tps, with eagle: 30 tps")) == \
        [("baseline_throughput", 21.0, None), ("throughput", 30.0, None)]
    # https://github.com/sgl-project/sglang/pull/4716's EAGLE3 number, said against the run without
    assert _readings("Compared with running without speculation, EAGLE3 gets 234.54 token/s") == \
        [("throughput", 234.54, None)]
    assert _readings("I started the server without speculative decoding first. "
                     "Then EAGLE3 gave 234.54 token/s") == [("throughput", 234.54, None)]


# sglang bench_serving's summary (python/sglang/bench_serving.py) with SpecForge#339's EAGLE3 numbers
def _bench(tput: float) -> str:
    return ("============ Serving Benchmark Result ============\n"
            "Backend:                                 sglang\n"
            "Successful requests:                     20\n"
            f"Output token throughput (tok/s):         {tput}\n")


def test_the_resolution_compares_a_run_with_the_runs_of_its_own_batch_size(tmp_path):
    from spec_debug.session.postmortem import postmortem_view
    # https://github.com/sgl-project/SpecForge/issues/339: Qwen3-30B-A3B with EAGLE3, bs=1 then bs=4
    launch = ("python -m sglang.launch_server --model Qwen/Qwen3-30B-A3B --speculative-algorithm EAGLE3 "
              "--speculative-num-steps 3 --speculative-eagle-topk {} --speculative-num-draft-tokens {} --tp-size 2")
    bench = "python -m sglang.bench_serving --backend sglang --max-concurrency {} --num-prompts 20"
    w = _Writer("7e1a0000-0000-4000-8000-00000000bb1a", None, START)
    w.prompt("EAGLE3 makes Qwen3-30B-A3B slower on H100*2; find a better config.")
    w.bash(launch.format(1, 4), "")
    w.bash(bench.format(1), _bench(159.78))
    w.bash(launch.format(3, 8), "")
    w.bash(bench.format(4), _bench(426.46))
    relaunch = w.bash(launch.format(3, 4), "")[0]
    _, bs1 = w.bash(bench.format(1), _bench(207.62))
    path = tmp_path / "7e1a0000-0000-4000-8000-00000000bb1a.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    resolution = postmortem_view(analyze_path(path))["resolution"]
    # before: "Throughput rose from 159.78 to 426.46 tok/s", a bs=4 run against a bs=1 one, and the
    # bs=1 run that did rise (207.62 against 159.78) was no rise below 426.46
    assert [line.split(" after ")[0] for line in resolution] == [f"Throughput rose from 159.78 to 207.62 tok/s [msg {bs1}]"]
    assert f"[msg {relaunch}]" in resolution[0]




def test_the_impact_and_resolution_do_not_compare_two_models(tmp_path):
    from spec_debug.session.postmortem import postmortem_view
    # https://github.com/vllm-project/vllm/pull/16937 (Llama-3.1-8B, EAGLE 3 K=2: 220.21), then
    # https://github.com/sgl-project/SpecForge/issues/339 (Qwen3-30B-A3B, EAGLE3 bs=1: 159.78)
    bench = "python -m sglang.bench_serving --backend sglang --model {} --num-prompts 20"
    w = _Writer("7e1a0000-0000-4000-8000-00000000bb1b", None, START)
    w.prompt("Compare EAGLE3 on the Llama and the Qwen model.")
    w.bash(bench.format("meta-llama/Llama-3.1-8B-Instruct"), _bench(220.21))
    w.bash("python -m sglang.launch_server --model Qwen/Qwen3-30B-A3B --speculative-algorithm EAGLE3 --tp-size 2", "")
    _, qwen = w.bash(bench.format("Qwen/Qwen3-30B-A3B"), _bench(159.78))
    w.bash("python -m sglang.launch_server --model Qwen/Qwen3-30B-A3B --speculative-algorithm EAGLE3 "
           "--speculative-eagle-topk 3 --tp-size 2", "")
    _, risen = w.bash(bench.format("Qwen/Qwen3-30B-A3B"), _bench(207.62))
    path = tmp_path / "7e1a0000-0000-4000-8000-00000000bb1b.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    view = postmortem_view(analyze_path(path))
    row = view["impact"]["throughput"]
    # before: "from 220.21 tok/s" (the Llama run) "to 207.62 tok/s" (the Qwen one)
    assert (row["before"], row["before_seq"], row["after"]) == (159.78, qwen, 207.62)
    assert [line.split(" after ")[0] for line in view["resolution"]] == \
        [f"Throughput rose from 159.78 to 207.62 tok/s [msg {risen}]"]
