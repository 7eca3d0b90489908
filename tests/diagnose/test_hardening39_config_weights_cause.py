"""SD704 (a draft config.json that does not describe its weights) is a root cause of what the
server then does, as SD204 for a config of another width is: vLLM builds the draft from the
config, and where it loads at all (a stored layer or bias the config leaves out is skipped) it
serves another network. The throughput step's regression said to profile the serving path,
not to fix the SD704 reported above it."""

from __future__ import annotations

from spec_debug.diagnose.steps import throughput_step
from tests.diagnose.test_steps import DRAFT, TARGET, codes, context


def test_a_throughput_regression_after_sd704_names_it_as_the_root_cause():
    lines = [f"Decode batch. #running-req: 1, accept len: 1.10, accept rate: 0.55, gen throughput (token/s): {v}"
             for v in (61.0, 62.0, 60.5)]
    facts = throughput_step.parse({"found": True, "path": "log", "lines": lines,
                                   "args": {"baseline_tok_s": "90"}})
    host = {"launch": {"effective": {"num_steps": 1}},
            "eval": {"reference": {"steps": 3, "reference": "target_argmax",
                                   "target_conditional_acceptance": [0.75, 0.7, 0.6]}},
            "configs": {"draft_config": DRAFT, "target_config": TARGET, "raised": ["SD704"]}}
    found = throughput_step.check(context(facts, host))
    assert codes(found) == [("SD501", "error"), ("SD502", "info")]
    assert found[0].remediation.startswith("Fix the root causes reported above (SD704)")
    assert found[0].facts["root_causes"] == ["SD704"]
    assert found[1].evidence[-1].startswith("explained by SD704")
