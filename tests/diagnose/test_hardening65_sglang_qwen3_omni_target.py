"""SGLang serves no EAGLE-3 draft over a Qwen3-Omni target (Qwen3OmniMoeForConditionalGeneration).

SGLang wheels 0.5.4, 0.5.9, 0.5.12, 0.5.17, 0.5.20, 0.5.22 and 0.5.23 read: models/qwen3_omni_moe.py's
EntryClass Qwen3OmniMoeForConditionalGeneration is a transformers PreTrainedModel that holds
`self.thinker` (Qwen3OmniMoeThinkerForConditionalGeneration, a Qwen3VLMoeForConditionalGeneration
subclass) and takes its pad_input_ids and forward, not its set_eagle3_layers_to_capture. 0.5.23's
model_runner_components/attention_backend_setup.py configure_aux_hidden_state_capture checks
`hasattr(model, "set_eagle3_layers_to_capture")` on model_runner's self.model and raises ValueError
("Model Qwen3OmniMoeForConditionalGeneration does not implement set_eagle3_layers_to_capture ...");
earlier releases call it and fail with AttributeError. The table planned the default layers as
served (a hardening19 probe test pinned that plan), so the configs step said nothing.
vLLM serves the target from 0.29.0 (qwen3_omni_moe_thinker.py SupportsEagle3)."""

from __future__ import annotations

import pytest

from spec_debug.eagle3 import engines

OMNI = "Qwen3OmniMoeForConditionalGeneration"


@pytest.mark.parametrize("version", ["0.5.23", "0.5.12", None])
def test_sglang_never_serves_qwen3_omni_and_points_to_vllm_0_29(version):
    failure = engines.capture_failure("sglang", OMNI, version)
    assert failure is not None
    assert failure.reason.endswith(
        f"{OMNI} target: its models/qwen3_omni_moe.py has no set_eagle3_layers_to_capture in any release read "
        "(0.4.9 .. 0.5.23), which SGLang calls on the target for EAGLE3, so the server stops at startup "
        "(AttributeError; 0.5.23: ValueError \"... does not implement set_eagle3_layers_to_capture\") and no layer "
        "ids are ever read")
    assert failure.fix == ("serve the draft with vLLM 0.29.0 or later, whose model class for this target implements "
                           "SupportsEagle3 from that release, or serve the target without EAGLE-3")
    plan = engines.serve_plan("sglang", version, {}, 48, OMNI)
    assert plan.layer_ids == [] and plan.unreachable == [2, 24, 45]


def test_the_thinker_inside_is_not_the_target_class():
    # Qwen3-VL-MoE, whose method the thinker inherits, is served from 0.5.11 as before
    assert engines.capture_failure("sglang", "Qwen3VLMoeForConditionalGeneration", "0.5.23") is None
    assert engines.capture_failure("vllm", OMNI, "0.33.0") is None
