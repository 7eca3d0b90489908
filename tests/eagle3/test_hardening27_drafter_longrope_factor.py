"""SD703 on longrope (Phi-3-style) drafts: factor and attention_factor are compared as the one
attention factor transformers computes (_compute_longrope_parameters: attention_factor, else
from factor, else max_position_embeddings / original_max_position_embeddings). Was key by key:
a draft writing the value transformers computes for a Phi-3-mini-128k target (1.19024, factor
32) got a false SD703 ('factor: draft 32.0, target None'), and a draft at
max_position_embeddings 4096, whose cos/sin transformers scales by 1.0, not 1.19, got none."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.checks.draft_config import check_rope

SHORT, LONG = [1.0] * 48, [4.0] * 48
# microsoft/Phi-3-mini-128k-instruct config.json's rope keys (factors shortened)
PHI3 = {"model_type": "phi3", "hidden_size": 3072, "num_attention_heads": 32,
        "max_position_embeddings": 131072, "original_max_position_embeddings": 4096,
        "rope_theta": 10000.0,
        "rope_scaling": {"type": "longrope", "short_factor": SHORT, "long_factor": LONG}}


def _transformers_factor(cfg: dict) -> float:
    transformers = pytest.importorskip("transformers")
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    config = transformers.Phi3Config(**{k: v for k, v in cfg.items() if k != "model_type"})
    return ROPE_INIT_FUNCTIONS["longrope"](config, None)[1]


def _draft(max_positions: int, **scaling) -> dict:
    return {"architectures": ["LlamaForCausalLMEagle3"], "hidden_size": 3072,
            "num_attention_heads": 32, "max_position_embeddings": max_positions,
            "original_max_position_embeddings": 4096, "rope_theta": 10000.0,
            "rope_scaling": {"rope_type": "longrope", "short_factor": SHORT,
                             "long_factor": LONG, **scaling}}


def test_a_draft_writing_the_computed_factor_is_the_targets_rope():
    computed = _transformers_factor(PHI3)
    assert computed == pytest.approx(1.19024, abs=1e-5)
    assert check_rope(_draft(131072, attention_factor=computed, factor=32.0), PHI3) == []
    assert check_rope(_draft(131072), PHI3) == []


def test_a_draft_at_the_original_positions_scales_cos_and_sin_otherwise():
    draft = _draft(4096)
    assert _transformers_factor({**draft, "rope_scaling": PHI3["rope_scaling"]}) == 1.0
    [finding] = check_rope(draft, PHI3)
    assert finding.code == "SD703"
    assert finding.evidence == ["longrope attention factor (attention_factor, or from factor or "
                                "max_position_embeddings / original_max_position_embeddings): "
                                "draft 1, target 1.19024"]


def test_a_written_factor_that_differs_is_still_said():
    [finding] = check_rope(_draft(131072, attention_factor=1.0), PHI3)
    assert "draft 1, target 1.19024" in finding.evidence[0]
