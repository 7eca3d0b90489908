"""A speculators draft's K is its default proposal method's; the K vLLM serves is the first's.

speculators_config.default_proposal_method names the method in use (speculators validates it is
one of proposal_methods, src/speculators/config.py), as spec_debug.eagle3.config now reads an
EAGLE-3 draft's depth. The launch audit's fallback for other speculators drafts (dflash, ...)
still took proposal_methods[0], so a config listing a tree method before its greedy default was
audited with the tree's depth. `vllm serve <speculator>` keeps the first method's K: vLLM's
build_vllm_speculative_config takes proposal_methods[0] (vllm-project/vllm
vllm/transformers_utils/configs/speculators/base.py).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from spec_debug.diagnose.checks.launch_flags import check_num_steps
from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.diagnose.steps.launch_step import served_speculator, trained_steps

# the demo draft's speculators config (the demo now serves its SGLang conversion: hardening75)
DEMO_DRAFT = Path(__file__).resolve().parents[2] / "tests" / "data" / "speculators_eagle3_draft" / "config.json"


def _tree_listed_first(kind: str) -> dict:
    """The demo speculators draft config (greedy, 3 tokens, the default) with a 7-token tree
    method listed before it, as a newer schema may save."""
    config = copy.deepcopy(json.loads(DEMO_DRAFT.read_text()))
    config["speculators_model_type"] = kind
    spec = config["speculators_config"]
    assert spec["default_proposal_method"] == "greedy"
    spec["proposal_methods"] = [{"proposal_type": "tree", "speculative_tokens": 7}, *spec["proposal_methods"]]
    return config


def test_a_dflash_draft_is_trained_for_its_default_methods_tokens():
    config = _tree_listed_first("dflash")
    assert trained_steps(config) == 3  # was 7, the tree's
    config["speculators_config"]["default_proposal_method"] = "tree"
    assert trained_steps(config) == 7


def test_the_eagle3_and_dflash_readings_agree():
    assert trained_steps(_tree_listed_first("eagle3")) == trained_steps(_tree_listed_first("dflash")) == 3


def test_vllm_serving_the_speculator_still_serves_the_first_methods_tokens():
    served = served_speculator(parse_launch_command("vllm serve ./draft"), _tree_listed_first("dflash"))
    assert served.num_steps == 7 and served.speculative_config["num_speculative_tokens"] == 7


def test_the_sd101_evidence_names_the_default_method_not_the_first():
    cfg = parse_launch_command("python3 -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 "
                               "--speculative-draft-model-path d --speculative-num-steps 1 "
                               "--speculative-eagle-topk 1 --speculative-num-draft-tokens 2")
    [finding] = check_num_steps(cfg, effective_spec(cfg), trained_steps=3)
    text = " ".join(finding.evidence)
    assert "default_proposal_method" in text and "proposal_methods[0]" not in text
