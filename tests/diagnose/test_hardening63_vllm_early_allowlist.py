"""vLLM's EAGLE-3 target list before 0.14: the table read it from 0.14.0 on and took every entry of
that release (llama, qwen, minicpm, gpt_oss) as accepted since EAGLE-3 came to vLLM, so a Qwen3
target on vLLM 0.10.0, or a gpt-oss target on 0.10.1 / 0.10.2, was planned as served its layers
(layer check clean, launch check silent), while those releases refuse the method at startup.

PyPI sdists read (SpeculativeConfig._verify_args): vllm 0.8.5, 0.9.0, 0.9.2 and 0.10.0 (vllm/config.py)
raise ValueError("Eagle3 is only supported for Llama models. Got ...model_type=...") unless "llama"
is in the target's hf_text_config.model_type; 0.10.1, 0.10.1.1 and 0.10.2 (vllm/config/__init__.py)
take eagle3_target_supported = ["llama", "qwen"]; 0.11.0 and 0.13.0 (vllm/config/speculative.py)
["llama", "qwen", "minicpm", "gpt_oss"], the 0.14.0 list the table already had."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.eagle3 import engines

VLLM = ("vllm serve some/target --speculative-config "
        "'{\"method\": \"eagle3\", \"model\": \"org/target-eagle3\", \"num_speculative_tokens\": 3}'")

# (target architecture, its model type, release, first release that accepts it or None)
CASES = [("Qwen3ForCausalLM", "qwen3", "0.8.5", "0.10.1"), ("Qwen3ForCausalLM", "qwen3", "0.10.0", "0.10.1"),
         ("Qwen3ForCausalLM", "qwen3", "0.10.1", None), ("Qwen3MoeForCausalLM", "qwen3_moe", "0.9.2", "0.10.1"),
         ("Qwen2ForCausalLM", "qwen2", "0.10.1.1", None), ("GptOssForCausalLM", "gpt_oss", "0.10.1", "0.11.0"),
         ("GptOssForCausalLM", "gpt_oss", "0.10.2", "0.11.0"), ("GptOssForCausalLM", "gpt_oss", "0.11.0", None),
         ("MiniCPMForCausalLM", "minicpm", "0.10.2", "0.11.0"), ("MiniCPM3ForCausalLM", "minicpm3", "0.11.0", None),
         ("LlamaForCausalLM", "llama", "0.8.5", None), ("Qwen3ForCausalLM", "qwen3", None, None)]


@pytest.mark.parametrize(("arch", "model_type", "version", "first"), CASES)
def test_the_early_releases_refuse_the_targets_off_their_list(arch, model_type, version, first):
    failure = engines.capture_failure("vllm", arch, version)
    problems = [p for p in effective_spec(parse_launch_command(VLLM), target_architecture=arch,
                                          engine_version=version).problems if "refuses EAGLE-3" in p]
    served = engines.served_layer_ids("vllm", version, {}, 8, arch)
    if first is None:
        assert failure is None and problems == [] and served == [2, 4, 5]
        return
    assert engines.vllm_refused_target(version, arch) == (model_type, first)
    assert failure.reason.startswith(f"vLLM {version} refuses EAGLE-3 for a {arch} target at startup")
    assert f"{model_type} is on it from {first}" in failure.reason
    assert failure.fix == f"upgrade vLLM to {first} or later and re-run this check with that release"
    assert len(problems) == 1 and f"upgrade vLLM to {first} or later" in problems[0]
    assert served == []


def test_a_source_build_after_the_last_refusing_release_is_not_refused():
    # a 0.10.0.devN build may hold 0.10.1's list (engines.release_surely_before, vLLM "minor" reach)
    assert engines.vllm_refused_target("0.10.1.dev5+g0123abc", "GptOssForCausalLM") is None
    assert engines.vllm_refused_target("0.9.2.dev5+g0123abc", "Qwen3ForCausalLM") == ("qwen3", "0.10.1")
