"""SGLang EAGLE-3 trees (topk > 1) on an attention backend that cannot draw them.

SGLang raises ValueError at startup for topk > 1 with `--page-size` > 1 on a backend outside
flashinfer/fa3/triton, and for topk > 1 with trtllm_mha (sgl-project/sglang
python/sglang/srt/arg_groups/speculative_hook.py `_handle_eagle_family`, 004c82e). The audit gave
SD102 "Draft-token budget inconsistent with steps and topk" and told the user to fix the budget;
the server never starts, so it now says so ("The engine refuses this launch command at startup").
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

TREE = ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
        "--speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B --speculative-num-steps 5 "
        "--speculative-eagle-topk 8 --speculative-num-draft-tokens 64 ")


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return launch_step.check(ctx)


@pytest.mark.parametrize("flags, line", [
    ("--page-size 16 --attention-backend flashmla",
     "topk 8 > 1 with --page-size 16 needs the flashinfer/fa3/triton attention backend (got flashmla): SGLang "
     "refuses to start (ValueError; use one of those backends, --page-size 1 or --speculative-eagle-topk 1)"),
    ("--attention-backend trtllm_mha",
     "the trtllm_mha attention backend only supports topk 1: SGLang refuses to start (\"ValueError: trtllm_mha "
     "backend only supports topk = 1 for speculative decoding.\"; use --speculative-eagle-topk 1 or another "
     "attention backend)"),
])
def test_a_tree_on_a_backend_without_trees_is_a_refused_start(flags, line):
    [finding] = [f for f in _findings(TREE + flags) if f.code == "SD102"]
    assert finding.title == "The engine refuses this launch command at startup"
    assert finding.evidence == [line]


def test_a_tree_on_a_backend_that_draws_it_stays_silent():
    assert not [f for f in _findings(TREE + "--page-size 16 --attention-backend flashinfer") if f.code == "SD102"]
    assert not [f for f in _findings(TREE + "--page-size 16") if f.code == "SD102"]
