"""SGLang EAGLE-3 with --speculative-eagle-topk > 1 and a verify budget that holds no drafted token.

`--speculative-num-draft-tokens 1` counts the root alone: SGLang keeps `num_draft_tokens - 1 = 0`
tree nodes (`organize_draft_results`, eagle_utils.py) and, unlike topk 1, does not rewrite the
budget (arg_groups/speculative_hook.py `_handle_eagle_family`), so every round drafts all its
steps and accepts none. The audit said nothing for 3 steps, and for 1 step it said SD101 "the
accept length is at most 2", a token the tree never verifies. It now reports SD102 (and no SD101).
"""

from __future__ import annotations

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SGLANG = ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
          "--speculative-algorithm EAGLE3 --speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B "
          "--speculative-num-steps {steps} --speculative-eagle-topk {topk} --speculative-num-draft-tokens {tokens}")


def _findings(steps: int, topk: int, tokens: int):
    command = SGLANG.format(steps=steps, topk=topk, tokens=tokens)
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return launch_step.check(ctx)


def test_one_draft_token_with_a_tree_verifies_nothing():
    [finding] = [f for f in _findings(3, 4, 1) if f.code in ("SD101", "SD102")]
    assert finding.code == "SD102"
    assert finding.evidence == [
        "1 draft token verifies no tree node (the root alone), so the accept length is 1: all 3 draft step(s) "
        "of topk 4 run every round and none can be accepted, slower than no speculation "
        "(use --speculative-num-draft-tokens 37 or fewer, at least 4)"]
    assert finding.facts["effective"] == {"steps": 3, "topk": 4, "num_draft_tokens": 1}


def test_one_step_one_draft_token_is_not_promised_an_accepted_token():
    findings = _findings(1, 4, 1)
    assert not [f for f in findings if f.code == "SD101"]
    [budget] = [f for f in findings if f.code == "SD102"]
    assert budget.evidence[0].startswith("1 draft token verifies no tree node (the root alone), so the "
                                         "accept length is 1: all 1 draft step(s) of topk 4")


def test_zero_draft_tokens_with_a_tree_is_sd102():
    [finding] = [f for f in _findings(3, 4, 0) if f.code == "SD102"]
    assert finding.evidence[0].startswith("--speculative-num-draft-tokens 0 with topk 4: the verify tree has "
                                          "no room even for its root")


def test_budgets_that_verify_drafted_tokens_stay_as_they_were():
    # steps * topk + 1 and the full tree (topk + (steps-1)*topk^2 + 1) are fine
    assert not [f for f in _findings(3, 4, 13) if f.code in ("SD101", "SD102")]
    assert not [f for f in _findings(3, 4, 37) if f.code in ("SD101", "SD102")]
    # topk 1: SGLang rewrites 1 to steps + 1 itself (with a warning)
    [rewritten] = [f for f in _findings(3, 1, 1) if f.code == "SD102"]
    assert "is overwritten to 4 (steps + 1) because topk is 1" in rewritten.evidence[0]
