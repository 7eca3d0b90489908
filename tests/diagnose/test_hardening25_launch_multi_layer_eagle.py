"""SGLang's `--enable-multi-layer-eagle` with draft tokens other than steps + 1.

Its draft worker drafts one chain and asserts `speculative_num_draft_tokens ==
speculative_num_steps + 1` at startup (sgl-project/sglang speculative/multi_layer_eagle_worker.py).
sgl-project/sglang#36536 (0.5.18): `--speculative-algorithm EAGLE --enable-multi-layer-eagle` on a
Llama target, the parameters left to SGLang's auto-choice (5, 4, 8), fails it. The audit saw the
auto-chosen tree and nothing wrong; now SD102 says the server does not start, and what to set.
"""

from __future__ import annotations

from spec_debug.diagnose.checks.launch_flags import check_draft_budget
from spec_debug.diagnose.launch import effective_spec, parse_launch_command

ISSUE_36536 = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
               "--speculative-algorithm EAGLE --enable-multi-layer-eagle")


def _budget(command):
    cfg = parse_launch_command(command)
    return check_draft_budget(cfg, effective_spec(cfg, target_architecture="LlamaForCausalLM"))


def test_the_auto_chosen_tree_fails_the_chain_assert():
    (finding,) = _budget(ISSUE_36536)
    assert finding.code == "SD102" and finding.title == "The engine refuses this launch command at startup"
    (line,) = finding.evidence
    assert "got 8 and 5" in line and "does not start" in line and "--speculative-num-draft-tokens 6" in line


def test_explicit_draft_tokens_off_the_chain():
    (finding,) = _budget(ISSUE_36536 + " --speculative-num-steps 3 --speculative-eagle-topk 2 "
                                       "--speculative-num-draft-tokens 8")
    assert "got 8 and 3" in finding.evidence[-1]


def test_a_chain_is_no_finding():
    assert _budget(ISSUE_36536 + " --speculative-num-steps 3 --speculative-eagle-topk 1 "
                                 "--speculative-num-draft-tokens 4") == []
    # (topk 1 makes SGLang overwrite the draft tokens to steps + 1 first: only that overwrite is said)
    (finding,) = _budget(ISSUE_36536 + " --speculative-num-steps 3 --speculative-eagle-topk 1 "
                                       "--speculative-num-draft-tokens 8")
    assert not any("multi-layer" in line for line in finding.evidence)
