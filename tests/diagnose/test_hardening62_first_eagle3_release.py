"""The engines table said a release without EAGLE-3 serves a draft its default layers.

vLLM gained EAGLE-3 in 0.8.5 (vllm-project/vllm#16937, llama_eagle3.py; 0.8.4's
SpeculativeConfig knows no method "eagle3" and fails its constructor) and SGLang in 0.4.4.post2
(sgl-project/sglang#4247). The table's oldest rows (since None) covered every older release
too, so the configs step on a host running vLLM 0.8.4 read a draft trained on the default
layers as served right and said nothing: a clean layer check for an engine that cannot run the
draft at all. Now engines.eagle3_release_failure knows each engine's first EAGLE-3 release
(engines.VLLM_EAGLE3, engines.SGLANG_EAGLE3), serve_plan captures nothing before it, and the
layer check says SD201 with the reason and the upgrade.

World: a Llama verifier and a draft over it saved by speculators 0.9.0
(tests/eagle3/speculators_world.py), trained on [2, 4, 5] = the default [2, N//2, N-3] of its
8-layer target."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.eagle3 import engines  # noqa: E402
from tests.diagnose.test_hardening59_fix_reads_back import _layers, _speculators  # noqa: E402
from tests.eagle3.speculators_world import AUX, NL, save_verifier_and_draft  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("first_eagle3_release")
    save_verifier_and_draft(root)
    return root


def test_the_world_is_trained_on_the_default_layers():
    assert AUX == engines.default_layer_ids(NL)


@pytest.mark.parametrize(("engine", "old", "first", "pr"), [
    ("vllm", "0.8.4", "0.8.5", "vllm-project/vllm#16937"),
    ("sglang", "0.4.4.post1", "0.4.4.post2", "sgl-project/sglang#4247")])
def test_a_release_before_eagle3_is_sd201_not_clean(world, engine, old, first, pr):
    found, layers = _layers(world, _speculators(world, AUX), engine, old)
    assert found == ["SD201"], layers
    assert layers["served"] == [] and layers["unreachable"] == AUX
    failure = engines.eagle3_release_failure(engine, old)
    assert failure is not None and f"has no EAGLE-3 at all (added in {first}, {pr})" in failure.reason
    assert failure.fix.startswith(f"upgrade {'vLLM' if engine == 'vllm' else 'SGLang'} to {first} or later")

    # the first release with EAGLE-3 serves its default, which the draft was trained on
    found, layers = _layers(world, _speculators(world, AUX), engine, first)
    assert found == [] and layers["served"] == AUX


def test_the_finding_says_why_and_the_upgrade(world):
    from spec_debug.diagnose.steps import configs_step
    from spec_debug.probes.registry import ProbeContext
    from tests.diagnose.deepseek_world import configs_facts

    facts = configs_facts(world, _speculators(world, AUX))
    ctx = ProbeContext(step_id="s", host="h", args={}, facts=facts,
                       host_facts={"engine": {"name": "vllm", "version": "0.8.4"}, **facts}, vars={})
    sd201 = [f for f in configs_step.check(ctx) if f.code == "SD201"]
    assert len(sd201) == 1
    assert ("vLLM 0.8.4 has no EAGLE-3 at all (added in 0.8.5, vllm-project/vllm#16937): it serves "
            "no EAGLE-3 draft and refuses the algorithm at startup") in sd201[0].evidence
    assert sd201[0].remediation == "Upgrade vLLM to 0.8.5 or later and re-run this check with that release."


@pytest.mark.parametrize("version", [None, "latest", "0.9.2", "0.8.5", "0.8.5.post1", "fork-build"])
def test_vllm_releases_with_eagle3_and_unplaceable_labels_capture(version):
    # a label the table cannot place counts as the newest (unplaceable_version), never as old
    assert engines.eagle3_release_failure("vllm", version) is None
    assert engines.served_layer_ids("vllm", version if version != "fork-build" else None,
                                    {}, NL, "LlamaForCausalLM") == AUX
