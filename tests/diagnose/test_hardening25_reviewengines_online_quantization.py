"""vLLM 0.22/0.23: a bf16 target quantized online (`--quantization fp8`, `-q fp8`) runs the V1 runner
(review of round 25).

config/vllm.py `_is_default_v2_model_runner_model` (0.22.0, 0.23.0) refuses
`model_config.is_quantized`, which is `quantization is not None` (vllm config/model.py), and
ModelConfig.quantization takes the launch flag: a Qwen3-8B bf16 checkpoint served with
`-q fp8` runs V1 and reads a SpecForge draft's nested ids like an AWQ checkpoint does. The
config.json alone says bf16, so the launch flag is passed with it."""

from __future__ import annotations

from spec_debug.diagnose.steps.common import launch_quantization
from spec_debug.eagle3 import engines

QWEN3_8B = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 36}
SPECFORGE_DRAFT = {"architectures": ["LlamaForCausalLMEagle3"], "hidden_size": 4096,
                   "eagle_config": {"eagle_aux_hidden_state_layer_ids": [1, 17, 32]}}


def _launch(*argv: str) -> dict:
    return {"launch": {"argv": ["vllm", "serve", "Qwen/Qwen3-8B", *argv]}}


def test_an_online_quantized_target_runs_v1_on_022():
    method = launch_quantization(_launch("-q", "fp8", "--speculative-config", "{}"))
    assert method == "fp8"
    arch = engines.target_architecture(QWEN3_8B, method)
    assert engines.is_quantized(arch) and arch == "Qwen3ForCausalLM"
    plan = engines.serve_plan("vllm", "0.22.0", SPECFORGE_DRAFT, 36, arch)
    assert plan.config_key == engines.NESTED_KEY and plan.layer_ids == [1, 17, 32]


def test_without_the_flag_the_bf16_target_stays_on_mrv2():
    assert launch_quantization(_launch("--max-model-len", "8192")) is None
    assert launch_quantization({}) is None
    arch = engines.target_architecture(QWEN3_8B, launch_quantization(_launch()))
    assert not engines.is_quantized(arch)
    assert engines.serve_plan("vllm", "0.22.0", SPECFORGE_DRAFT, 36, arch).used_default
    assert launch_quantization(_launch("--quantization=awq")) == "awq"
