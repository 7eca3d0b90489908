"""vLLM serves an EAGLE-3 draft over a Qwen3-Next target (Qwen3NextForCausalLM) only from the
release whose qwen3_next.py declares SupportsEagle3.

PyPI sdists read: vllm 0.18.0 and 0.22.0 model_executor/models/qwen3_next.py declare
Qwen3NextForCausalLM(nn.Module, HasInnerState, SupportsLoRA, SupportsPP, ...) with no
SupportsEagle3, and Qwen3NextModel collects no aux state; 0.33.0 adds SupportsEagle3 and
Qwen3NextModel(EagleModelMixin) captures as models/llama.py does. Without the interface
v1/worker/gpu_model_runner.py raises RuntimeError("Model does not support EAGLE3 interface but
aux_hidden_state_outputs was requested") at startup. The target passes the model-type list of
0.10.1 .. 0.21.0 ("qwen" is in qwen3_next), so the table planned the draft as served its layers on
those releases (configs step and launch check clean)."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.eagle3 import engines

ARCH = "Qwen3NextForCausalLM"
VLLM = ("vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --speculative-config "
        "'{\"method\": \"eagle3\", \"model\": \"org/Qwen3-Next-eagle3\", \"num_speculative_tokens\": 3}'")
# hardening65: every sdist between read; 0.23.0 is the last without it, 0.24.0 the first with it
FIX = "upgrade vLLM to 0.24.0 or later and re-run this check with that release"


def _refusals(version: str | None) -> list[str]:
    return [p for p in effective_spec(parse_launch_command(VLLM), target_architecture=ARCH,
                                      engine_version=version).problems if "SupportsEagle3" in p]


@pytest.mark.parametrize("version", ["0.22.0", "0.18.0", "0.21.0", "0.10.2"])
def test_a_release_without_the_interface_on_qwen3_next_serves_nothing(version):
    failure = engines.capture_failure("vllm", ARCH, version)
    assert failure is not None
    assert failure.reason == (
        f"vLLM {version} cannot serve an EAGLE-3 draft over a {ARCH} target: its model_executor/models/qwen3_next.py "
        "class does not implement SupportsEagle3 there (without it up to 0.23.0, with it from 0.24.0), which the "
        "server requires of the target: RuntimeError \"Model does not support EAGLE3 interface ...\" at startup "
        "(v1/worker/gpu_model_runner.py), so no layer ids are ever read")
    assert failure.fix == FIX
    plan = engines.serve_plan("vllm", version, {}, 48, ARCH)
    assert plan.layer_ids == [] and plan.unreachable == [2, 24, 45]
    assert any("qwen3_next.py: no SupportsEagle3 up to 0.23.0, present from 0.24.0" in s for s in plan.sources)
    assert _refusals(version) == [f"method eagle3: {failure.reason} ({FIX})"]


@pytest.mark.parametrize("version", ["0.33.0", "0.34.0", None, "0.24.0", "0.27.0",
                                     # a source-tree build that may reach 0.24.0: not refused on a guess
                                     "0.23.0.dev4+g0123abc"])
def test_releases_with_the_interface_or_not_read_serve_the_layers(version):
    assert engines.capture_failure("vllm", ARCH, version) is None
    assert engines.serve_plan("vllm", version, {}, 48, ARCH).layer_ids == [2, 24, 45]
    assert _refusals(version) == []


def test_other_targets_and_sglang_are_unchanged():
    # the Qwen3 family around it keeps its reading, and SGLang's own boundary (0.5.9) is its own
    for arch in ("Qwen3ForCausalLM", "Qwen3MoeForCausalLM"):
        assert engines.capture_failure("vllm", arch, "0.22.0") is None
        assert _refusals_for(arch, "0.22.0") == []
    assert engines.capture_failure("sglang", ARCH, "0.22.0") is None


def _refusals_for(arch: str, version: str) -> list[str]:
    return [p for p in effective_spec(parse_launch_command(VLLM), target_architecture=arch,
                                      engine_version=version).problems if "EAGLE" in p and "serve" in p]
