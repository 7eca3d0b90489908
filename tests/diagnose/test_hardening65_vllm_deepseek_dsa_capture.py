"""vLLM 0.29.0 moved DeepSeek-V3.2 and GLM-5 (DSA targets) out of deepseek_v2.py, and their capture
rule moved with them.

PyPI sdists read: model_executor/models/registry.py maps "DeepseekV32ForCausalLM" to
("deepseek_v2", "DeepseekV3ForCausalLM") up to 0.28.0 and to ("vllm.models.deepseek_v32",
"DeepseekV32ForCausalLM") from 0.29.0, and "GlmMoeDsaForCausalLM" to vllm.models.deepseek_v32 too. On
CUDA that package's __init__.py imports nvidia/model.py's DeepseekV32ForCausalLM for both; its
DeepseekV32Model.forward (0.29.0 .. 0.33.0) appends `hidden_states if residual is None else
hidden_states + residual` before layer idx and has no `end_layer` capture: id 0 is the embedding
output and id N is never captured. deepseek_v2.py (DeepSeek-V3, Kimi-K2.5, Mistral-Large-3) keeps
`hidden_states + residual` before layer idx (residual None before layer 0) and `end_layer` from 0.25.0.

The table read both DSA classes as deepseek_v2.py on every release: id 0 unreachable and id N served
on 0.29.0 and later, the reverse of what the server does."""

from __future__ import annotations

import pytest

from spec_debug.eagle3 import engines

N = 61
IDS = {"eagle_aux_hidden_state_layer_ids": [0, 30, N]}


@pytest.mark.parametrize("arch", ["DeepseekV32ForCausalLM", "GlmMoeDsaForCausalLM"])
@pytest.mark.parametrize("version", ["0.29.0", "0.31.0", "0.33.0", None])
def test_dsa_targets_capture_the_embedding_and_never_the_last_output_from_0_29(arch, version):
    plan = engines.serve_plan("vllm", version, IDS, N, arch)
    assert plan.layer_ids == [0, 30]
    assert plan.unreachable == [N]
    assert engines.convention("vllm", "captures_embedding", version, arch) is True
    assert engines.convention("vllm", "captures_final", version, arch) is False
    assert "deepseek_v32/nvidia/model.py" in engines.convention_row("vllm", "captures_embedding", version,
                                                                   arch).source


@pytest.mark.parametrize("arch", ["DeepseekV32ForCausalLM", "GlmMoeDsaForCausalLM"])
@pytest.mark.parametrize("version", ["0.25.0", "0.28.0"])
def test_up_to_0_28_they_are_deepseek_v2_py_targets(arch, version):
    plan = engines.serve_plan("vllm", version, IDS, N, arch)
    assert plan.layer_ids == [30, N] and plan.unreachable == [0]


@pytest.mark.parametrize("arch", ["DeepseekV3ForCausalLM", "KimiK25ForConditionalGeneration"])
def test_deepseek_v2_py_targets_keep_their_reading(arch):
    plan = engines.serve_plan("vllm", "0.33.0", IDS, N, arch)
    assert plan.layer_ids == [30, N] and plan.unreachable == [0]
