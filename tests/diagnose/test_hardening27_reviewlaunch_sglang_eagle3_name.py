"""SGLang `--speculative-algorithm EAGLE` with a draft named as an EAGLE-3 head, its config not read.

sgl-project/sglang#25673 (SGLang 0.5.11): Kimi-K2.6 with `--speculative-algo EAGLE
--speculative-draft-model-path /app/models/kimi-k2.6-eagle3-mla`. SGLang keeps EAGLE for it
(arg_groups/speculative_hook.py `_resolve_speculative_algorithm_alias` promotes only Gemma 4 assistant
drafts; PR #21272, which would have switched an Eagle3 draft to EAGLE3, was closed unmerged): the head
gets one hidden state instead of three aux layers, `fc` is skipped, accept length 1.0 (PR #21272's
measurement). The audit said nothing when the draft config was not read; now SD103 as a warning.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

ISSUE_FLAGS = """--tp 8
--ep 8
--trust-remote-code
--tool-call-parser kimi_k2
--reasoning-parser kimi_k2
--speculative-algo {algo}
--speculative-num-steps 3
--speculative-eagle-topk 1
--speculative-num-draft-tokens 4
--speculative-draft-model-path {draft}
"""


def _findings(algo="EAGLE", draft="/app/models/kimi-k2.6-eagle3-mla"):
    facts = launch_step.parse({"source": "var", "cmdline": ISSUE_FLAGS.format(algo=algo, draft=draft), "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return launch_step.check(ctx)


@pytest.mark.parametrize("algo, draft", [
    ("EAGLE", "/app/models/kimi-k2.6-eagle3-mla"),
    ("NEXTN", "lightseekorg/kimi-k2.6-eagle3.1-mla"),
    ("EAGLE", "jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B"),
])
def test_an_eagle3_named_draft_served_as_eagle_is_said(algo, draft):
    (finding,) = _findings(algo, draft)
    assert finding.code == "SD103" and finding.severity == "warning"
    assert "EAGLE3" in finding.remediation and draft in " ".join(finding.evidence)


@pytest.mark.parametrize("algo, draft", [
    ("EAGLE3", "/app/models/kimi-k2.6-eagle3-mla"),            # served right
    ("EAGLE", "lmsys/sglang-EAGLE-LLaMA3-Instruct-8B"),        # an EAGLE(-2) head
    ("EAGLE", "/models/eagle3-runs/llama-eagle-head"),         # only a folder above it says eagle3
])
def test_no_warning_where_the_name_does_not_say_it(algo, draft):
    assert [f.code for f in _findings(algo, draft)] == []
