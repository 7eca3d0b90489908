"""vLLM refuses EAGLE-3 over a target class without SupportsEagle3; its suggested fix named
"an engine whose model captures (SGLang ...)" whatever the class, so a Mixtral, Gemma-2 or
ERNIE-MoE user was sent to SGLang, whose model files for them have no
set_eagle3_layers_to_capture in any release read (engines.SGLANG_NO_EAGLE3_CAPTURE), and a GLM-4.5
user was not told from which SGLang release it works (engines.SGLANG_CAPTURE_SINCE)."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.eagle3 import engines

VLLM = ("vllm serve mistralai/Mixtral-8x7B-Instruct-v0.1 --speculative-config "
        "'{\"method\": \"eagle3\", \"model\": \"org/mixtral-eagle3\", \"num_speculative_tokens\": 3}'")


@pytest.mark.parametrize("arch,module", [("MixtralForCausalLM", "mixtral"), ("Gemma2ForCausalLM", "gemma2"),
                                         ("Ernie4_5_MoeForCausalLM", "ernie4")])
def test_a_class_neither_engine_serves_is_not_sent_to_sglang(arch, module):
    fix = engines.capture_failure("vllm", arch, "0.33.0").fix
    assert "SGLang: a set_eagle3_layers_to_capture" not in fix
    assert fix.startswith("serve the target without EAGLE-3: ")
    assert f"models/{module}.py" in fix and fix.endswith("so neither engine serves this draft")
    # SGLang says the same of the class from its side
    assert engines.capture_failure("sglang", arch, "0.5.23").fix.endswith("neither engine serves this draft")
    problems = [p for p in effective_spec(parse_launch_command(VLLM), target_architecture=arch,
                                          engine_version="0.33.0").problems if "cannot serve" in p]
    assert len(problems) == 1 and problems[0].endswith(f"({fix})")


def test_a_class_sglang_serves_from_a_release_names_it():
    fix = engines.capture_failure("vllm", "Glm4MoeForCausalLM", None).fix
    assert fix.startswith("serve the draft with SGLang 0.5.5 or later, whose models/glm4_moe.py captures")
    # and that release is one SGLang serves it at, the one before not
    assert engines.capture_failure("sglang", "Glm4MoeForCausalLM", "0.5.5") is None
    assert engines.capture_failure("sglang", "Glm4MoeForCausalLM", "0.5.4.post3") is not None


def test_a_class_in_neither_table_keeps_the_generic_fix():
    assert engines.capture_failure("vllm", "Glm4MoeLiteForCausalLM", "0.33.0").fix == engines.VLLM_NO_INTERFACE_FIX
