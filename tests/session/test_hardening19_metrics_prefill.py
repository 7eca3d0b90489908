"""A reading of the prompt's tokens (prefill, input, prompt eval) or of all tokens is no decode
throughput: the analyzer compares decode throughputs with the baseline and the postmortem
tracks their rise, and a prefill of thousands of tok/s next to a decode of tens read as one
"rose from 4.7 to 6239.99 tok/s". Texts copied from the sources named above each test."""

from __future__ import annotations

from spec_debug.session.metrics import extract_metrics

# https://github.com/ggml-org/llama.cpp/pull/18039 (arch-btw, 2026-01-16): llama-speculative-simple
# with --eagle3 on Qwen3-235B-A22B, its summary and the draft context's perf lines as posted
LLAMA_CPP_18039 = """\
encoded   10 tokens in    1.945 seconds, speed:    5.141 t/s
decoded  136 tokens in   28.931 seconds, speed:    4.701 t/s

n_draft   = 8
n_predict = 136
n_drafted = 112
n_accept  = 36
accept    = 32.143%

draft:

 Eagle3 Draft encoder:
llama_perf_context_print:        load time =   24387.75 ms
llama_perf_context_print: prompt eval time =      11.86 ms /    74 tokens (    0.16 ms per token,  6239.99 tokens per second)
llama_perf_context_print:        eval time =      23.77 ms /    69 runs   (    0.34 ms per token,  2902.94 tokens per second)
llama_perf_context_print:       total time =   53318.22 ms /   143 tokens
"""


def _tputs(text: str) -> list[tuple[str, float]]:
    return [(m.name, m.value) for m in extract_metrics(text, prose=False) if m.name.endswith("throughput")]


def test_llama_cpp_prompt_lines_are_prefill_and_the_decoded_line_is_decode():
    # before: four decode throughputs, 5.141 and 6239.99 among them
    # the draft context's timings under "draft:" (6239.99, 2902.94) are how fast the draft model
    # runs, no reading of the run (tests/session/test_hardening20_extract_metrics.py)
    assert _tputs(LLAMA_CPP_18039) == [("prefill_throughput", 5.141), ("throughput", 4.701)]


def test_llama_server_print_timings_prompt_line_is_prefill():
    # llama.cpp tools/server print_timings, as llama-server logs it after each request
    text = ("slot print_timings: id  0 | task 0 | prompt eval time =      31.42 ms /    17 tokens "
            "(    1.85 ms per token,   541.06 tokens per second)\n"
            "slot print_timings: id  0 | task 0 |        eval time =    1496.93 ms /   128 tokens "
            "(   11.69 ms per token,    85.51 tokens per second)\n")
    # before: 541.06 as a decode throughput
    assert _tputs(text) == [("prefill_throughput", 541.06), ("throughput", 85.51)]


def test_prefill_and_total_throughputs_in_prose_are_not_decode_speed():
    # Huawei's CloudMatrix-Infer claim, as quoted in the press
    text = ('"CloudMatrix-Infer delivers a prefill throughput of 6,688 tokens/s per NPU, and a decode '
            'throughput of 1,943 tokens/s per NPU (at <50 ms TPOT)."')
    # before: both decode throughputs
    assert _tputs(text) == [("prefill_throughput", 6688.0), ("throughput", 1943.0)]
    assert _tputs("input throughput: 5000 tok/s, output throughput: 80 tok/s") == \
        [("prefill_throughput", 5000.0), ("throughput", 80.0)]
    assert _tputs("Total token throughput dropped from 3000 to 2500 tok/s") == \
        [("total_throughput", 3000.0), ("total_throughput", 2500.0)]


def test_a_decode_reading_near_the_word_prompt_stays_decode():
    assert _tputs("On long prompts throughput drops to 60 tok/s") == [("throughput", 60.0)]
    assert _tputs("Throughput went from 54.8 to 91.2 tok/s after the fix") == [("throughput", 54.8), ("throughput", 91.2)]


def test_one_users_share_of_a_batch_is_no_decode_throughput(tmp_path):
    # a benchmark write-up's scaling paragraph, as published (Llama 3.1 8B by concurrency)
    text = ("In single-user mode (BS=1), it reaches 279.27 tok/s per user, for a total throughput of 1,727.62 "
            "tok/s and a TPOT of 3.37 ms. As batch size increases, per-user throughput decreases while total "
            "throughput increases. At BS=8, the model reaches 82.85 tok/s per user")
    # before: three decode throughputs, 279.27, 1727.62 and 82.85
    assert [(m.name, m.value) for m in extract_metrics(text) if m.name.endswith("throughput")] == \
        [("per_user_throughput", 279.27), ("total_throughput", 1727.62), ("per_user_throughput", 82.85)]
    assert _tputs("EAGLE3: 52 tok/s/user") == [("per_user_throughput", 52.0)]


def test_a_per_user_speed_is_not_compared_with_the_batchs_baseline(tmp_path):
    from datetime import datetime, timezone

    from spec_debug.session import analyze_path
    from tests.session.incident_story import _Writer
    w = _Writer("7e1a0000-0000-4000-8000-00000000bb20", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Baseline without speculation: 1800 tok/s at concurrency 64.")
    w.prompt("With EAGLE3 each request decodes at 45 tok/s per user.")
    path = tmp_path / "7e1a0000-0000-4000-8000-00000000bb20.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    # before: SD501 "45 tok/s measured vs 1800 tok/s baseline" ("per request" stays a throughput)
    assert [f for f in analyze_path(path).findings if f.code == "SD501"] == []
