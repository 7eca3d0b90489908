"""engines: an MLA EAGLE-3 draft runs deepseek_eagle3.py, which reads fewer norm flags (round 26).

vLLM model_executor/models/deepseek_eagle3.py (Eagle3DeepseekV2ForCausalLM, the Kimi-K2 eagle3-mla
heads) reads norm_before_residual, fc_norm and norm_output but builds no input_norm, so
norm_before_fc is ignored; SGLang python/sglang/srt/models/deepseek_eagle3.py reads no norm flag at
all. The table's llama_eagle3.py rows said every flag was honoured, so the ignored ones went unnamed."""

from __future__ import annotations

from spec_debug.eagle3 import engines

MLA_DRAFT = {"architectures": ["Eagle3DeepseekV2ForCausalLM"], "model_type": "deepseek_v3",
             "hidden_size": 7168, "kv_lora_rank": 512, "q_lora_rank": 1536, "num_hidden_layers": 1,
             "norm_before_fc": True, "fc_norm": True,
             "eagle_config": {"eagle_aux_hidden_state_layer_ids": [1, 29, 57]}}


def test_vllm_mla_drafter_ignores_norm_before_fc():
    assert engines.ignored_norm_flags("vllm", "0.30.0", MLA_DRAFT) == ["norm_before_fc"]


def test_sglang_mla_drafter_ignores_every_flag():
    assert engines.ignored_norm_flags("sglang", "0.5.20", MLA_DRAFT) == ["norm_before_fc", "fc_norm"]


def test_a_llama_draft_with_the_same_flags_keeps_them():
    llama = dict(MLA_DRAFT, architectures=["LlamaForCausalLMEagle3"], model_type="llama")
    assert engines.ignored_norm_flags("vllm", "0.30.0", llama) == []
    assert engines.ignored_norm_flags("sglang", "0.5.20", llama) == []
