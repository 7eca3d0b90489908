"""vLLM serves an EAGLE-3 draft only over a target whose model class implements SupportsEagle3;
the layer and launch checks read a GLM-4.5 (Glm4MoeForCausalLM) target on vLLM 0.22+ as served
its layers.

vllm/model_executor/models/interfaces.py SupportsEagle3 is a runtime_checkable Protocol, and
the runner refuses a target model without it at startup: v1/worker/gpu_model_runner.py raises
RuntimeError("Model does not support EAGLE3 interface but aux_hidden_state_outputs was
requested") (PyPI sdists 0.18.0, 0.22.0, 0.33.0 read), model runner V2
v1/worker/gpu/spec_decode/eagle/eagle3_utils.py RuntimeError("Model does not support EAGLE3
interface") (0.33.0). The check is per model class (the target config.json's architectures[0],
through model_executor/models/registry.py): glm4_moe.py, glm4_moe_lite.py, mixtral.py,
qwen2_moe.py, gemma2.py, gemma3.py and ernie45_moe.py declare no SupportsEagle3 in any of those
releases. engines.py knew only the model-type list that 0.22.0 dropped (vllm-project/vllm#42536),
so from 0.22.0 a GLM-4.5 target was planned as served [2, N//2, N-3] and the configs step was
clean; on 0.21.0 it said "upgrade vLLM to 0.22.0", which refuses it the same way. Qwen2-MoE
passed the list ("qwen" is in qwen2_moe) and met the same refusal.

World: a real transformers Glm4MoeForCausalLM target (8 layers) and an EAGLE-3 draft over it
saved by speculators 0.9.0 (tests/eagle3/speculators_world.save_perturbed_draft), trained on the
default [2, 4, 5]."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.eagle3 import engines

VLLM = ("vllm serve zai-org/GLM-4.5-Air --speculative-config "
        "'{\"method\": \"eagle3\", \"model\": \"org/GLM-4.5-Air-eagle3\", \"num_speculative_tokens\": 3}'")
NO_INTERFACE = ("that model class does not implement SupportsEagle3 (vllm/model_executor/models/interfaces.py), "
                "which every vLLM release read (0.18.0, 0.22.0, 0.33.0) requires of the target")
FIX = ("serve the draft with an engine whose model for this target captures aux hidden states (SGLang: a "
       "set_eagle3_layers_to_capture in its model file), or serve the target without EAGLE-3")
# What SGLang does with each class (engines.SGLANG_NO_EAGLE3_CAPTURE / SGLANG_CAPTURE_SINCE, read in
# its wheels 0.4.9 .. 0.5.23): the generic FIX sent Mixtral, Gemma-2 and ERNIE-MoE users to SGLang,
# which cannot serve them either (stop 51, vllm_no_interface_fix); GLM-4.5 Air's lite class is in
# neither table and keeps FIX.
NEITHER = ("serve the target without EAGLE-3: SGLang's models/{}.py has no set_eagle3_layers_to_capture in any "
           "release read (0.4.9 .. 0.5.23) either, so neither engine serves this draft")
SGLANG_FROM = ("serve the draft with SGLang {} or later, whose models/{}.py captures its aux hidden states "
               "(set_eagle3_layers_to_capture), or serve the target without EAGLE-3")
EXPECTED_FIX = {"Ernie4_5_MoeForCausalLM": NEITHER.format("ernie4"), "Gemma2ForCausalLM": NEITHER.format("gemma2"),
                "MixtralForCausalLM": NEITHER.format("mixtral"),
                "Gemma3ForCausalLM": SGLANG_FROM.format("0.5.12", "gemma3_causal"),
                "Glm4MoeForCausalLM": SGLANG_FROM.format("0.5.5", "glm4_moe"),
                "Qwen2MoeForCausalLM": SGLANG_FROM.format("0.5.2", "qwen2_moe"),
                "Glm4MoeLiteForCausalLM": FIX}


def _refusals(arch: str, version: str | None) -> list[str]:
    return [p for p in effective_spec(parse_launch_command(VLLM), target_architecture=arch,
                                      engine_version=version).problems
            if "EAGLE-3" in p and ("refuses" in p or "cannot serve" in p)]


# the classes read without SupportsEagle3 in vllm 0.18.0, 0.22.0 and 0.33.0
@pytest.mark.parametrize("arch", ["Ernie4_5_MoeForCausalLM", "Gemma2ForCausalLM", "Gemma3ForCausalLM",
                                  "Glm4MoeForCausalLM", "Glm4MoeLiteForCausalLM", "MixtralForCausalLM",
                                  "Qwen2MoeForCausalLM"])
@pytest.mark.parametrize("version", ["0.22.0", "0.26.0", "0.33.0", None])
def test_a_target_class_without_the_interface_is_never_served(arch, version):
    failure = engines.capture_failure("vllm", arch, version)
    assert failure is not None
    on = f"vLLM {version}" if version else "vLLM"
    assert failure.reason.startswith(f"{on} cannot serve an EAGLE-3 draft over a {arch} target: {NO_INTERFACE}")
    assert failure.fix == EXPECTED_FIX[arch]
    plan = engines.serve_plan("vllm", version, {}, 8, arch)
    assert plan.layer_ids == [] and plan.unreachable == [2, 4, 5]
    assert any("Model does not support EAGLE3 interface" in source for source in plan.sources)
    problems = _refusals(arch, version)
    assert len(problems) == 1 and problems[0].startswith(f"method eagle3: {on} cannot serve an EAGLE-3 draft over a {arch}")
    assert problems[0].endswith(f"({EXPECTED_FIX[arch]})")


def test_the_list_refusal_no_longer_sends_a_glm_target_to_a_release_that_refuses_it_too():
    failure = engines.capture_failure("vllm", "Glm4MoeForCausalLM", "0.21.0")
    assert "no entry of it matches glm4_moe up to 0.21.0" in failure.reason
    assert failure.reason.endswith("; nor does any later release: that model class does not implement SupportsEagle3 "
                                   "(vllm/model_executor/models/interfaces.py; 0.18.0, 0.22.0, 0.33.0 read), which "
                                   "the server requires of the target at startup")
    assert failure.fix == EXPECTED_FIX["Glm4MoeForCausalLM"]
    assert not any("upgrade vLLM" in p for p in _refusals("Glm4MoeForCausalLM", "0.21.0"))


def test_classes_with_the_interface_and_sglang_are_unchanged():
    for arch in ("LlamaForCausalLM", "Qwen3MoeForCausalLM", "DeepseekV3ForCausalLM", "MiniMaxM2ForCausalLM",
                 "GptOssForCausalLM"):
        assert engines.capture_failure("vllm", arch, "0.26.0") is None, arch
        assert _refusals(arch, "0.26.0") == [], arch
    # SGLang's glm4_moe.py has set_eagle3_layers_to_capture: no such refusal there
    assert engines.capture_failure("sglang", "Glm4MoeForCausalLM", "0.5.23") is None
    assert engines.served_layer_ids("sglang", "0.5.23", {}, 8, "Glm4MoeForCausalLM") == [2, 4, 5]


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    pytest.importorskip("torch")
    pytest.importorskip("speculators")
    import torch
    from transformers import Glm4MoeConfig, Glm4MoeForCausalLM, LlamaConfig

    from tests.eagle3.speculators_world import save_perturbed_draft

    root = tmp_path_factory.mktemp("h63_vllm_eagle3_interface")
    torch.manual_seed(0)
    config = Glm4MoeConfig(vocab_size=256, hidden_size=32, intermediate_size=64, moe_intermediate_size=16,
                           num_hidden_layers=8, num_attention_heads=4, num_key_value_heads=2, head_dim=8,
                           n_routed_experts=4, n_shared_experts=1, num_experts_per_tok=2, first_k_dense_replace=1,
                           n_group=1, topk_group=1, max_position_embeddings=128)
    Glm4MoeForCausalLM(config).eval().save_pretrained(root / "target")
    layer = LlamaConfig(vocab_size=256, hidden_size=32, intermediate_size=64, num_attention_heads=4,
                        num_key_value_heads=2, head_dim=8, max_position_embeddings=128, num_hidden_layers=1)
    save_perturbed_draft(root / "draft", root / "target", layer, aux=[2, 4, 5], draft_vocab=128, vocab=256,
                         seed_name="glm4moe-[2, 4, 5]")
    return root


def test_the_layer_check_on_a_glm_target_on_vllm_0_26_is_sd201(world):
    assert json.loads((world / "target" / "config.json").read_text())["architectures"] == ["Glm4MoeForCausalLM"]
    from tests.diagnose.deepseek_world import layer_findings

    found, layers = layer_findings(world, "vllm", "0.26.0")
    assert [f.code for f in found] == ["SD201"], found
    assert layers["served"] == [] and layers["unreachable"] == [2, 4, 5]
    assert any(line.startswith(f"vLLM cannot serve an EAGLE-3 draft over a Glm4MoeForCausalLM target: {NO_INTERFACE}")
               for line in found[0].evidence), found[0].evidence
    fix = EXPECTED_FIX["Glm4MoeForCausalLM"]
    assert found[0].remediation == fix[0].upper() + fix[1:] + "."
    # the same draft on SGLang is served the layers it was trained on
    found, layers = layer_findings(world, "sglang", "0.5.23")
    assert found == [] and layers["served"] == [2, 4, 5]
