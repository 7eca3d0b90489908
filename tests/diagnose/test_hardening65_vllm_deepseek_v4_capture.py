"""An EAGLE-3 draft over a DeepSeek-V4 target (DeepseekV4ForCausalLM) on vLLM.

PyPI sdists read (registry "DeepseekV4ForCausalLM": ("vllm.models.deepseek_v4", ...) from 0.22.0):
- vllm/models/deepseek_v4/nvidia/model.py's DeepseekV4ForCausalLM(nn.Module, SupportsPP, ...) has no
  SupportsEagle3 in 0.22.0, 0.23.0 and 0.24.0 and declares it in 0.25.0 .. 0.33.0, so before 0.25.0
  v1/worker/gpu_model_runner.py raises RuntimeError("Model does not support EAGLE3 interface ...").
- DeepseekV4Model.forward (0.25.0 .. 0.33.0) captures `if idx + 1 in self.aux_hidden_state_layers`
  after layer idx and `if self.end_layer in ...` after the loop: nothing before layer 0, so id 0 (the
  embedding output) is never captured, while id N (the last layer's output) is.

The table took DeepSeek-V4 for a Llama-like (EagleModelMixin) target on every release: id 0 planned as
served (a draft with it gets one aux state fewer than its fc expects) and 0.22.0 .. 0.24.0 planned as
serving the draft at all."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.eagle3 import engines

V4 = "DeepseekV4ForCausalLM"
N = 61
LAUNCH = ("vllm serve deepseek-ai/DeepSeek-V4 --speculative-config "
          "'{\"method\": \"eagle3\", \"model\": \"org/DeepSeek-V4-eagle3\", \"num_speculative_tokens\": 3}'")


@pytest.mark.parametrize("version", ["0.25.0", "0.28.0", "0.33.0", None])
def test_id_0_is_never_captured_and_id_n_is(version):
    plan = engines.serve_plan("vllm", version, {"eagle_aux_hidden_state_layer_ids": [0, 30, N]}, N, V4)
    assert plan.layer_ids == [30, N]
    assert plan.unreachable == [0]
    assert engines.convention("vllm", "captures_embedding", version, V4) is False
    assert engines.convention("vllm", "captures_final", version, V4) is True
    # the default ids and the usual ones are served as configured
    assert engines.serve_plan("vllm", version, {}, N, V4).layer_ids == [2, 30, 58]
    assert engines.serve_plan("vllm", version, {"eagle_aux_hidden_state_layer_ids": [1, 30, 60]}, N,
                              V4).layer_ids == [1, 30, 60]


def test_the_vl_class_over_the_same_language_model_reads_alike():
    plan = engines.serve_plan("vllm", "0.30.0", {"eagle_aux_hidden_state_layer_ids": [0, 30, N]}, N,
                              "DeepseekV4ForConditionalGeneration")
    assert plan.layer_ids == [30, N] and plan.unreachable == [0]


@pytest.mark.parametrize("version", ["0.22.0", "0.24.0", "0.21.0"])
def test_a_release_before_the_interface_serves_nothing(version):
    failure = engines.capture_failure("vllm", V4, version)
    assert failure is not None
    assert failure.reason == (
        f"vLLM {version} cannot serve an EAGLE-3 draft over a {V4} target: its models/deepseek_v4/nvidia/model.py "
        "class does not implement SupportsEagle3 there (without it up to 0.24.0, with it from 0.25.0), which the "
        "server requires of the target: RuntimeError \"Model does not support EAGLE3 interface ...\" at startup "
        "(v1/worker/gpu_model_runner.py), so no layer ids are ever read")
    assert failure.fix == "upgrade vLLM to 0.25.0 or later and re-run this check with that release"
    assert engines.serve_plan("vllm", version, {}, N, V4).layer_ids == []
    problems = [p for p in effective_spec(parse_launch_command(LAUNCH), target_architecture=V4,
                                          engine_version=version).problems if "SupportsEagle3" in p]
    assert problems == [f"method eagle3: {failure.reason} ({failure.fix})"]


def test_deepseek_v3_keeps_its_own_reading():
    # deepseek_v2.py's family: id 0 never captured either, id N only from 0.25.0
    assert engines.serve_plan("vllm", "0.24.0", {"eagle_aux_hidden_state_layer_ids": [0, 30, N]}, N,
                              "DeepseekV3ForCausalLM").layer_ids == [30]
    assert engines.capture_failure("vllm", "DeepseekV3ForCausalLM", "0.24.0") is None


NESTED = {"eagle_config": {"eagle_aux_hidden_state_layer_ids": [5, 30, 55]}}


@pytest.mark.parametrize("version", ["0.25.0", "0.26.0", "0.27.0"])
def test_the_v1_runner_reads_the_specforge_nested_ids_before_mrv2_lists_deepseek_v4(version):
    # config/vllm.py 0.25.0 .. 0.27.0: a MoE target outside DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES runs
    # V1, whose _get_eagle3_aux_layers_from_config falls back to eagle_config's ids
    plan = engines.serve_plan("vllm", version, NESTED, N, V4)
    assert plan.layer_ids == [5, 30, 55]
    assert plan.config_key == "eagle_config.eagle_aux_hidden_state_layer_ids" and not plan.used_default


@pytest.mark.parametrize("version", ["0.28.0", "0.33.0"])
def test_mrv2_from_0_28_ignores_the_nested_ids(version):
    # 0.28.0 lists DeepseekV4ForCausalLM for MRv2, which reads the top level and eagle_config['layer_ids']
    plan = engines.serve_plan("vllm", version, NESTED, N, V4)
    assert plan.layer_ids == [2, 30, 58] and plan.used_default
