"""SGLang NGRAM: the audit reads the topk and draft tokens SGLang gives it, and judges the cap on
the draft tokens it verifies, not on --speculative-num-steps.

Rule: sgl-project/sglang python/sglang/srt/arg_groups/speculative_hook.py `_handle_ngram`
(server_args.py `_handle_speculative_decoding` before it): topk is always
--speculative-ngram-max-bfs-breadth (default 10), unset draft tokens become 12;
speculative/ngram_worker.py drafts speculative_num_draft_tokens from its cache.
"""

from __future__ import annotations

from spec_debug.diagnose.checks.launch_flags import check_draft_budget, check_num_steps
from spec_debug.diagnose.launch import effective_spec, parse_launch_command

# https://docs.sglang.io/advanced_features/speculative_decoding.html, "Ngram Speculative Decoding"
DOCS_NGRAM = ("python3 -m sglang.launch_server --model Qwen/Qwen2.5-7B-Instruct --speculative-algorithm NGRAM "
              "--speculative-num-draft-tokens 16 "
              "--speculative-ngram-max-match-window-size 12 --speculative-ngram-max-bfs-breadth 10 "
              "--cuda-graph-max-bs 8 --mem-fraction-static 0.8 --log-level warning")
# the same launch with SGLang's defaults (no tuning flags)
DOCS_NGRAM_PLAIN = ("python3 -m sglang.launch_server --model Qwen/Qwen2.5-7B-Instruct --speculative-algorithm NGRAM "
                    "--cuda-graph-max-bs 8 --mem-fraction-static 0.8 --log-level warning")
# https://github.com/sgl-project/sglang/pull/23629 (adaptive spec for ngram): shared NGRAM flags + a static mode
PR_23629 = ("python3 -m sglang.launch_server --model /models/LLM-Research/Meta-Llama-3.1-8B-Instruct "
            "--speculative-algorithm NGRAM --speculative-ngram-max-bfs-breadth 1 --attention-backend triton "
            "--skip-server-warmup --mem-fraction-static 0.7 {mode}")


def _audit(command: str):
    cfg = parse_launch_command(command)
    eff = effective_spec(cfg)
    return eff, check_num_steps(cfg, eff, None) + check_draft_budget(cfg, eff)


def test_docs_ngram_launch_runs_with_the_bfs_breadth_as_topk_and_raises_nothing():
    eff, findings = _audit(DOCS_NGRAM)
    # before: topk None (SGLang sets it from --speculative-ngram-max-bfs-breadth)
    assert (eff.topk, eff.num_draft_tokens) == (10, 16)
    assert findings == []


def test_plain_ngram_launch_gets_sglangs_defaults_and_raises_nothing():
    eff, findings = _audit(DOCS_NGRAM_PLAIN)
    # before: topk and draft tokens None
    assert (eff.num_steps, eff.topk, eff.num_draft_tokens) == (None, 10, 12)
    assert findings == []


def test_a_written_topk_is_replaced_by_the_breadth_without_a_budget_warning():
    eff, findings = _audit(DOCS_NGRAM + " --speculative-eagle-topk 4")
    assert eff.topk == 10 and findings == []


def test_window_size_without_draft_tokens_leaves_the_budget_unknown():
    # older releases took the draft tokens from the window size, newer ones use 12
    command = DOCS_NGRAM.replace("--speculative-num-draft-tokens 16 ", "").replace(
        "max-match-window-size 12", "max-match-window-size 8")
    eff, findings = _audit(command)
    assert eff.num_draft_tokens is None and findings == []


def test_ngram_cap_is_judged_on_the_draft_tokens_it_verifies():
    _, findings = _audit(PR_23629.format(mode="--speculative-num-steps 1 --speculative-num-draft-tokens 2"))
    assert [f.code for f in findings] == ["SD101"]
    # before: the evidence blamed --speculative-num-steps 1, which NGRAM does not read
    assert findings[0].evidence[0] == "launch command: --speculative-num-draft-tokens 2"
    assert findings[0].severity == "warning"
    eff, findings = _audit(PR_23629.format(mode="--speculative-num-steps 7 --speculative-num-draft-tokens 8"))
    assert (eff.topk, eff.num_draft_tokens) == (1, 8) and findings == []


def test_ngram_with_one_step_but_a_wide_block_is_not_capped():
    # steps 1 is no depth for NGRAM: 16 draft tokens are matched and verified
    _, findings = _audit(DOCS_NGRAM + " --speculative-num-steps 1")
    assert findings == []  # before: SD101 "capped at one drafted token"
