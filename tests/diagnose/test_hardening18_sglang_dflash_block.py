"""SGLang DFLASH's verify block comes from --speculative-dflash-block-size, else the draft's own
config (block_size), else 16; DSPARK's from --speculative-dspark-block-size (gamma) + 1
(sgl-project/sglang python/sglang/srt/arg_groups/speculative_hook.py `_handle_dflash`,
`_handle_dspark`). Commands that set only the block flag, or nothing, are the common ones; the
audit read them as "no draft tokens" and the throughput model lost the block (K unknown)."""

from __future__ import annotations

from spec_debug.diagnose.launch import draft_block_size, effective_spec, parse_launch_command
from spec_debug.diagnose.steps import launch_step, throughput_step
from spec_debug.probes.registry import ProbeContext

# A DFlash benchmark script's docstring (scripts/opd/spec_bench.py, found with the code search):
# the block flag alone.
BLOCK_FLAG_ONLY = ("python -m sglang.launch_server --model-path Qwen/Qwen3-4B \\\n"
                   "        --speculative-algorithm DFLASH \\\n"
                   "        --speculative-draft-model-path bingyang-lei/Qwen3-4B-Ins-Draft-OPD \\\n"
                   "        --speculative-dflash-block-size 7 --port 30000")
# SGLang's docs form (sgl-project/sglang PR #23553): algorithm and draft, the block from the draft
NOTHING_SET = ("python -m sglang.launch_server --model-path Qwen/Qwen3-8B --speculative-algorithm DFLASH "
               "--speculative-draft-model-path z-lab/Qwen3-8B-DFlash-b16 --tp-size 1")
DECODE = ("[2026-10-30 12:01:0{i} TP0] Decode batch. #running-req: 1, #token: 400, token usage: 0.00, "
          "accept len: 3.20, accept rate: 0.37, cuda graph: True, gen throughput (token/s): 170.0, #queue-req: 0, ")


def test_the_block_flag_sets_the_verify_block():
    eff = effective_spec(parse_launch_command(BLOCK_FLAG_ONLY))
    assert (eff.num_steps, eff.topk, eff.num_draft_tokens) == (1, 1, 7)
    assert eff.problems == []


def test_no_block_anywhere_reads_the_draft_config_then_sglangs_default():
    cfg = parse_launch_command(NOTHING_SET)
    assert effective_spec(cfg, draft_block_size=draft_block_size({"block_size": 10})).num_draft_tokens == 10
    nested = {"dflash_config": {"block_size": 8, "target_layer_ids": [1, 17, 33]}, "block_size": 16}
    assert draft_block_size(nested) == 8
    # a draft config without a block: SGLang's default; no draft config read: unknown, not guessed
    assert effective_spec(cfg, draft_block_size=draft_block_size({"hidden_size": 4096})).num_draft_tokens == 16
    assert effective_spec(cfg).num_draft_tokens is None


def test_an_unknown_block_is_taken_from_the_logs_startup_line(monkeypatch):
    monkeypatch.setattr(throughput_step, "draft_cost", lambda host_facts: 0.14)
    launch = launch_step.parse({"source": "var", "cmdline": NOTHING_SET, "models": {}})
    startup = ("[2026-10-30 12:00:00] server_args=ServerArgs(model_path='Qwen/Qwen3-8B', "
               "speculative_algorithm='DFLASH', speculative_draft_model_path='z-lab/Qwen3-8B-DFlash-b16', "
               "speculative_num_steps=1, speculative_eagle_topk=1, speculative_num_draft_tokens=16, tp_size=1)")
    facts = throughput_step.parse({"found": True, "path": "server.log",
                                   "lines": [startup] + [DECODE.format(i=i) for i in range(3)],
                                   "args": {"baseline_tok_s": "100"}})
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts={**launch, **facts})
    throughput_step.check(ctx)
    assert facts["throughput"]["served_steps"] == 15
    assert any("verify block to the draft's config" in n for n in facts["throughput"]["model"]["notes"])


def test_a_block_flag_that_disagrees_with_the_draft_tokens_is_refused():
    cfg = parse_launch_command(NOTHING_SET + " --speculative-dflash-block-size 8 --speculative-num-draft-tokens 16")
    assert any("must match" in p for p in effective_spec(cfg).problems)
    dspark = parse_launch_command("python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V4 "
                                  "--speculative-algorithm DSPARK --speculative-draft-model-path d "
                                  "--speculative-dspark-block-size 7")
    assert effective_spec(dspark).num_draft_tokens == 8
    wrong = parse_launch_command(" ".join(dspark.argv) + " --speculative-num-draft-tokens 7")
    assert any("gamma + 1" in p for p in effective_spec(wrong).problems)


def test_the_throughput_step_models_the_block_the_draft_config_gives(monkeypatch):
    monkeypatch.setattr(throughput_step, "draft_cost", lambda host_facts: 0.14)
    # a DFlash draft config: the block it was trained for at the top level (z-lab's "b16" drafts)
    draft = {"architectures": ["DFlashDraftModel"], "block_size": 10, "hidden_size": 4096, "num_hidden_layers": 5,
             "dflash_config": {"mask_token_id": 151669, "target_layer_ids": [1, 9, 17, 25, 33]}}
    launch = launch_step.parse({"source": "var", "cmdline": NOTHING_SET,
                                "models": {"z-lab/Qwen3-8B-DFlash-b16": {"path": "/m/d", "config": draft}}})
    assert launch["launch"]["effective"]["num_draft_tokens"] == 10
    facts = throughput_step.parse({"found": True, "path": "server.log",
                                   "lines": [DECODE.format(i=i) for i in range(3)],
                                   "args": {"baseline_tok_s": "100"}})
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts={**launch, **facts})
    throughput_step.check(ctx)
    assert facts["throughput"]["served_steps"] == 9
    assert facts["throughput"]["model"]["draft_passes"] == 1


def test_a_block_flag_that_is_not_an_integer_is_one_problem_not_a_traceback():
    # argparse `type=int` refuses it; the audit says so instead of raising out of the step
    for value in ("1e3", "eight"):
        cfg = parse_launch_command(BLOCK_FLAG_ONLY.replace("--speculative-dflash-block-size 7",
                                                           f"--speculative-dflash-block-size {value}"))
        problems = effective_spec(cfg).problems
        assert len(problems) == 1 and "expects an integer" in problems[0]
    launch = launch_step.parse({"source": "var", "cmdline": BLOCK_FLAG_ONLY.replace("block-size 7", "block-size 1e3"),
                                "models": {}})
    assert launch["launch"]["found"] and launch["launch"]["effective"]["problems"]
