"""The layer check and the launch check told a user on SGLang 0.4.4.post1 opposite stories.

SGLang's EAGLE-3 (sgl-project/sglang#4247) was merged after the 0.4.4.post1 tag and shipped by
#4669 ("bump v0.4.4.post2 ... for EAGLE 3 #4247"). The launch check knew it
(launch._SGLANG_EAGLE3_SINCE = "0.4.4.post2": argparse refuses --speculative-algorithm EAGLE3),
but the engine table's first-EAGLE-3 release was "0.4.4", compared without the .postN, so on
0.4.4 and 0.4.4.post1 the configs step read the draft as served its default layers (a clean
layer check) while the launch check said the server never starts. The two constants are now
one (engines.SGLANG_EAGLE3, engines.VLLM_EAGLE3, which the launch check imports) and both checks
compare with one function (engines.release_surely_before: .postN kept, a source-tree build read
as the release it may reach), so every release gets one story.

World: a Llama verifier and a draft over it saved by speculators 0.9.0
(tests/eagle3/speculators_world.py), trained on the default layers of its 8-layer target."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.diagnose import launch
from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.eagle3 import engines

SGLANG = ("python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B --speculative-num-steps 5 "
          "--speculative-eagle-topk 8 --speculative-num-draft-tokens 32")
VLLM = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
        "'{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", \"num_speculative_tokens\": 3}'")

# (engine, release, has EAGLE-3)
RELEASES = [("sglang", "0.4.3.post4", False), ("sglang", "0.4.4", False), ("sglang", "0.4.4.post1", False),
            ("sglang", "0.4.4.post2", True), ("sglang", "0.4.4.post3", True), ("sglang", "0.4.5", True),
            ("sglang", "0.4.4.post1.dev3", True),  # a source tree after the post1 tag may hold it
            ("vllm", "0.8.4", False), ("vllm", "0.8.4.post1", False), ("vllm", "0.8.5", True),
            ("vllm", "0.8.5rc1", True), ("vllm", "0.8.4.dev7+g1a2b3c4", True)]


def test_one_constant_per_engine():
    assert engines.SGLANG_EAGLE3 == "0.4.4.post2" and engines.VLLM_EAGLE3 == "0.8.5"
    assert launch._SGLANG_EAGLE3_SINCE is engines.SGLANG_EAGLE3
    assert launch._VLLM_EAGLE3_SINCE is engines.VLLM_EAGLE3


@pytest.mark.parametrize(("engine", "version", "has_eagle3"), RELEASES)
def test_the_table_and_the_launch_check_agree(engine, version, has_eagle3):
    failure = engines.eagle3_release_failure(engine, version)
    refused = [p for p in effective_spec(parse_launch_command(SGLANG if engine == "sglang" else VLLM),
                                         engine_version=version).problems if "has no EAGLE-3" in p]
    assert (failure is None) is has_eagle3
    assert (not refused) is has_eagle3
    if not has_eagle3:
        since = engines.SGLANG_EAGLE3 if engine == "sglang" else engines.VLLM_EAGLE3
        assert f"has no EAGLE-3 at all (added in {since}," in failure.reason
        assert f"has no EAGLE-3 (added in {since})" in refused[0]
        assert engines.served_layer_ids(engine, version, {}, 8, "LlamaForCausalLM") == []
    else:
        assert engines.served_layer_ids(engine, version, {}, 8, "LlamaForCausalLM") == [2, 4, 5]


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    pytest.importorskip("torch")
    pytest.importorskip("speculators")
    from tests.eagle3.speculators_world import save_verifier_and_draft
    root = tmp_path_factory.mktemp("one_eagle3_release")
    save_verifier_and_draft(root)
    return root


def test_the_layer_check_on_0_4_4_post1_is_sd201_with_the_launch_checks_release(world):
    from tests.diagnose.test_hardening59_fix_reads_back import _layers, _speculators
    from tests.eagle3.speculators_world import AUX

    found, layers = _layers(world, _speculators(world, AUX), "sglang", "0.4.4.post1")
    assert found == ["SD201"] and layers["served"] == [] and layers["unreachable"] == AUX
    assert ("sgl-project/sglang#4247: the first SGLang release with EAGLE-3 is 0.4.4.post2"
            in engines.serve_plan("sglang", "0.4.4.post1", {}, 8, "LlamaForCausalLM").sources)
    found, layers = _layers(world, _speculators(world, AUX), "sglang", "0.4.4.post2")
    assert found == [] and layers["served"] == AUX
