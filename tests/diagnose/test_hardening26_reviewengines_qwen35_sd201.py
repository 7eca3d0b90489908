"""SD201 for an EAGLE-3 draft SGLang cannot serve on a Qwen3.5 target (round 26 review).

engines.capture_failure (sgl-project/sglang#38307: Qwen3_5ForConditionalGeneration flags no capture
layer) is the evidence and the way out; the check said "retrain the draft on layers the engine
serves, such as its default [2, 32, 61]", which SGLang serves no better.
"""

from __future__ import annotations

from spec_debug.diagnose.checks.layers import analyse_layers, check_aux_layers

# A SpecForge draft for Qwen3.5-27B (64 layers), ids in its nested eagle_config
DRAFT = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", "num_hidden_layers": 1,
         "hidden_size": 5120, "eagle_config": {"eagle_aux_hidden_state_layer_ids": [1, 31, 60]}}


def test_sd201_says_sglang_captures_nothing_not_retrain_on_the_default():
    analysis = analyse_layers("sglang", "0.5.20", DRAFT, 64,
                              target_architecture="Qwen3_5ForConditionalGeneration")
    [finding] = check_aux_layers(analysis)
    assert finding.code == "SD201"
    assert any("38307" in line for line in finding.evidence)
    assert "vLLM" in finding.remediation and "retrain" not in finding.remediation.lower()
