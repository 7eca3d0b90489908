"""SGLang before 0.5.4.post2 cannot serve an EAGLE-3 draft over a DeepSeek-V2/V3/V3.2 target (the
incident's target family): the layer check read such a run as served [2, N//2, N-3] and was clean.

PyPI wheels read: model_executor/model_runner.py calls `self.model.set_eagle3_layers_to_capture(...)`
on the target whenever the algorithm is EAGLE3 (0.4.6 .. 0.5.7 read), and models/deepseek_v2.py
(EntryClass DeepseekV2ForCausalLM, DeepseekV3ForCausalLM and DeepseekV32ForCausalLM, the latter two
subclasses) defines no such method in 0.4.6, 0.4.8, 0.4.9, 0.4.10, 0.5.1, 0.5.2, 0.5.3, 0.5.4 and
0.5.4.post1: the server stops at startup with an AttributeError. 0.5.4.post2, 0.5.4.post3, 0.5.5 and
later define it ([val + 1 for val in layer_ids], default [2, N//2, N-3]).

World: a real transformers DeepseekV3ForCausalLM target (8 layers) and an EAGLE-3 draft over it
saved by speculators 0.9.0 (tests/diagnose/deepseek_world.py), trained on the default [2, 4, 5]."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.eagle3 import engines

REASON = ("models/deepseek_v2.py has no set_eagle3_layers_to_capture, which model_executor/model_runner.py "
          "calls on the target for EAGLE3, so the server stops at startup (AttributeError; added in 0.5.4.post2, "
          "0.5.4.post1 lacks it) and no layer ids are ever read")
FIX = "upgrade SGLang to 0.5.4.post2 or later and re-run this check with that release"


@pytest.mark.parametrize(("arch", "version", "refused"), [
    ("DeepseekV3ForCausalLM", "0.4.9", True), ("DeepseekV3ForCausalLM", "0.5.4", True),
    ("DeepseekV3ForCausalLM", "0.5.4.post1", True), ("DeepseekV2ForCausalLM", "0.5.2", True),
    ("DeepseekV32ForCausalLM", "0.5.3", True), ("DeepseekV3ForCausalLM", "0.5.4.post2", False),
    ("DeepseekV3ForCausalLM", "0.5.5", False), ("DeepseekV3ForCausalLM", None, False),
    # a source build past 0.5.4.post1 may hold the method (SGLang's "patch" reach)
    ("DeepseekV3ForCausalLM", "0.5.4.post1.dev12+g0123abc", False),
    ("LlamaForCausalLM", "0.4.9", False)])
def test_the_table_knows_when_deepseek_v2_py_gained_the_capture(arch, version, refused):
    failure = engines.capture_failure("sglang", arch, version)
    plan = engines.serve_plan("sglang", version, {}, 61, arch)
    if not refused:
        assert failure is None and plan.layer_ids == [2, 30, 58]
        return
    assert failure.reason == f"SGLang {version} cannot serve an EAGLE-3 draft over a {arch} target: its " + REASON
    assert failure.fix == FIX
    assert plan.layer_ids == [] and plan.unreachable == [2, 30, 58]
    assert any("defines from 0.5.4.post2 only (0.5.4.post1 lacks it" in source for source in plan.sources)
    # vLLM has its own rules for the class (its list accepts deepseek_v3 from 0.18.0)
    assert engines.capture_failure("vllm", arch, "0.18.0") is None


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    pytest.importorskip("torch")
    pytest.importorskip("speculators")
    from tests.diagnose.deepseek_world import save_deepseek_world
    return save_deepseek_world(tmp_path_factory.mktemp("sglang_deepseek_capture"), [2, 4, 5])


def _layer_findings(world: Path, version: str):
    from tests.diagnose.deepseek_world import layer_findings
    return layer_findings(world, "sglang", version)


def test_the_layer_check_on_a_deepseek_target_before_0_5_4_post2_is_sd201(world):
    found, layers = _layer_findings(world, "0.5.4")
    assert [f.code for f in found] == ["SD201"], found
    assert layers["served"] == [] and layers["unreachable"] == [2, 4, 5]
    assert (f"SGLang 0.5.4 cannot serve an EAGLE-3 draft over a DeepseekV3ForCausalLM target: its {REASON}"
            in found[0].evidence)
    assert found[0].remediation == FIX[0].upper() + FIX[1:] + "."

    found, layers = _layer_findings(world, "0.5.4.post2")
    assert found == [] and layers["served"] == [2, 4, 5]
