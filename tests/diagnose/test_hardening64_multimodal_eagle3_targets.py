"""Mistral-Small-3.1/3.2 (Mistral3ForConditionalGeneration), LLaVA (LlavaForConditionalGeneration)
and, on vLLM, Qwen3-Omni (Qwen3OmniMoeForConditionalGeneration) targets.

SGLang wheels 0.4.9, 0.5.4.post2 .. 0.5.23: llava.py's LlavaForConditionalGeneration (over
LlavaBaseForCausalLM(nn.Module)) and mistral.py's Mistral3ForConditionalGeneration (over it) define
no set_eagle3_layers_to_capture, so EAGLE3 stops the server at startup; the table planned their
default layers as served. vLLM serves both (SupportsEagle3 in 0.18.0, 0.22.0, 0.33.0), and
Qwen3-Omni only from a release after 0.22.0:
qwen3_omni_moe_thinker.py's Qwen3OmniMoeThinkerForConditionalGeneration lacks SupportsEagle3 in
0.18.0 and 0.22.0 and has it in 0.33.0 (the RuntimeError "Model does not support EAGLE3 interface"
at startup before). SpecForge ships configs/qwen3-omni-eagle3.json and llava_eagle3.json."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.eagle3 import engines

VLLM_DOES = ("serve the draft with vLLM, whose model class for this target implements SupportsEagle3 (0.33.0 read), "
             "or serve the target without EAGLE-3")
OMNI = "Qwen3OmniMoeForConditionalGeneration"
VLLM = ("vllm serve Qwen/Qwen3-Omni-30B-A3B-Instruct --speculative-config "
        "'{\"method\": \"eagle3\", \"model\": \"org/Qwen3-Omni-eagle3\", \"num_speculative_tokens\": 3}'")


@pytest.mark.parametrize(("arch", "module"), [("Mistral3ForConditionalGeneration", "mistral"),
                                              ("LlavaForConditionalGeneration", "llava")])
@pytest.mark.parametrize("version", ["0.5.23", "0.5.9", None])
def test_sglang_never_serves_them_and_points_to_vllm(arch, module, version):
    failure = engines.capture_failure("sglang", arch, version)
    assert failure is not None and failure.reason.endswith(
        f"target: its models/{module}.py has no set_eagle3_layers_to_capture in any release read (0.4.9 .. 0.5.23), "
        "which SGLang calls on the target for EAGLE3, so the server stops at startup (AttributeError; 0.5.23: "
        "ValueError \"... does not implement set_eagle3_layers_to_capture\") and no layer ids are ever read")
    assert failure.fix == VLLM_DOES
    assert engines.serve_plan("sglang", version, {}, 40, arch).layer_ids == []


def test_vllm_serves_mistral3_and_llava():
    for arch in ("Mistral3ForConditionalGeneration", "LlavaForConditionalGeneration"):
        for version in ("0.22.0", "0.33.0", None):
            assert engines.capture_failure("vllm", arch, version) is None
            assert engines.serve_plan("vllm", version, {}, 40, arch).layer_ids == [2, 20, 37]


@pytest.mark.parametrize("version", ["0.18.0", "0.22.0"])
def test_vllm_refuses_qwen3_omni_up_to_the_last_release_read_without_the_interface(version):
    failure = engines.capture_failure("vllm", OMNI, version)
    assert failure is not None and failure.reason.startswith(
        f"vLLM {version} cannot serve an EAGLE-3 draft over a {OMNI} target: its "
        "model_executor/models/qwen3_omni_moe_thinker.py class does not implement SupportsEagle3 there")
    assert engines.serve_plan("vllm", version, {}, 48, OMNI).layer_ids == []
    problems = [p for p in effective_spec(parse_launch_command(VLLM), target_architecture=OMNI,
                                          engine_version=version).problems if "SupportsEagle3" in p]
    assert problems == [f"method eagle3: {failure.reason} ({failure.fix})"]


# hardening65: every sdist between read; 0.29.0 is the first with the interface (0.28.0 lacks it)
@pytest.mark.parametrize("version", ["0.33.0", "0.29.0", None])
def test_vllm_serves_qwen3_omni_from_0_29(version):
    assert engines.capture_failure("vllm", OMNI, version) is None
    assert engines.serve_plan("vllm", version, {}, 48, OMNI).layer_ids == [2, 24, 45]
