"""A draft with 2 aux layers (eagle_config names [0, 2], served as the inputs to [1, 3], where the
training dump says it was trained) served by SGLang 0.5.10, whose llama_eagle3.py builds fc for
exactly 3 aux layers. The configs step says SD204 (fc fan-in) as the root cause; the
hidden_layout step then compared the same fan-in with the same aux count and raised SD204 a
second time, as an error, since only SD201-SD203 counted as earlier causes; and its probe did
not declare SD204, so `spec-debug explain` listed no SD204 for that step."""

from __future__ import annotations

from spec_debug.diagnose.steps import configs_step, layout_step
from spec_debug.explain import explain_playbook
from spec_debug.playbook.loader import load_playbook
from spec_debug.probes.registry import all_probes
from tests.diagnose.test_steps import DRAFT, TARGET, codes, context

OLD_SGLANG = {"engine": {"name": "sglang", "version": "0.5.10"}}


def _two_aux_draft() -> dict:
    # trained on the inputs to layers 1 and 3 (speculators' key), served there by SGLang's key
    return {**DRAFT, "eagle_aux_hidden_state_layer_ids": [1, 3],
            "eagle_config": {"eagle_aux_hidden_state_layer_ids": [0, 2]}}


def _layout_host() -> dict:
    training = {"ranked": [{"layout": [0, 1], "layer_ids": [1, 3], "full_accuracy0": 0.7}],
                "best": [0, 1], "configured": [0, 1], "dump_layer_ids": [1, 3, 9]}
    return {"num_target_layers": 9, "plan": {"layer_ids": [1, 3]}, "layout": training}


def test_the_fc_width_fault_is_one_error_across_the_configs_and_layout_steps():
    configs = configs_step.parse({
        "draft": {"found": True, "path": "d", "config": _two_aux_draft(),
                  "tensors": {"fc.weight": [[32, 64], "F32"]}},
        "target": {"found": True, "path": "t", "config": TARGET}})
    assert codes(configs_step.check(context(configs, OLD_SGLANG))) == [("SD204", "error")]
    found = layout_step.check(context(layout_step.parse(_layout_host()),
                                      {**OLD_SGLANG, **configs}))
    assert codes(found) == [("SD204", "info")]
    assert found[0].evidence[0] == "sglang 0.5.10 builds fc for 3 aux layers; the draft has 2"
    assert "explained by SD204" in found[0].evidence[-1]


def test_the_layout_step_alone_still_raises_it_as_the_root_cause():
    alone = layout_step.check(context(layout_step.parse(_layout_host()),
                                      {**OLD_SGLANG, "configs": {"draft_config": _two_aux_draft()}}))
    assert codes(alone) == [("SD204", "error")]


def test_explain_lists_sd204_for_the_hidden_layout_step():
    assert "SD204" in all_probes()["hidden_layout"].codes
    walkthrough = explain_playbook(load_playbook("perf_regression"))
    [step] = [s for s in walkthrough["steps"] if s.id == "hidden_layout"]
    assert "SD204" in [c.code for c in step.codes]
