"""The first vLLM release that serves an EAGLE-3 draft over a Qwen3-Next or a Qwen3-Omni target.

Every PyPI sdist from 0.22.0 to 0.33.0 read (vllm/model_executor/models/):
- qwen3_next.py: Qwen3NextForCausalLM declares no SupportsEagle3 in 0.22.0, 0.22.1 and 0.23.0
  (Qwen3NextModel already mixes in EagleModelMixin), declares it in 0.24.0 and every release after.
- qwen3_omni_moe_thinker.py: Qwen3OmniMoeThinkerForConditionalGeneration (registry
  "Qwen3OmniMoeForConditionalGeneration") lacks it up to 0.28.0 and declares it from 0.29.0.
Without the interface v1/worker/gpu_model_runner.py raises RuntimeError("Model does not support
EAGLE3 interface but aux_hidden_state_outputs was requested") at startup (0.23.0: line 5268).

The table knew only 0.22.0 (without) and 0.33.0 (with), so it planned 0.22.1 and 0.23.0 (Qwen3-Next)
and 0.23.0 .. 0.28.0 (Qwen3-Omni) as served, and told a 0.22.0 user to upgrade to 0.33.0 where
0.24.0 / 0.29.0 serve the draft."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.eagle3 import engines

NEXT = "Qwen3NextForCausalLM"
OMNI = "Qwen3OmniMoeForConditionalGeneration"
LAUNCH = ("vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --speculative-config "
          "'{\"method\": \"eagle3\", \"model\": \"org/eagle3\", \"num_speculative_tokens\": 3}'")


def _refusals(arch: str, version: str | None) -> list[str]:
    return [p for p in effective_spec(parse_launch_command(LAUNCH), target_architecture=arch,
                                      engine_version=version).problems if "SupportsEagle3" in p]


@pytest.mark.parametrize(("arch", "module", "last", "first", "version"), [
    (NEXT, "qwen3_next", "0.23.0", "0.24.0", "0.22.1"),
    (NEXT, "qwen3_next", "0.23.0", "0.24.0", "0.23.0"),
    (NEXT, "qwen3_next", "0.23.0", "0.24.0", "0.22.0"),
    (OMNI, "qwen3_omni_moe_thinker", "0.28.0", "0.29.0", "0.25.0"),
    (OMNI, "qwen3_omni_moe_thinker", "0.28.0", "0.29.0", "0.28.0"),
    (OMNI, "qwen3_omni_moe_thinker", "0.28.0", "0.29.0", "0.27.1"),
])
def test_a_release_before_the_interface_serves_nothing_and_names_the_first_with_it(arch, module, last, first,
                                                                                    version):
    failure = engines.capture_failure("vllm", arch, version)
    assert failure is not None
    assert failure.reason == (
        f"vLLM {version} cannot serve an EAGLE-3 draft over a {arch} target: its model_executor/models/{module}.py "
        f"class does not implement SupportsEagle3 there (without it up to {last}, with it from {first}), which the "
        "server requires of the target: RuntimeError \"Model does not support EAGLE3 interface ...\" at startup "
        "(v1/worker/gpu_model_runner.py), so no layer ids are ever read")
    assert failure.fix == f"upgrade vLLM to {first} or later and re-run this check with that release"
    plan = engines.serve_plan("vllm", version, {}, 48, arch)
    assert plan.layer_ids == [] and plan.unreachable == [2, 24, 45]
    assert any(f"{module}.py: no SupportsEagle3 up to {last}, present from {first}" in s for s in plan.sources)
    assert _refusals(arch, version) == [f"method eagle3: {failure.reason} ({failure.fix})"]


@pytest.mark.parametrize(("arch", "version"), [
    (NEXT, "0.24.0"), (NEXT, "0.24.0rc1"), (NEXT, "0.27.0"), (NEXT, "0.23.1.dev3+g0123abc"),
    (OMNI, "0.29.0"), (OMNI, "0.32.0"), (OMNI, "0.28.1.dev7+gabcdef0"),
])
def test_the_first_release_with_the_interface_and_later_serve_the_layers(arch, version):
    assert engines.capture_failure("vllm", arch, version) is None
    assert engines.serve_plan("vllm", version, {}, 48, arch).layer_ids == [2, 24, 45]
    assert _refusals(arch, version) == []
