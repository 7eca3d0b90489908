"""A draft tree whose verify budget is shorter than its depth.

sgl-project/sglang scripts/playground/bench_speculative.py sweeps steps x topk x draft tokens
and only skips `steps * topk + 1 < num_draft_tokens`, so it launches (and users copy out of
its results) configurations such as steps 5, topk 8, draft tokens 4: the server starts, drafts
5 levels every round, and verifies only the 3 best-scored nodes, which can reach depth 3 at
most (a node's score is its path's cumulative probability, never above its parent's).
"""

from __future__ import annotations

from spec_debug.diagnose.checks.launch_flags import check_draft_budget
from spec_debug.diagnose.launch import effective_spec, parse_launch_command

BASE = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
        "--speculative-algorithm EAGLE3 --speculative-draft-model-path "
        "jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B ")


def test_tree_deeper_than_its_verify_budget_is_reported():
    cfg = parse_launch_command(BASE + "--speculative-num-steps 5 --speculative-eagle-topk 8 "
                                      "--speculative-num-draft-tokens 4")
    eff = effective_spec(cfg)
    findings = check_draft_budget(cfg, eff)
    assert [f.code for f in findings] == ["SD102"]
    text = " ".join(findings[0].evidence)
    assert "accept length is at most 4" in text
    assert "2 of the 5 draft steps" in text


def test_tree_with_two_draft_tokens_caps_accept_length_at_two():
    # the same cap as --speculative-num-steps 1, reached through the budget
    cfg = parse_launch_command(BASE + "--speculative-num-steps=3 --speculative-eagle-topk=4 "
                                      "--speculative-num-draft-tokens=2")
    findings = check_draft_budget(cfg, effective_spec(cfg))
    assert [f.code for f in findings] == ["SD102"]
    assert "accept length is at most 2" in " ".join(findings[0].evidence)


def test_docs_tree_settings_stay_quiet():
    # sglang docs (advanced_features/speculative_decoding.md): 5 steps, topk 8, 64 draft tokens
    cfg = parse_launch_command(BASE + "--speculative-num-steps 5 --speculative-eagle-topk 8 "
                                      "--speculative-num-draft-tokens 64")
    assert check_draft_budget(cfg, effective_spec(cfg)) == []
    # tokens - 1 == steps: every level can be verified
    cfg = parse_launch_command(BASE + "--speculative-num-steps 3 --speculative-eagle-topk 2 "
                                      "--speculative-num-draft-tokens 4")
    assert check_draft_budget(cfg, effective_spec(cfg)) == []


def test_zero_steps_or_topk_is_one_clear_problem_not_negative_capacity():
    # bench_speculative.py's sweep uses 0 for "no speculation"; written into a server command
    # with the algorithm still set it drafts nothing
    cfg = parse_launch_command(BASE + "--speculative-num-steps 0 --speculative-eagle-topk 4 "
                                      "--speculative-num-draft-tokens 4")
    eff = effective_spec(cfg)
    assert eff.problems == ["--speculative-num-steps 0 drafts nothing: SGLang needs at least 1 step "
                            "(leave out the --speculative-* flags to serve without speculation)"]
    assert eff.tree_capacity is None
    assert [f.code for f in check_draft_budget(cfg, eff)] == ["SD102"]
    cfg = parse_launch_command(BASE + "--speculative-num-steps 3 --speculative-eagle-topk 0 "
                                      "--speculative-num-draft-tokens 4")
    assert effective_spec(cfg).problems == ["--speculative-eagle-topk 0 drafts nothing: SGLang needs at "
                                            "least 1 candidate per step"]
