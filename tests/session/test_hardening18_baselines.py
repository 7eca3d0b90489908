"""Which no-speculation baseline a throughput reading is judged against: the one of its own
batch size, model and engine, not the last one read. Each text is copied from the thread named
above it (numbers and sentences as posted)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.incident_story import _Writer

START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)

# https://github.com/sgl-project/SpecForge/issues/339: the base model's tok/s by batch size,
# then EAGLE3's (bs 1 and 4) on Qwen3-30B-A3B, two H100s.
SPECFORGE_339 = ('I got a throughput degrade when I try to EAGLE3 to speed up Qwen3-30B-A3B (in H100*2).\n'
                 '\n'
                 'The base model speed:\n'
                 '\n'
                 'bs | throughput\n'
                 '-- | --\n'
                 '1 | 222.47\n'
                 '4 | 566.21\n'
                 '8 | 733.61\n'
                 '16 | 1012.96\n'
                 '32 | 1077.55\n'
                 '64 | 1073.69\n'
                 '\n'
                 'And the results of EAGLE3 combined:\n'
                 '\n'
                 'bs | steps | topk | num_draft | throughput | acc len\n'
                 '-- | -- | -- | -- | -- | --\n'
                 '1 | 3 | 1 | 4 | 159.78 | 1.86\n'
                 '1 | 3 | 3 | 8 | 172.99 | 2.20\n'
                 '1 | 3 | 3 | 4 | 207.62 | 1.99\n'
                 '1 | 7 | 4 | 16 | 191.90 | 2.52\n'
                 '1 | 6 | 4 | 12 | 171.54 | 2.42\n'
                 '1 | 8 | 8 | 60 | 177.5 | 3.2\n'
                 '4 | 3 | 1 | 4 | 447.90 | 1.86\n'
                 '4 | 3 | 3 | 8 | 426.46 | 2.27\n')


def _session() -> _Writer:
    return _Writer("7e1a0000-0000-4000-8000-00000000bb18", None, START)


def _analyze(tmp_path: Path, writer: _Writer):
    path = tmp_path / "7e1a0000-0000-4000-8000-00000000bb18.jsonl"
    path.write_text("\n".join(writer.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def _sd501(a) -> list[str]:
    return [line for f in a.findings if f.code == "SD501" for line in f.evidence]


def test_each_batch_size_is_judged_against_the_base_models_speed_at_that_batch_size(tmp_path):
    m = _session()
    seq = m.prompt(SPECFORGE_339)
    a = _analyze(tmp_path, m)
    # before: "159.78 tok/s measured vs 1073.69 tok/s baseline" (bs=1 against the bs=64 row)
    evidence = _sd501(a)
    assert evidence, "every EAGLE3 run in the issue is slower than the base model at its batch size"
    assert evidence[0] == f"[msg {seq}] 159.78 tok/s measured vs 222.47 tok/s baseline"
    assert all("1073.69" not in line for line in evidence)


def test_the_postmortem_impact_names_the_last_readings_own_baseline(tmp_path):
    m = _session()
    m.prompt(SPECFORGE_339)
    view = postmortem_view(_analyze(tmp_path, m))
    # before: the bs=4 reading 426.46 "against a 222.47 tok/s baseline" (the first one read, bs=1): a speedup
    assert view["impact"]["throughput"]["after"] == 426.46
    assert view["impact"]["baseline"]["value"] == 566.21


def test_a_reading_of_another_model_is_not_judged_against_this_ones_baseline(tmp_path):
    m = _session()
    # the base model's bs=1 speed from SpecForge#339 (Qwen3-30B-A3B) ...
    m.prompt("Qwen3-30B-A3B base model speed at bs=1: 222.47 tok/s without speculation. "
             "Now the Llama run.")
    # ... then https://github.com/vllm-project/vllm/pull/16937: "EAGLE 3
    # (`yuhuili/EAGLE3-LLaMA3.1-Instruct-8B`): K=2: 220.21, speedup: 1.65x" over 133 vanilla
    m.say("EAGLE 3 on meta-llama/Llama-3.1-8B-Instruct, K=2: 220.21 tok/s")
    a = _analyze(tmp_path, m)
    # before: "220.21 tok/s measured vs 222.47 tok/s baseline", a Llama-8B run against a Qwen-30B baseline
    assert _sd501(a) == []
    # nor does the postmortem say "220.21 tok/s against a 222.47 tok/s baseline"
    assert postmortem_view(a)["impact"]["baseline"] is None
    # the same model's baseline still counts
    m.say("Back to Qwen3-30B-A3B with EAGLE3 at bs=1: 159.78 tok/s")
    assert _sd501(_analyze(tmp_path, m))[-1].endswith("159.78 tok/s measured vs 222.47 tok/s baseline [msg 0]")


def test_a_reading_of_another_engine_is_not_judged_against_this_ones_baseline(tmp_path):
    m = _session()
    # https://github.com/sgl-project/sglang/issues/2150: "Normal decoding speed (SGLang): 156 token/s"
    m.prompt("Normal decoding speed (SGLang): 156 token/s. Let's see what vLLM does with the same draft.")
    # vLLM's own benchmark (vllm/benchmarks/throughput.py prints this line), a vLLM run
    m.bash("vllm bench throughput --model meta-llama/Llama-3.1-8B-Instruct --input-len 128 --output-len 256",
           "Throughput: 0.52 requests/s, 200.14 total tokens/s, 133.43 output tokens/s\n")
    a = _analyze(tmp_path, m)
    # before: "133.43 tok/s measured vs 156 tok/s baseline": vLLM's reading against SGLang's baseline
    assert _sd501(a) == []


# sglang bench_serving's summary (python/sglang/bench_serving.py), as posted in
# https://github.com/sgl-project/sglang/pull/9588 ("With concurrency 4"); the reading is
# SpecForge#339's EAGLE3 run at bs=4 (steps 3, topk 1), 447.90 tok/s.
BENCH_SERVING_C4 = """============ Serving Benchmark Result ============
Backend:                                 sglang
Traffic request rate:                    inf
Max request concurrency:                 4
Successful requests:                     200
Benchmark duration (s):                  40.23
Request throughput (req/s):              4.97
Input token throughput (tok/s):          1596.02
Output token throughput (tok/s):         447.90
Total token throughput (tok/s):          2663.85
Concurrency:                             3.94
Accept length:                           1.86
"""


def test_the_benchmarks_concurrency_flag_picks_the_baseline_row(tmp_path):
    m = _session()
    m.prompt(SPECFORGE_339.split("And the results")[0])
    # the --max-concurrency loop of https://github.com/sgl-project/sglang/pull/15664, at N=4
    _, seq = m.bash("python3 -m sglang.bench_serving --backend sglang --dataset-name random "
                    "--num-prompts 200 --max-concurrency 4", BENCH_SERVING_C4)
    a = _analyze(tmp_path, m)
    # before: "447.9 tok/s measured vs 1073.69 tok/s baseline" (the bs=64 row, the last one read)
    assert _sd501(a) == [f"[msg {seq}] 447.9 tok/s measured vs 566.21 tok/s baseline [msg 0]"]
    assert postmortem_view(a)["impact"]["baseline"]["value"] == 566.21


def test_the_impact_compares_readings_of_one_batch_size(tmp_path):
    m = _session()
    m.prompt(SPECFORGE_339)
    tput = postmortem_view(_analyze(tmp_path, m))["impact"]["throughput"]
    # before: "went from 159.78 (bs=1) to 426.46 tok/s (bs=4)", a rise that is only a larger batch
    assert (tput["before"], tput["after"], tput["readings"]) == (447.9, 426.46, 2)


def test_a_sentence_of_two_batch_sizes_pairs_each_reading_with_its_own(tmp_path):
    m = _session()
    m.prompt(SPECFORGE_339.split("And the results")[0])
    # SpecForge#339's first EAGLE3 rows at bs=1 and bs=4, summed up in one sentence
    seq = m.say("EAGLE3 (steps 3, topk 1): 159.78 tok/s at bs=1, 447.90 tok/s at bs=4")
    # before: 447.9 took the "bs=1" said before it (then no slowdown: 447.9 > 222.47)
    assert _sd501(_analyze(tmp_path, m)) == [f"[msg {seq}] 159.78 tok/s measured vs 222.47 tok/s baseline [msg 0]",
                                             f"[msg {seq}] 447.9 tok/s measured vs 566.21 tok/s baseline [msg 0]"]
