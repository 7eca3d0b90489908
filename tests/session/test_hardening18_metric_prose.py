"""Speedups and tables the way people post them in sglang/vLLM issues and PRs: the factor in
Markdown bold or with a "×", "speed up" in two words; a table's throughput column that names
the speedup in its header too, a per-user column beside the batch's, and the vanilla row's
accept length of 1.00. Each text is copied from the thread named above it."""

from __future__ import annotations

from spec_debug.session.metrics import extract_metrics


def _readings(text: str, *names: str) -> list[tuple[str, float]]:
    return [(m.name, m.value) for m in extract_metrics(text) if not names or m.name in names]


def test_a_speedup_with_the_times_sign_is_read() -> None:
    # https://github.com/vllm-project/vllm/pull/24243 (Eagle3 for MiniCPM3, test plan)
    text = ("Baseline (non-speculative): 215.84 s\nSpeculative decoding model: 133.24 s\n"
            "Speedup: 1.62\u00d7\n")
    assert _readings(text, "speedup") == [("speedup", 1.62)]


def test_a_factor_in_bold_and_speed_up_in_two_words() -> None:
    # https://github.com/sgl-project/sglang/pull/3582 (NextN/MTP for DeepSeek-V3)
    text = ("We implemented NextN (MTP) speculative decoding for DeepSeek-V3/R1 based on EAGLE 2 on "
            "Triton backend and achieved **1.76x** speed up with CUDA Graph and Torch.compile "
            "compatibility. In current benchmark, we achieved **77 token/s** output throughput on batch size 1.")
    assert sorted(_readings(text)) == [("speedup", 1.76), ("throughput", 77.0)]
    # https://github.com/SafeAILab/EAGLE/issues/5
    text = ("We also conducted tests on 4x**A100** 40G GPUs, achieving a speedup of **3.01x**. These "
            "tests were carried out on MT-bench")
    assert _readings(text, "speedup") == [("speedup", 3.01)]


def test_speed_up_as_a_verb_gives_no_factor() -> None:
    # https://github.com/sgl-project/SpecForge/issues/339
    text = "I got a throughput degrade when I try to EAGLE3 to speed up Qwen3-30B-A3B (in H100*2)."
    assert _readings(text, "speedup") == []


def test_a_throughput_column_that_names_the_speedup_too() -> None:
    # https://github.com/lightseekorg/tokenspeed/pull/795: the EAGLE column holds "tok/s (speedup)";
    # the per-user column is one user's share of the batch, not the batch's decode speed.
    text = ("| Category | Baseline output tok/s | EAGLE output tok/s (speedup) | EAGLE output tok/s/user "
            "| Mean acceptance length |\n"
            "|---|---:|---:|---:|---:|\n"
            "| coding | 1237.55 | 1728.14 (1.40\u00d7) | 134.43 | 2.82 |\n")
    assert _readings(text, "throughput", "baseline_throughput") == [
        ("baseline_throughput", 1237.55), ("throughput", 1728.14)]
    assert _readings(text, "accept_length") == [("accept_length", 2.82)]


def test_the_vanilla_rows_accept_length_is_no_drafters() -> None:
    # https://github.com/vllm-project/vllm/pull/24343 (fr-spec benchmark table)
    text = ("| Method | Depth | Branching | Num Spec Tokens | Mean Acceptance Length | Decoding Throughput "
            "(tokens/s) | Total Time (s) | Forward Ratio |\n"
            "|--------|-------|-----------|-----------------|------------------------|"
            "--------------------------------|----------------|---------------|\n"
            "| Eagle | 3 | 1 | 3 | 2.31 | 119.31 | 181.29 | 0.137 |\n"
            "| Vanilla | N/A | N/A | 0 | 1.00 | 61.74 | 347.07 | 0.000 |\n")
    assert _readings(text, "accept_length") == [("accept_length", 2.31)]
    assert sorted(_readings(text, "throughput", "baseline_throughput")) == [
        ("baseline_throughput", 61.74), ("throughput", 119.31)]


def test_a_speedup_column_is_still_read() -> None:
    # https://github.com/sgl-project/sglang/issues/5502
    text = ("| Model & Task | Framework Used | Measured Speedup |\n"
            "|--------------|----------------|------------------|\n"
            "| AIME + DeepSeek R1 LLaMA 8B | SGLang + Eagle3 | ~1.5\u00d7 |\n")
    assert _readings(text, "speedup") == [("speedup", 1.5)]


def test_normal_decoding_with_its_engine_in_parentheses_is_the_baseline() -> None:
    # https://github.com/sgl-project/sglang/pull/2150 (EAGLE2 worker; also SafeAILab/EAGLE#173)
    text = ("Support eagle speculative decoding. The following results are obtained on a single H100.\n\n"
            "## Official eagle code: 200 token/s\nsee https://github.com/SafeAILab/EAGLE\n\n"
            "## Normal decoding speed (SGLang): 156 token/s\n"
            "```\npython3 -m sglang.launch_server --model meta-llama/Llama-2-7b-chat-hf\n```\n\n"
            "## Eagle decoding speed (SGLang): 297 token/s\n\n"
            "## Eagle decoding speed (SGLang w/ torch.comopile): 316 token/s\n")
    assert _readings(text, "throughput", "baseline_throughput") == [
        ("baseline_throughput", 156.0), ("throughput", 200.0), ("throughput", 297.0), ("throughput", 316.0)]


def test_percent_faster_than_vanilla_is_a_speedup() -> None:
    # https://github.com/vllm-project/vllm/pull/16035: both share the one "than vanilla" (its bars:
    # k=2 175.49 and vanilla 128.64 toks/s, 1.36x; round 30, was the second only)
    text = "k=2 is 36% faster and k=4 is 28% faster than vanilla. "
    assert _readings(text, "speedup") == [("speedup", 1.36), ("speedup", 1.28)]
    # https://github.com/vllm-project/vllm/pull/24343 ("then" as written)
    text = ("* num-spec-tokens=1, max-seq-len=1\n\t* eagle-2 is 61% faster then vanilla\n"
            "\t* fr-spec is 68% faster then vanilla\n")
    assert _readings(text, "speedup") == [("speedup", 1.61), ("speedup", 1.68)]


def test_percent_faster_than_another_drafter_is_no_speedup() -> None:
    # https://github.com/vllm-project/vllm/pull/24343: against eagle-2 is no speedup over no speculation;
    # "34% slower than vanilla" is fr-spec at 0.66 of vanilla's speed (48.32 tok/s in the same comment).
    text = ("- When batch-size=1 and num-spec-tokens=32, fr-spec is 17.79% faster than eagle-2 but 34% "
            "slower than vanilla.\n- When batch-size=1 and num spec tokens=1, fr-spec is 1.9% faster than "
            "eagle-2 and 32.11% faster than vanilla.\n")
    assert _readings(text, "speedup") == [("speedup", 0.66), ("speedup", 1.3211)]


def test_al_is_the_acceptance_length() -> None:
    # https://github.com/vllm-project/vllm/pull/16035
    text = "Using 1 draft token SGL gets 1.72 AL\nUsing 3 draft token SGL gets 2.4 AL"
    assert _readings(text, "accept_length") == [("accept_length", 1.72), ("accept_length", 2.4)]
    # https://github.com/vllm-project/vllm/issues/26191
    assert _readings("Previous AL=3.53", "accept_length") == [("accept_length", 3.53)]


def test_al_without_a_number_gives_no_reading() -> None:
    # https://github.com/vllm-project/vllm/pull/16937: "K=2" and "K=4" are settings.
    text = ("The earlier bench done on V1 vLLM for Eagle 1 show that K=2 is faster than K=4 end to end "
            "even though K=4 has higher AL than K=2.")
    assert _readings(text) == []


def test_a_table_copied_from_a_rendered_page_is_read() -> None:
    # https://github.com/vllm-project/vllm/pull/24343 (eitanturok, 2025-09-14): "-- | --" under the header.
    text = ("Method | Batch Size | Num Spec Tokens | Mean Acceptance Length | Decode Throughput (toks/sec) "
            "| Total Time (sec) | Command\n-- | -- | -- | -- | -- | -- | --\n"
            "fr-spec | 1 | 1 | 1.63 | 108.45 | 207.10 | VLLM_USE_V1=1 python3 examples/offline_inference/"
            "spec_decode.py --dataset-name hf --dataset-path philschmid/mt-bench --num-prompts 100 --model-dir "
            "'NousResearch/Meta-Llama-3.1-8B-Instruct' --batch-size 1 --method eagle --eagle-dir "
            "'yuhuili/EAGLE-LLaMA3.1-Instruct-8B' --num-spec-tokens 1 --draft-vocab-frequency-path "
            "'eturok/llama-3.1-8b-instruct-vocab-freq/vocab_freq.pt' --draft-vocab-frequency-keep-threshold 0.25\n")
    assert sorted(_readings(text)) == [("accept_length", 1.63), ("throughput", 108.45)]


def test_a_table_under_a_base_model_caption_holds_baselines() -> None:
    # https://github.com/sgl-project/SpecForge/issues/339: the base model's speed by batch size,
    # then EAGLE3's; the first table's readings are the run without speculation.
    text = ('The base model speed:\n'
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
            '4 | 3 | 3 | 8 | 426.46 | 2.27\n'
            '\n'
            'I have investigated several possibilities regarding performance, but I need guidance on how to verify my hypotheses.\n')
    readings = _readings(text, "throughput", "baseline_throughput")
    assert [v for n, v in readings if n == "baseline_throughput"] == [
        222.47, 566.21, 733.61, 1012.96, 1077.55, 1073.69]
    assert [v for n, v in readings if n == "throughput"] == [
        159.78, 172.99, 207.62, 191.9, 171.54, 177.5, 447.9, 426.46]
    assert _readings(text, "accept_length")[:2] == [("accept_length", 1.86), ("accept_length", 2.2)]


def test_the_accept_length_after_its_number() -> None:
    # https://github.com/sgl-project/sglang/pull/3582: "~1.9" is read; "2.5~3" is a range, no reading.
    text = ("The accept rate of the MTP module is very high (**~1.9** avg accept length for draft 2 tokens, "
            "e.g. `--speculative-num-steps 2 --speculative-eagle-topk 1 --speculative-num-draft-tokens 2`). "
            "We try to use it to draft more tokens and achieved better speedup. (**2.5~3** avg accept length "
            "for draft 4 tokens for 2 steps, e.g. `--speculative-num-steps 2 --speculative-eagle-topk 4 "
            "--speculative-num-draft-tokens 4`)")
    assert _readings(text) == [("accept_length", 1.9)]
    # https://github.com/sgl-project/SpecForge/issues/113 ("Accept Length" title-cased)
    text = ("I noticed that in the [blog post](https://lmsys.org/blog/2025-07-25-spec-forge/), the trained "
            "draft model for `meta-llama/Llama-4-Scout-17B-16E` could achieve 2.751 Accept Length (AL) when "
            "speculative-num-steps=3, speculative-eagle-topk=8 and speculative-num-draft-tokens=10.")
    assert _readings(text) == [("accept_length", 2.751)]


def test_a_target_after_a_comparison_sign_is_no_reading() -> None:
    # https://github.com/intel/llm-scaler/issues/657: "> 50 tok/s" is the goal, 25.88 the measurement.
    text = ("For our target workload (**50K in / 1K out, > 50 tok/s**), MTP as currently implemented\n"
            "is not usable: the best measured 50K result is 25.88 tok/s, about **2x short of target**.")
    assert _readings(text) == [("throughput", 25.88)]


def test_an_arrow_or_a_quote_mark_is_no_comparison_sign() -> None:
    # https://github.com/sgl-project/sglang/pull/1498: the arrow's head is no ">".
    text = ("At the beginning of the cycle\uff0ctps = 180 tokens/s\uff0c\nBut after a few cycles, there will be a "
            "serious decrease in speed\uff0ctps 180 tokens/s -> 57 tokens/s -> 38 tokens/s")
    assert _readings(text) == [("throughput", 180.0), ("throughput", 180.0), ("throughput", 57.0),
                               ("throughput", 38.0)]
    # https://github.com/sgl-project/sglang/issues/6949, quoted the way the replies there quote ("> ")
    assert _readings("> tp = 1\n> with eagle: 30 tps\n> without eagle: 21 tps\n") == [
        ("baseline_throughput", 21.0), ("throughput", 30.0)]
