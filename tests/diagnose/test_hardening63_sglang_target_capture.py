"""SGLang serves an EAGLE-3 draft only over a target class that defines
set_eagle3_layers_to_capture, which model_executor/model_runner.py calls on the target whenever the
algorithm is EAGLE3; before its model file gained it the server stops at startup with an
AttributeError, yet the layer check planned the default layers as served (clean).

PyPI wheels read, each class a plain nn.Module: models/qwen3.py and qwen3_moe.py gain it in 0.4.9
(0.4.8.post1 lacks it), qwen2.py and qwen2_moe.py in 0.5.2 (0.5.1.post3 lacks it), glm4_moe.py in
0.5.5 (0.5.4.post3 lacks it), minimax_m2.py in 0.5.5.post1 (0.5.5 lacks it); deepseek_v2.py in
0.5.4.post2 (test_hardening63_sglang_deepseek_capture). A Qwen3-8B target is what
speculators' and SpecForge's own EAGLE-3 examples train on."""

from __future__ import annotations

import pytest

from spec_debug.eagle3 import engines

# (target architecture, model file, release refused or None, first release with the method, last without)
CASES = [("Qwen3ForCausalLM", "qwen3", "0.4.8.post1", "0.4.9", "0.4.8.post1"),
         ("Qwen3ForCausalLM", "qwen3", "0.4.6", "0.4.9", "0.4.8.post1"),
         ("Qwen3MoeForCausalLM", "qwen3_moe", "0.4.8", "0.4.9", "0.4.8.post1"),
         ("Qwen2ForCausalLM", "qwen2", "0.5.1.post3", "0.5.2", "0.5.1.post3"),
         ("Qwen2MoeForCausalLM", "qwen2_moe", "0.4.10", "0.5.2", "0.5.1.post3"),
         ("Glm4MoeForCausalLM", "glm4_moe", "0.5.4.post3", "0.5.5", "0.5.4.post3"),
         ("MiniMaxM2ForCausalLM", "minimax_m2", "0.5.5", "0.5.5.post1", "0.5.5")]
SERVED = [("Qwen3ForCausalLM", "0.4.9"), ("Qwen3MoeForCausalLM", "0.5.1"), ("Qwen2ForCausalLM", "0.5.2"),
          ("Qwen2MoeForCausalLM", "0.5.3"), ("Glm4MoeForCausalLM", "0.5.5"), ("MiniMaxM2ForCausalLM", "0.5.5.post1"),
          ("Qwen3ForCausalLM", None), ("LlamaForCausalLM", "0.4.6"),
          # a source build past the last release without it may hold it (SGLang's patch reach)
          ("Qwen2ForCausalLM", "0.5.1.post3.dev4+g0123abc")]


@pytest.mark.parametrize(("arch", "module", "version", "since", "last"), CASES)
def test_a_release_before_the_model_file_gained_the_capture_serves_nothing(arch, module, version, since, last):
    failure = engines.capture_failure("sglang", arch, version)
    assert failure is not None
    assert failure.reason == (
        f"SGLang {version} cannot serve an EAGLE-3 draft over a {arch} target: its models/{module}.py has no "
        "set_eagle3_layers_to_capture, which model_executor/model_runner.py calls on the target for EAGLE3, so the "
        f"server stops at startup (AttributeError; added in {since}, {last} lacks it) and no layer ids are ever read")
    assert failure.fix == f"upgrade SGLang to {since} or later and re-run this check with that release"
    plan = engines.serve_plan("sglang", version, {}, 36, arch)
    assert plan.layer_ids == [] and plan.unreachable == [2, 18, 33]
    assert f"defines from {since} only ({last} lacks it: AttributeError)" in plan.sources[-2]


@pytest.mark.parametrize(("arch", "version"), SERVED)
def test_from_that_release_the_default_layers_are_served(arch, version):
    assert engines.capture_failure("sglang", arch, version) is None
    assert engines.serve_plan("sglang", version, {}, 36, arch).layer_ids == [2, 18, 33]
