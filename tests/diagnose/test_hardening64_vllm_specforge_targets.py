"""Gemma-3 (4B and up), LongCat-Flash and Ling (BailingMoe/BailingMoeV2) targets: SpecForge trains
EAGLE-3 drafts for them (configs/gemma3-27b-eagle3.json, longcat-flash-eagle3.json,
ling-flash-2.0-eagle3.json) and SGLang serves them from the release its model file gained
set_eagle3_layers_to_capture, but vLLM never does: gemma3_mm.py's Gemma3ForConditionalGeneration,
longcat_flash.py's LongcatFlashForCausalLM and bailing_moe.py's BailingMoeForCausalLM (with
BailingMoeV2ForCausalLM a bare subclass) implement no SupportsEagle3 in vllm 0.18.0, 0.22.0 or
0.33.0 (PyPI sdists), so the runner raises RuntimeError("Model does not support EAGLE3 interface
...") at startup. The table planned their default layers as served on vLLM (configs step clean,
launch check silent), and on SGLang before those releases.

SGLang wheels read: longcat_flash.py gains the method in 0.5.6 (0.5.5 .. 0.5.5.post3 lack it),
bailing_moe.py in 0.5.9 (0.5.8.post1 lacks it), gemma3_mm.py in 0.5.12 (0.5.11 lacks it)."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.eagle3 import engines

VLLM = ("vllm serve org/target --speculative-config "
        "'{\"method\": \"eagle3\", \"model\": \"org/target-eagle3\", \"num_speculative_tokens\": 3}'")
NO_INTERFACE = ("that model class does not implement SupportsEagle3 (vllm/model_executor/models/interfaces.py), "
                "which every vLLM release read (0.18.0, 0.22.0, 0.33.0) requires of the target")
# (target architecture, SGLang model file, first SGLang release with the capture, the one before)
TARGETS = [("Gemma3ForConditionalGeneration", "gemma3_mm", "0.5.12", "0.5.11"),
           ("LongcatFlashForCausalLM", "longcat_flash", "0.5.6", "0.5.5.post3"),
           ("BailingMoeForCausalLM", "bailing_moe", "0.5.9", "0.5.8.post1"),
           ("BailingMoeV2ForCausalLM", "bailing_moe", "0.5.9", "0.5.8.post1")]


@pytest.mark.parametrize(("arch", "module", "since", "last"), TARGETS)
@pytest.mark.parametrize("version", ["0.21.0", "0.26.0", "0.33.0", None])
def test_vllm_never_serves_these_targets(arch, module, since, last, version):
    failure = engines.capture_failure("vllm", arch, version)
    on = f"vLLM {version}" if version else "vLLM"
    assert failure is not None and failure.reason.startswith(
        f"{on} cannot serve an EAGLE-3 draft over a {arch} target: {NO_INTERFACE}")
    assert engines.serve_plan("vllm", version, {}, 32, arch).layer_ids == []
    problems = [p for p in effective_spec(parse_launch_command(VLLM), target_architecture=arch,
                                          engine_version=version).problems if "SupportsEagle3" in p]
    assert len(problems) == 1 and problems[0].startswith(f"method eagle3: {on} cannot serve an EAGLE-3 draft over a {arch}")


@pytest.mark.parametrize(("arch", "module", "since", "last"), TARGETS)
def test_sglang_serves_them_from_the_release_that_gained_the_capture(arch, module, since, last):
    failure = engines.capture_failure("sglang", arch, last)
    assert failure is not None and failure.reason == (
        f"SGLang {last} cannot serve an EAGLE-3 draft over a {arch} target: its models/{module}.py has no "
        "set_eagle3_layers_to_capture, which model_executor/model_runner.py calls on the target for EAGLE3, so the "
        f"server stops at startup (AttributeError; added in {since}, {last} lacks it) and no layer ids are ever read")
    assert engines.serve_plan("sglang", last, {}, 32, arch).layer_ids == []
    for version in (since, "0.5.23", None):
        assert engines.capture_failure("sglang", arch, version) is None
        assert engines.serve_plan("sglang", version, {}, 32, arch).layer_ids == [2, 16, 29]
