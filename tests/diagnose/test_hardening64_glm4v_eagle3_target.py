"""A GLM-4.1V / GLM-4.5V target (Glm4vForConditionalGeneration, Glm4vMoeForConditionalGeneration)
serves no EAGLE-3 draft on either engine.

vLLM: model_executor/models/glm4_1v.py declares Glm4vForConditionalGeneration(nn.Module,
SupportsMultiModal, SupportsLoRA, SupportsPP, SupportsMRoPE) and Glm4vMoeForConditionalGeneration
as its subclass, with no SupportsEagle3, in 0.18.0, 0.22.0 and 0.33.0 (PyPI sdists): the runner
raises RuntimeError("Model does not support EAGLE3 interface ...") at startup. Its model type
(glm4v_moe) matches no entry of the 0.8.5 .. 0.21.0 list, which the table could not type, so every
release planned the default layers as served. SGLang: models/glm4v.py and glm4v_moe.py have no
set_eagle3_layers_to_capture in any wheel read (0.5.4.post2 .. 0.5.23).

The way out SGLang gives for a class it never captures now names what vLLM does with it: a
Mixtral target is refused by both, a MiniCPM one is served by vLLM."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.eagle3 import engines

VLLM = ("vllm serve zai-org/GLM-4.5V --speculative-config "
        "'{\"method\": \"eagle3\", \"model\": \"org/GLM-4.5V-eagle3\", \"num_speculative_tokens\": 3}'")
NO_INTERFACE = ("that model class does not implement SupportsEagle3 (vllm/model_executor/models/interfaces.py), "
                "which every vLLM release read (0.18.0, 0.22.0, 0.33.0) requires of the target")


@pytest.mark.parametrize("arch", ["Glm4vForConditionalGeneration", "Glm4vMoeForConditionalGeneration"])
@pytest.mark.parametrize("version", ["0.21.0", "0.22.0", "0.33.0", None])
def test_vllm_refuses_a_glm4v_target_on_every_release(arch, version):
    failure = engines.capture_failure("vllm", arch, version)
    on = f"vLLM {version}" if version else "vLLM"
    assert failure is not None and failure.reason.startswith(
        f"{on} cannot serve an EAGLE-3 draft over a {arch} target: {NO_INTERFACE}")
    plan = engines.serve_plan("vllm", version, {}, 46, arch)
    assert plan.layer_ids == [] and plan.unreachable == [2, 23, 43]
    problems = [p for p in effective_spec(parse_launch_command(VLLM), target_architecture=arch,
                                          engine_version=version).problems if "SupportsEagle3" in p]
    assert len(problems) == 1 and problems[0].startswith(f"method eagle3: {on} cannot serve an EAGLE-3 draft over a {arch}")


@pytest.mark.parametrize("arch", ["Glm4vForConditionalGeneration", "Glm4vMoeForConditionalGeneration"])
def test_sglang_refuses_it_too_and_says_neither_engine_serves_it(arch):
    failure = engines.capture_failure("sglang", arch, "0.5.23")
    assert failure is not None and "has no set_eagle3_layers_to_capture in any release read" in failure.reason
    assert failure.fix == ("serve the target without EAGLE-3: vLLM's model class for it does not implement "
                           "SupportsEagle3 either (0.18.0, 0.22.0, 0.33.0 read), so neither engine serves this draft")
    assert engines.serve_plan("sglang", "0.5.23", {}, 46, arch).layer_ids == []


def test_sglangs_way_out_follows_what_vllm_does_with_the_class():
    assert engines.capture_failure("sglang", "MixtralForCausalLM", "0.5.23").fix.startswith(
        "serve the target without EAGLE-3: vLLM's model class for it does not implement SupportsEagle3 either")
    # vLLM serves MiniCPM (minicpm.py implements SupportsEagle3; "minicpm" on the list from 0.11.0)
    assert engines.capture_failure("vllm", "MiniCPMForCausalLM", "0.33.0") is None
    assert engines.capture_failure("sglang", "MiniCPMForCausalLM", "0.5.23").fix.startswith(
        "serve the draft with vLLM, whose model class for this target implements SupportsEagle3")
