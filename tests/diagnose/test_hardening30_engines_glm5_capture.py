"""Round 30: GLM-5 (GlmMoeDsaForCausalLM, zai-org/GLM-5 config.json) is a DeepseekV2ForCausalLM
subclass in both engines: SGLang python/sglang/srt/models/glm4_moe.py `class
GlmMoeDsaForCausalLM(DeepseekV2ForCausalLM)` keeps deepseek_v2.py's set_eagle3_layers_to_capture
(+1 only when the first id is 1, from 0.5.13), and vLLM's registry maps it to deepseek_v2.py
(its own capture loop: no embedding, no final output before 0.25). It was read by the Llama
rules: a GLM-5 EAGLE-3 draft whose eagle_config ids are input-to [2, 39, 75] was said to be served
[3, 40, 76] on SGLang (SD202, a layer mismatch that is not there), and a draft asking for the
final output (id 78) on vLLM 0.22 was said to be served it, where deepseek_v2.py never captures it
(now SD201, the slot it loses)."""

from __future__ import annotations

from spec_debug.diagnose.checks.layers import analyse_layers, check_aux_layers
from spec_debug.eagle3.engines import target_architecture

GLM5 = {"architectures": ["GlmMoeDsaForCausalLM"], "model_type": "glm_moe_dsa", "hidden_size": 6144,
        "num_hidden_layers": 78, "vocab_size": 154880}
DRAFT = {"architectures": ["LlamaForCausalLMEagle3"], "hidden_size": 6144, "num_hidden_layers": 1,
         "intermediate_size": 16384, "num_attention_heads": 48, "num_key_value_heads": 8,
         "draft_vocab_size": 32000, "vocab_size": 154880}


def _codes(engine: str, version: str, draft: dict):
    analysis = analyse_layers(engine, version, draft, 78, target_architecture=target_architecture(GLM5))
    return analysis.served, {f.code for f in check_aux_layers(analysis, target_hidden_size=6144, num_aux=3)}


def test_sglang_serves_a_glm5_drafts_input_to_ids_as_written():
    draft = {**DRAFT, "eagle_config": {"eagle_aux_hidden_state_layer_ids": [2, 39, 75]}}
    served, codes = _codes("sglang", "0.5.23", draft)
    assert served == [2, 39, 75]  # was [3, 40, 76], with a layer-mismatch finding
    assert not codes & {"SD202", "SD203"}


def test_vllm_before_0_25_does_not_capture_a_glm5_targets_final_output():
    draft = {**DRAFT, "eagle_aux_hidden_state_layer_ids": [2, 39, 78]}
    assert _codes("vllm", "0.22.0", draft) == ([2, 39], {"SD201"})  # was [2, 39, 78], no finding
    assert _codes("vllm", "0.25.0", draft)[0] == [2, 39, 78]
