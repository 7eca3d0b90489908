"""vLLM 0.22/0.23 serve a quantized Qwen3/Llama target with the V1 model runner (round 25).

config/vllm.py `_is_default_v2_model_runner_model` (vllm 0.22.0, 0.23.0) returns False for
`model_config.is_quantized`, so a listed architecture (Qwen3ForCausalLM; Llama/Mistral from
0.23) with a quantization_config ran V1, which reads the SpecForge nested eagle_config ids;
vllm-project/vllm#44446 dropped that gate (0.24.0). The table planned every listed target as
MRv2 (top-level key only): a SpecForge draft's nested ids were taken as unread and a real
off-by-one (SD202) on an AWQ target was missed."""

from __future__ import annotations

import pickle

import pytest

from spec_debug.diagnose.checks.layers import analyse_layers, check_aux_layers
from spec_debug.eagle3 import engines

# Qwen/Qwen3-8B-AWQ config.json (trimmed): the quantization_config AutoAWQ writes
QWEN3_8B_AWQ = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "hidden_size": 4096,
                "num_hidden_layers": 36, "quantization_config": {
                    "bits": 4, "group_size": 128, "modules_to_not_convert": None,
                    "quant_method": "awq", "version": "gemm", "zero_point": True}}
QWEN3_8B = {k: v for k, v in QWEN3_8B_AWQ.items() if k != "quantization_config"}
# a SpecForge draft: output-of ids under eagle_config (its configs/qwen3-8b-eagle3.json shape)
SPECFORGE_DRAFT = {"architectures": ["LlamaForCausalLMEagle3"], "hidden_size": 4096,
                   "eagle_config": {"eagle_aux_hidden_state_layer_ids": [1, 17, 32]}}


@pytest.mark.parametrize("version", ["0.22.0", "0.23.1"])
def test_a_quantized_qwen3_target_runs_v1_and_is_served_the_nested_ids(version):
    arch = engines.target_architecture(QWEN3_8B_AWQ)
    plan = engines.serve_plan("vllm", version, SPECFORGE_DRAFT, 36, arch)
    assert plan.config_key == engines.NESTED_KEY and plan.layer_ids == [1, 17, 32]
    assert "V1 runner" in plan.sources[0]
    analysis = analyse_layers("vllm", version, SPECFORGE_DRAFT, 36, target_architecture=arch)
    assert analysis.mismatch  # trained [2, 18, 33] (SpecForge output-of + 1), served [1, 17, 32]
    assert any(f.code == "SD202" for f in check_aux_layers(analysis, target_hidden_size=4096))


def test_the_same_target_unquantized_and_from_024_quantized_runs_mrv2():
    plain = engines.target_architecture(QWEN3_8B)
    assert engines.serve_plan("vllm", "0.22.0", SPECFORGE_DRAFT, 36, plain).used_default
    quantized = engines.target_architecture(QWEN3_8B_AWQ)
    assert engines.serve_plan("vllm", "0.24.0", SPECFORGE_DRAFT, 36, quantized).used_default


def test_a_quantized_llama_target_on_023_and_a_wrapped_or_compressed_config():
    fp8 = {"architectures": ["LlamaForCausalLM"],
           "compression_config": {"quant_method": "compressed-tensors", "config_groups": {}}}
    plan = engines.serve_plan("vllm", "0.23.0", SPECFORGE_DRAFT, 32, engines.target_architecture(fp8))
    assert plan.config_key == engines.NESTED_KEY
    wrapped = {"architectures": ["Qwen3ForCausalLM"], "text_config": {"quantization_config": {"quant_method": "fp8"}}}
    assert engines.is_quantized(engines.target_architecture(wrapped))
    # the flag survives a pickle (parallel workers) and the name still compares as the string
    arch = pickle.loads(pickle.dumps(engines.target_architecture(QWEN3_8B_AWQ)))
    assert arch == "Qwen3ForCausalLM" and engines.is_quantized(arch)
    assert not engines.is_quantized("Qwen3ForCausalLM")
