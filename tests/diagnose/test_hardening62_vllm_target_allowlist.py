"""vLLM up to 0.21.0 refuses EAGLE-3 for a target whose model type is off a hard-coded list; the
layer and launch checks read such a target as served its layers.

SpeculativeConfig._verify_args (vllm/config/speculative.py) raises "Eagle3 is only supported for
[...] models" (0.17.0 on: "eagle3 is only supported for [...]") unless the target's
hf_text_config.model_type contains an entry of its list (vllm-project/vllm#31254 asks for
kimi_k2). PyPI wheels read: 0.17.1 lists no deepseek/kimi entry, 0.18.0 adds deepseek_v2,
deepseek_v3, kimi_k2, kimi_k25; 0.19.0 lacks minimax_m2, 0.19.1 has it; 0.21.0 still has the list
and no glm entry; 0.22.0 has no list (vllm-project/vllm#42536 "Remove verifier model type check in
speculative config"). So a DeepSeek-V3 target on vLLM 0.17.1 never starts with an EAGLE-3 draft,
yet the configs step read the draft as served its default layers (clean), and a GLM-4.5 target
on 0.21.0 got layer advice for a server that refuses the method. Now the engine table knows the
list (engines.vllm_refused_target): the layer check says SD201 (vLLM refuses EAGLE-3 for that
target, upgrade to the first release that accepts it) and the launch check refuses the method.

World: a real transformers DeepseekV3ForCausalLM target (8 layers) and an EAGLE-3 draft over it
saved by speculators 0.9.0 (tests/diagnose/deepseek_world.py), trained on the default [2, 4, 5]."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.eagle3 import engines

VLLM = ("vllm serve deepseek-ai/DeepSeek-V3 --speculative-config "
        "'{\"method\": \"eagle3\", \"model\": \"org/DeepSeek-V3-eagle3\", \"num_speculative_tokens\": 3}'")

# (target architecture, release, refused, first release that accepts it)
CASES = [("DeepseekV3ForCausalLM", "0.8.5", True, "0.18.0"), ("DeepseekV3ForCausalLM", "0.17.1", True, "0.18.0"),
         ("DeepseekV3ForCausalLM", "0.18.0", False, None), ("DeepseekV32ForCausalLM", "0.17.0", True, "0.18.0"),
         ("DeepseekV32ForCausalLM", "0.18.1", False, None), ("DeepseekV2ForCausalLM", "0.14.0", True, "0.18.0"),
         ("MiniMaxM2ForCausalLM", "0.19.0", True, "0.19.1"), ("MiniMaxM2ForCausalLM", "0.19.1", False, None),
         ("Phi3ForCausalLM", "0.21.0", True, "0.22.0"), ("GlmMoeDsaForCausalLM", "0.20.2", True, "0.22.0"),
         ("MistralForCausalLM", "0.21.0", True, "0.22.0"), ("Phi3ForCausalLM", "0.22.0", False, None),
         ("Phi3ForCausalLM", None, False, None), ("DeepseekV3ForCausalLM", "0.17.1.dev4+g1a2b3c4", False, None),
         ("LlamaForCausalLM", "0.9.2", False, None), ("Qwen3MoeForCausalLM", "0.11.0", False, None),
         ("GptOssForCausalLM", "0.11.0", False, None)]


@pytest.mark.parametrize(("arch", "version", "refused", "first"), CASES)
def test_the_table_and_the_launch_check_know_the_allowlist(arch, version, refused, first):
    failure = engines.capture_failure("vllm", arch, version)
    problems = [p for p in effective_spec(parse_launch_command(VLLM), target_architecture=arch,
                                          engine_version=version).problems if "refuses EAGLE-3" in p]
    served = engines.served_layer_ids("vllm", version, {}, 8, arch)
    if not refused:
        assert failure is None and problems == [] and served == [2, 4, 5]
        return
    assert failure.reason.startswith(f"vLLM {version} refuses EAGLE-3 for a {arch} target at startup")
    assert failure.fix == f"upgrade vLLM to {first} or later and re-run this check with that release"
    assert len(problems) == 1 and problems[0].startswith(f"method eagle3: vLLM {version} refuses EAGLE-3 for a {arch}")
    assert f"upgrade vLLM to {first} or later" in problems[0]
    assert served == []
    # SGLang has no such list: the same target and label there are not refused by it
    assert engines.capture_failure("sglang", arch, version) is None


def test_the_glm_refusal_names_the_release_that_dropped_the_list():
    failure = engines.capture_failure("vllm", "Glm4MoeForCausalLM", "0.21.0")
    assert "no entry of it matches glm4_moe up to 0.21.0; 0.22.0 dropped the list, vllm-project/vllm#42536" in failure.reason
    failure = engines.capture_failure("vllm", "DeepseekV3ForCausalLM", "0.17.1")
    assert "deepseek_v3 is on it from 0.18.0" in failure.reason


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    pytest.importorskip("torch")
    pytest.importorskip("speculators")
    from tests.diagnose.deepseek_world import save_deepseek_world
    return save_deepseek_world(tmp_path_factory.mktemp("vllm_target_allowlist"), [2, 4, 5])


def _layer_findings(world: Path, version: str):
    from spec_debug.diagnose.steps import configs_step
    from spec_debug.probes.registry import ProbeContext
    from tests.diagnose.deepseek_world import configs_facts

    facts = configs_facts(world, json.loads((world / "draft" / "config.json").read_text()))
    ctx = ProbeContext(step_id="s", host="h", args={}, facts=facts,
                       host_facts={"engine": {"name": "vllm", "version": version}, **facts}, vars={})
    return [f for f in configs_step.check(ctx) if f.code in ("SD201", "SD202", "SD203")], facts["configs"]["layers"]


def test_the_layer_check_on_a_deepseek_target_before_0_18_is_sd201(world):
    found, layers = _layer_findings(world, "0.17.1")
    assert [f.code for f in found] == ["SD201"], found
    assert layers["served"] == [] and layers["unreachable"] == [2, 4, 5]
    assert any(line.startswith("vLLM 0.17.1 refuses EAGLE-3 for a DeepseekV3ForCausalLM target at startup")
               for line in found[0].evidence)
    assert found[0].remediation == "Upgrade vLLM to 0.18.0 or later and re-run this check with that release."

    found, layers = _layer_findings(world, "0.18.0")
    assert found == [] and layers["served"] == [2, 4, 5]
