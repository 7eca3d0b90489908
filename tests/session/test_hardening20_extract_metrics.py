"""Throughput readings in real speculative-decoding reports that the extractors misread.

Each case is a sentence or tool output from a public issue, cited at its test.
"""

from spec_debug.session.metrics import extract_metrics


def _readings(text):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=True))


def test_mlx_lm_tokens_per_sec_lines_are_read():
    # https://github.com/ml-explore/mlx-examples/pull/1155 (awni, 2025-01-02): mlx-lm's
    # "Generation: N tokens, X tokens-per-sec" line (mlx_lm/generate.py), with and without the
    # draft model; neither reading was found.
    text = ("Without draft model: Generation: 256 tokens, 31.783 tokens-per-sec\n"
            "With draft model: Generation: 256 tokens, 35.648 tokens-per-sec\n")
    assert _readings(text) == [("baseline_throughput", 31.783), ("throughput", 35.648)]


def test_mlx_lm_prompt_line_is_prefill():
    # mlx-lm prints the prompt's speed above the generation's (mlx_lm/generate.py)
    text = ("==========\nPrompt: 20 tokens, 150.123 tokens-per-sec\n"
            "Generation: 256 tokens, 31.783 tokens-per-sec\nPeak memory: 18.105 GB\n")
    assert _readings(text) == [("prefill_throughput", 150.123), ("throughput", 31.783)]


def test_a_delimiter_row_of_one_hyphen_a_cell_makes_a_table():
    # GFM needs one hyphen a cell, and people write it so ("| Statistic | Sandbox | Current |\n
    # |-|-|-|", k3s-io/k3s's CNCF review doc). The base-model table of
    # https://github.com/sgl-project/SpecForge/issues/339 with such a row was read as no table.
    for rule in ("|-|-|", "|--|--|", "| - | - |", "|:-:|:-:|"):
        text = f"The base model speed:\n\n| bs | throughput |\n{rule}\n| 1 | 222.47 |\n| 4 | 566.21 |\n"
        assert _readings(text) == [("baseline_throughput", 222.47), ("baseline_throughput", 566.21)], rule


def test_from_a_to_b_said_of_the_speculative_method_starts_at_the_baseline():
    # https://github.com/SafeAILab/EAGLE/issues/228 (jiahe7ay, 2025-07-02): both "from" readings
    # are the target model alone; they were read as EAGLE3's own throughputs.
    text = ("On a single H200 GPU using the sglang inference framework, Qwen3-8B with Eagle3 achieves a "
            "performance boost from 186 tokens/second to 365 tokens/second, while Qwen3-30B-A3B with Eagle3 "
            "improves from 147 tokens/second to 231 tokens/second.")
    assert _readings(text) == [("baseline_throughput", 147.0), ("baseline_throughput", 186.0),
                               ("throughput", 231.0), ("throughput", 365.0)]
    # the unit written once, after the second number
    assert _readings("Qwen3-8B with Eagle3 achieves a performance boost from 186 to 365 tokens/second.") == \
        [("baseline_throughput", 186.0), ("throughput", 365.0)]


def test_from_a_to_b_after_a_change_to_the_speculative_run_stays_two_runs_of_it():
    assert _readings("After fixing the draft config, EAGLE3 went from 54 to 91 tok/s.") == \
        [("throughput", 54.0), ("throughput", 91.0)]
    # no method named in the clause: nothing says which run "from" was
    assert _readings("7B chat jumps from 20 tok/sec to 50 tok/sec with zero quality loss.") == \
        [("throughput", 20.0), ("throughput", 50.0)]


# https://github.com/vllm-project/vllm/pull/16937 (ekagra-ranjan, 2025-04-24), as posted
VLLM_16937 = """Output tokens/s on H100 BS1

cmd: 
`VLLM_USE_V1=1 python examples/offline_inference/eagle.py --dataset="./data/mt_bench/question.jsonl" --num_spec_tokens 7 --max_num_seqs 1 --num_prompts 80`

vanilla (`meta-llama/Llama-3.1-8B-Instruct`): 133

EAGLE 1 (`yuhuili/EAGLE-LLaMA3.1-Instruct-8B`):
* K=2: 201.69, speedup:  1.51x
* K=4: 198, speedup: 1.48x
* K=7: 169.92, speedup: 1.27x

EAGLE 3 (`yuhuili/EAGLE3-LLaMA3.1-Instruct-8B`):
* K=2: 220.21, speedup: 1.65x, speedup wrt EAGLE 1: 1.09x
"""


def test_bare_readings_under_a_unit_header_are_throughputs():
    # only the speedups were read: "vanilla (...): 133" under the "Output tokens/s" header is the
    # baseline, each "K=N: value" a speculative run's throughput
    tput = [(n, v) for n, v in _readings(VLLM_16937) if n != "speedup"]
    assert tput == [("baseline_throughput", 133.0), ("throughput", 169.92), ("throughput", 198.0),
                    ("throughput", 201.69), ("throughput", 220.21)]


def test_settings_and_sentences_under_a_unit_are_no_readings():
    assert _readings("Throughput (tok/s) with these settings:\nnum_steps: 3\ntopk: 1\nport: 30000\n") == []
    assert _readings("I will now measure tok/s.\n\nExit code: 1\n") == []
    # another quantity's header ends the list
    assert _readings("Output tokens/s\nvanilla: 133\nEAGLE3: 220\nTTFT (ms)\nvanilla: 40\n") == \
        [("baseline_throughput", 133.0), ("throughput", 220.0)]
    # prefill is no decode throughput
    assert _readings("Prefill tok/s\nvanilla: 5000\n") == []


def test_a_projected_or_expected_speed_is_no_reading():
    # https://github.com/waybarrios/vllm-mlx/pull/763 (CBribiescas, 2026-09-04): a projection,
    # read as a measured 205 tok/s run
    text = ("Batching the expert gather across the verify block would put this same code at a projected "
            "~180–230 tok/s, and would speed up plain MoE decode for every model.")
    assert _readings(text) == []
    assert _readings("I expected ~150 tok/s with EAGLE3 but got 90 tok/s.") == [("throughput", 90.0)]
    assert _readings("The target model alone runs at 90 tok/s.") == [("throughput", 90.0)]
    assert _readings("As expected, 140 tok/s.") == [("throughput", 140.0)]


def test_final_progress_bars_of_labelled_runs_are_each_a_reading():
    # https://github.com/vllm-project/vllm/pull/16035 (ekagra-ranjan, 2025-04-09): one bar per
    # run, vanilla first; only the last bar (k=4's) was read, as if one bar had been redrawn
    text = ("* vanilla, [02:08<00:00,  1.61s/it, est. speed input: 47.09 toks/s, output: 128.64 toks/s]\n"
            "* k=2: [01:34<00:00,  1.18s/it, est. speed input: 64.12 toks/s, output: 175.49 toks/s] **Accpt Len: 1.89**\n"
            "* k=4: [01:40<00:00,  1.25s/it, est. speed input: 60.52 toks/s, output: 165.65 toks/s] **Accpt Len: 2.08**\n")
    assert _readings(text) == [("baseline_throughput", 128.64), ("throughput", 165.65), ("throughput", 175.49)]


def test_one_runs_bars_pasted_line_by_line_stay_one_reading():
    bars = "".join(f"Processed prompts: {i}%|##| {i}/100 [00:{i:02d}<00:36, 2.77it/s, est. speed input: "
                   f"1500.07 toks/s, output: {400 + i}.57 toks/s]\n" for i in (50, 100))
    assert _readings(bars) == [("throughput", 500.57)]


# https://github.com/ggml-org/llama.cpp/pull/23869 (ruixiang63): speed_bench_compare.py's table
SPEED_BENCH = """\
category       base_avg_pred_t/s  spec_avg_pred_t/s  decode_speedup  base_avg_latency  spec_avg_latency  latency_speedup  accept_rate
-------------  -----------------  -----------------  --------------  ----------------  ----------------  ---------------  -----------
coding         51.55              84.54              1.64x           11.976s           7.471s            1.60x            0.7545
humanities     51.61              66.80              1.29x           10.962s           8.453s            1.30x            0.7557
"""


def test_llama_cpp_speed_bench_comparison_is_read():
    # nothing was read: the units are in the header only, the cells bare
    assert _readings(SPEED_BENCH) == [
        ("accept_rate", 0.7545), ("accept_rate", 0.7557), ("baseline_throughput", 51.55), ("baseline_throughput", 51.61),
        ("speedup", 1.29), ("speedup", 1.64), ("throughput", 66.8), ("throughput", 84.54)]
    # a tool's output, not prose: read the same
    assert sorted((m.name, m.value) for m in extract_metrics(SPEED_BENCH, prose=False)) == _readings(SPEED_BENCH)


def test_evalscope_perf_summary_grid_is_read():
    # https://github.com/modelscope/evalscope/issues/1101 (Yunnglin), `evalscope perf`'s
    # summary as printed: no reading was taken from its grid rows
    assert _readings(EVALSCOPE_1101) == [("throughput", 893.269), ("total_throughput", 8039.42)]


EVALSCOPE_1101 = """\
  Benchmarking summary:
+-----------------------------------+-----------+
| Key                               |     Value |
+===================================+===========+
| Time taken for tests (s)          |   71.6469 |
+-----------------------------------+-----------+
| Number of concurrency             |   20      |
+-----------------------------------+-----------+
| Request rate (req/s)              |   -1      |
+-----------------------------------+-----------+
| Total requests                    |  500      |
+-----------------------------------+-----------+
| Output token throughput (tok/s)   |  893.269  |
+-----------------------------------+-----------+
| Total token throughput (tok/s)    | 8039.42   |
+-----------------------------------+-----------+
"""


def test_exllamav2_minus_sd_speed_is_the_baseline():
    # https://github.com/theroyallab/tabbyAPI/issues/166: exllamav2's inference_speculative.py
    # prints the speed without the draft ("-SD") and with it ("+SD"); both read as speculative
    text = ("speed, -SD: 18.05 tokens/second                                   \n"
            "speed, +SD: 29.66 tokens/second\n")
    assert _readings(text) == [("baseline_throughput", 18.05), ("throughput", 29.66)]


def test_from_a_to_b_across_turning_speculation_on_starts_at_the_baseline():
    # the way an agent reports the same change as SafeAILab/EAGLE#228's sentence, the method
    # named as what was turned on, before or after the pair
    assert _readings("After enabling EAGLE3, throughput dropped from 90 tok/s to 54.8 tok/s.") == \
        [("baseline_throughput", 90.0), ("throughput", 54.8)]
    assert _readings("Throughput went down from 90 to 54.8 tok/s after enabling EAGLE3.") == \
        [("baseline_throughput", 90.0), ("throughput", 54.8)]
    # another change beside it: both numbers may be EAGLE3's
    assert _readings("After enabling EAGLE3 and fixing the config, throughput went from 54 to 91 tok/s.") == \
        [("throughput", 54.0), ("throughput", 91.0)]
    assert _readings("Throughput went from 54 to 91 tok/s after I fixed the config.") == \
        [("throughput", 54.0), ("throughput", 91.0)]


def test_accept_length_after_a_full_width_colon():
    # https://github.com/SafeAILab/EAGLE/issues/143 (quanliu1991, 2024-11-17), as posted: no
    # accept length was read after "："
    text = ("chain-draft\ntemperature=0:  accept length：1.70\ntemperature=1：accept length：1.50\n"
            "tree-draft\ntemperature=0:  accept length：2.19\ntemperature=1：accept length：1.55\n")
    assert _readings(text) == [("accept_length", 1.5), ("accept_length", 1.55), ("accept_length", 1.7),
                               ("accept_length", 2.19)]
    assert _readings("accept rate：0.55") == [("accept_rate", 0.55)]


def test_a_range_in_words_reads_as_its_middle():
    # https://github.com/theroyallab/tabbyAPI/issues/166: "between 18 and 20 t/s" was read as 20
    assert _readings("With tabbyAPI to SillyTavern I get between 18 and 20 t/s.") == [("throughput", 19.0)]


def test_a_vanilla_row_that_drafts_keeps_its_accept_length():
    # https://github.com/vllm-project/vllm/pull/24343 (jmamou, 2025-09-15): "vanilla" is the
    # drafter's unpruned vocabulary, and its 2.39 was dropped as a no-speculation row's
    text = ("draft-vocab-frequency-path  | mean acceptance length\n-- | --\nvanilla | 2.39\n"
            "target-dist-meta-llama-Llama-3.1-8B-Instruct-philschmid-mt-bench-train-probability | 2.19\n")
    assert _readings(text) == [("accept_length", 2.19), ("accept_length", 2.39)]
    # the run without speculation accepts one token a step: its 1.00 is still no reading
    assert _readings("| Method | Mean Acceptance Length |\n|---|---|\n| Vanilla | 1.00 |\n| EAGLE-3 | 2.4 |\n") == \
        [("accept_length", 2.4)]


def test_genai_perf_console_table_is_read():
    # https://github.com/triton-inference-server/tutorials/pull/150: GenAI-Perf's table of an
    # EAGLE run (the avg column first); nothing was read from it
    text = ("│   Output Sequence Length (tokens) │   348.27 │ 153.00 │   534.00 │   517.25 │   444.50 │   426.75 │\n"
            "│ Output Token Throughput (per sec) │   256.94 │    N/A │      N/A │      N/A │      N/A │      N/A │\n"
            "│      Request Throughput (per sec) │     0.74 │    N/A │      N/A │      N/A │      N/A │      N/A │\n"
            "│             Request Count (count) │    26.00 │    N/A │      N/A │      N/A │      N/A │      N/A │\n")
    assert _readings(text) == [("request_throughput", 0.74), ("throughput", 256.94)]


def test_a_row_of_readings_under_run_names_reads_its_first_cell():
    # https://github.com/ggml-org/llama.cpp/issues/24541 (gelim, 2026-06-21): EAGLE3's 40 tok/s
    # was taken for a row label, only MTP's 45 read
    text = "EAGLE3 (n=3) | MTP (n=2)\n---------|-------\n40 tok/s | 45 tok/s\n"
    assert _readings(text) == [("throughput", 40.0), ("throughput", 45.0)]
    assert _readings("| Baseline | EAGLE3 |\n|---|---|\n| 90 tok/s | 54.8 tok/s |\n") == \
        [("baseline_throughput", 90.0), ("throughput", 54.8)]


def test_a_number_in_markdown_before_its_unit_is_read():
    # https://github.com/vllm-project/vllm/pull/26179 (chelsea0x3b, 2025-10-03): the averages in
    # backticks, neither read
    assert _readings("Main branch: `25912.5375` tok/s\nThis PR: `26184.05`tok/s\n") == \
        [("throughput", 25912.5375), ("throughput", 26184.05)]
    # and in bold, as sessions sum up their runs
    assert _readings("EAGLE3 gives **54.8** tok/s vs **90** tok/s baseline.") == \
        [("baseline_throughput", 90.0), ("throughput", 54.8)]
    assert _readings("baseline: **90** tok/s, EAGLE3: **54.8** tok/s") == \
        [("baseline_throughput", 90.0), ("throughput", 54.8)]


def test_from_a_to_b_in_bold_starts_at_the_baseline():
    # SafeAILab/EAGLE#228's sentence with its numbers in bold, as a session's summary writes them
    assert _readings("Qwen3-8B with Eagle3 achieves a boost from **186** tokens/second to **365** tokens/second.") == \
        [("baseline_throughput", 186.0), ("throughput", 365.0)]
    assert _readings("Throughput went from **90** to **54.8** tok/s after enabling EAGLE3.") == \
        [("baseline_throughput", 90.0), ("throughput", 54.8)]


def test_vllm_draft_token_rates_quoted_alone_are_no_throughput():
    # the rates of vLLM's SpecDecoding line (vllm-project/vllm-ascend#13665 posts one: "Accepted
    # throughput: 2.94 tokens/s, Drafted throughput: 8.80 tokens/s") quoted without the line's
    # head were read as decode throughputs of 2.94 and 8.8
    assert _readings("The log says Accepted throughput: 2.94 tokens/s, Drafted throughput: 8.80 tokens/s.") == []
    assert _readings("Accepted throughput: 2.94 tokens/s and decode throughput: 30 tokens/s") == [("throughput", 30.0)]


def test_a_unit_as_the_label_of_its_number_is_read():
    # https://github.com/vllm-project/vllm/issues/5313 (YuCheng-Qi, 2024-06-07): the script's
    # "tokens/s: 50.583147408917135" line gave no reading
    text = ("Processed prompts: 100%|██████████| 1/1 [00:00<00:00,  3.20it/s]\n"
            "tokens/s: 50.583147408917135\n")
    assert _readings(text) == [("throughput", 50.583147408917135)]
    assert _readings("Prefill tok/s: 5000") == []
    assert _readings("Throughput (tok/s): 54.8") == []
    assert _readings("tok/s: 12 ms") == []


def test_llama_server_progress_line_is_one_reading():
    # https://github.com/ggml-org/llama.cpp/issues/24541 (gelim): each line was read twice, its
    # "tg" and its "tg_3s" (the last 3 seconds)
    text = ("1.43.708.450 I slot print_timing: id  0 | task 1229 | n_decoded =    111, tg =  36.66 t/s, tg_3s =  36.66 t/s\n"
            "1.46.729.833 I slot print_timing: id  0 | task 1229 | n_decoded =    224, tg =  37.03 t/s, tg_3s =  37.40 t/s\n")
    assert _readings(text) == [("throughput", 36.66), ("throughput", 37.03)]


def test_a_listed_prefill_or_total_item_is_no_decode_throughput():
    # the list form of vllm-project/vllm#16937 with items of other kinds under the same header
    assert _readings("Benchmark summary (tok/s)\n- Decode: 54.8\n- Prefill: 5000\n- Total: 5054\n") == \
        [("throughput", 54.8)]


def test_a_list_under_a_tok_s_header_stops_at_another_quantity():
    assert _readings("Current tok/s\nGPU memory: 80\nEAGLE3: 54.8\n") == []
    assert _readings("Output tokens/s\nOutput tokens: 256\nEAGLE3: 54.8\n") == [("throughput", 54.8)]


# https://github.com/ggml-org/llama.cpp/pull/18039 (arch-btw, 2026-01-16): llama-speculative-simple
# with an EAGLE3 draft, its summary then the draft context's timings under "draft:"
LLAMA_CPP_18039 = """```
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
```
"""


def test_llama_cpp_draft_context_timings_are_not_the_runs_speed():
    # the draft's 2902.94 tokens per second was read as the run's throughput, next to its 4.701 t/s
    readings = _readings(LLAMA_CPP_18039)
    assert ("throughput", 4.701) in readings
    assert all(v not in (2902.94, 6239.99) for _, v in readings)
    # the target's timings, under "target:", are the run's
    target = LLAMA_CPP_18039.replace("```\n", "") + (
        "\ntarget:\n\nllama_perf_context_print:        eval time =   28000.00 ms /   136 runs   "
        "(  205.88 ms per token,     4.86 tokens per second)\n")
    assert ("throughput", 4.86) in _readings(target)
