"""The configs step plans a target quantized on the launch line as vLLM 0.22/0.23 run it (round 25).

The engines review added `target_architecture(config, launch_quantization)`: a bf16 Qwen3-8B
served with `-q fp8` is quantized to vLLM (ModelConfig.quantization takes the flag), so 0.22/0.23
run the V1 runner, which reads a SpecForge draft's nested eagle_config ids. No step passed the
flag yet: the configs step planned MRv2 (top-level key only, the default ids) and missed the
draft's off-by-one (trained [2, 18, 33], served [1, 17, 32]: SD202)."""

from __future__ import annotations

from spec_debug.diagnose.steps import configs_step
from spec_debug.probes.registry import ProbeContext

QWEN3_8B = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "hidden_size": 4096,
            "num_hidden_layers": 36, "vocab_size": 151936}
SPECFORGE_DRAFT = {"architectures": ["LlamaForCausalLMEagle3"], "hidden_size": 4096, "num_hidden_layers": 1,
                   "vocab_size": 151936, "draft_vocab_size": 32000,
                   "eagle_config": {"eagle_aux_hidden_state_layer_ids": [1, 17, 32]}}


def _configs(*launch_flags: str) -> tuple[dict, list[str]]:
    facts = configs_step.parse({"draft": {"found": True, "config": SPECFORGE_DRAFT},
                                "target": {"found": True, "config": QWEN3_8B}})
    host_facts = {**facts, "engine": {"name": "vllm", "version": "0.22.0"},
                  "launch": {"argv": ["vllm", "serve", "Qwen/Qwen3-8B", *launch_flags]}}
    ctx = ProbeContext(step_id="configs", host="gpu01", args={}, facts=facts, host_facts=host_facts)
    codes = [f.code for f in configs_step.check(ctx)]
    return facts["configs"]["layers"], codes


def test_a_target_quantized_on_the_launch_line_is_served_the_nested_ids():
    layers, codes = _configs("-q", "fp8")
    assert layers["served"] == [1, 17, 32] and layers["config_key"] == "eagle_config.eagle_aux_hidden_state_layer_ids"
    assert "SD202" in codes


def test_without_the_flag_the_bf16_target_keeps_mrv2s_default_ids():
    layers, codes = _configs("--max-model-len", "8192")
    assert layers["used_default"] and layers["served"] == [2, 18, 33] and "SD202" not in codes
