"""LFM2 / LFM3 (Liquid) and ZAYA (Zyphra) targets under an EAGLE-3 draft on vLLM.

vLLM 0.34.0 adds lfm3.py's Lfm3ForCausalLM, lfm3_vl.py's Lfm3VlForConditionalGeneration and zaya.py's
ZayaForCausalLM, hybrid (conv/SSM + attention) models whose classes implement no SupportsEagle3
(HasInnerState, IsHybrid, ... only; PyPI wheel 0.34.0), as LFM2's lfm2.py / lfm2_moe.py / lfm2_vl.py
classes do in every release read (0.18.0, 0.22.0, 0.33.0, 0.34.0). The runner raises RuntimeError("Model
does not support EAGLE3 interface ...") at startup; the table planned them by the generic rule (layer
ids served, launch check silent). 0.34.0's RicursiveForCausalLM is SupportsEagle3 and keeps that rule.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.eagle3 import engines

VLLM = ("vllm serve org/target --speculative-config "
        "'{\"method\": \"eagle3\", \"model\": \"org/target-eagle3\", \"num_speculative_tokens\": 3}'")
NO_INTERFACE = ("that model class does not implement SupportsEagle3 (vllm/model_executor/models/interfaces.py), "
                "which every vLLM release read (0.18.0, 0.22.0, 0.33.0) requires of the target")


@pytest.mark.parametrize("arch", ["Lfm3ForCausalLM", "Lfm3VlForConditionalGeneration", "ZayaForCausalLM",
                                  "Lfm2ForCausalLM", "Lfm2MoeForCausalLM", "Lfm2VlForConditionalGeneration"])
@pytest.mark.parametrize("version", ["0.34.0", None])
def test_vllm_does_not_serve_eagle3_over_these_hybrid_targets(arch, version):
    failure = engines.capture_failure("vllm", arch, version)
    on = f"vLLM {version}" if version else "vLLM"
    assert failure is not None and failure.reason.startswith(
        f"{on} cannot serve an EAGLE-3 draft over a {arch} target: {NO_INTERFACE}")
    assert engines.serve_plan("vllm", version, {}, 32, arch).layer_ids == []
    problems = [p for p in effective_spec(parse_launch_command(VLLM), target_architecture=arch,
                                          engine_version=version).problems if "SupportsEagle3" in p]
    assert len(problems) == 1 and problems[0].startswith(f"method eagle3: {on} cannot serve an EAGLE-3 draft over a {arch}")


def test_ricursive_keeps_the_generic_capture():
    assert engines.capture_failure("vllm", "RicursiveForCausalLM", "0.34.0") is None
    assert engines.serve_plan("vllm", "0.34.0", {}, 32, "RicursiveForCausalLM").layer_ids == \
        engines.serve_plan("vllm", "0.34.0", {}, 32, "LlamaForCausalLM").layer_ids != []
