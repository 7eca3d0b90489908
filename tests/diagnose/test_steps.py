"""Controller side of the probes on host JSON: missing inputs are info lines, root causes are
errors once, and their symptoms in later steps are info."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.diagnose.steps import configs_step, eval_step, layout_step, throughput_step, vocab_step
from spec_debug.probes.registry import ProbeContext, all_probes

DEMO = Path(__file__).resolve().parents[2] / "spec_debug" / "data" / "demo"
DRAFT = json.loads((DEMO / "draft" / "config.json").read_text())
TARGET = json.loads((DEMO / "target" / "config.json").read_text())
SGLANG = {"engine": {"name": "sglang", "version": "0.5.12"}}


def context(facts, host_facts=None, vars=None):
    return ProbeContext(step_id="s", host="h", args={}, facts=facts, host_facts={**(host_facts or {}), **facts},
                        vars=vars or {})


def codes(findings):
    return [(f.code, f.severity) for f in findings]


@pytest.mark.parametrize("name", ["launch_flags", "engine_info", "model_configs", "vocab_maps", "hidden_layout",
                                  "forward_source", "drafter_eval", "throughput_model"])
def test_every_probe_with_no_input_says_what_to_provide_and_never_errors(name):
    spec = all_probes()[name]
    empty = {"args": {}, "skipped": "needs input", "processes": [], "packages": {},
             "reference": {"found": False, "reason": "x"}, "engine": {"found": False, "reason": "y"}}
    facts = spec.parse(empty)
    found = spec.check(context(facts))
    assert found, name
    assert all(f.severity == "info" and f.code == "SD004" and f.title.startswith("Not checked") for f in found)


def test_configs_step_reports_the_served_layers_and_records_the_root_cause():
    facts = configs_step.parse({"draft": {"found": True, "path": "d", "config": DRAFT,
                                          "tensors": {"fc.weight": [[32, 96], "F32"]}},
                                "target": {"found": True, "path": "t", "config": TARGET}})
    found = configs_step.check(context(facts, SGLANG))
    assert codes(found) == [("SD201", "error")]
    assert facts["configs"]["raised"] == ["SD201"] and facts["configs"]["layers"]["served"] == [2, 4, 6]
    # the remedy is the fixed host's config, which needs SGLang >= 0.5.22 on this Llama target
    fix = facts["configs"]["layers"]["fix"]
    assert (fix["ids"], fix["min_version"]) == ([-1, 1, 3], "0.5.22")
    fixed = json.loads((DEMO / "draft_fixed" / "config.json").read_text())
    assert fixed["eagle_config"]["eagle_aux_hidden_state_layer_ids"] == fix["ids"]
    ok = configs_step.parse({"draft": {"found": True, "config": fixed}, "target": {"found": True, "config": TARGET}})
    assert configs_step.check(context(ok, {"engine": {"name": "sglang", "version": "0.5.22"}})) == []
    still = configs_step.parse({"draft": {"found": True, "config": fixed}, "target": {"found": True, "config": TARGET}})
    assert codes(configs_step.check(context(still, SGLANG))) == [("SD201", "error")]  # 0.5.12 cannot capture id 0


def test_layout_step_measured_serving_layers_corroborate_an_earlier_root_cause():
    host = {"num_target_layers": 9, "plan": {"layer_ids": [2, 4, 6]},
            "serving_dump": {"path": "dump", "layer_ids": [2, 4, 6, 9], "num_slots": 4}}
    earlier = {**SGLANG, "configs": {"draft_config": DRAFT, "raised": ["SD201"]}}
    found = layout_step.check(context(layout_step.parse(host), earlier))
    assert codes(found) == [("SD201", "info")] and "explained by SD201" in found[0].evidence[-1]
    # without the config-level finding, the measurement is the root cause
    alone = layout_step.check(context(layout_step.parse(host), {**SGLANG, "configs": {"draft_config": DRAFT}}))
    assert codes(alone) == [("SD201", "error")]


def test_layout_step_training_dump_names_layers_the_config_does_not():
    # a normal training dump (3 aux slots + final) holding [1, 3, 5]: trained there, not [0, 2, 4]
    training = {"ranked": [{"layout": [0, 1, 2], "layer_ids": [1, 3, 5], "full_accuracy0": 0.7}],
                "best": [0, 1, 2], "configured": [0, 1, 2], "dump_layer_ids": [1, 3, 5, 9]}
    host = {"num_target_layers": 9, "plan": {"layer_ids": [2, 4, 6]}, "layout": training}
    draft = {k: v for k, v in DRAFT.items() if k != "eagle_aux_hidden_state_layer_ids"}
    found = layout_step.check(context(layout_step.parse(host), {**SGLANG, "configs": {"draft_config": draft}}))
    assert codes(found) == [("SD203", "error")]


def test_vocab_step_passes_the_drafter_report_through():
    report = {"ok": False, "target_vocab_size": 256, "draft_vocab_size": 192, "checks": [
        {"name": "d2t_present", "ok": False, "issues": [{"kind": "d2t_missing", "code": "SD301", "message": "no d2t"}]}]}
    facts = vocab_step.parse({"draft": "d", "target": "t", "report": report})
    assert codes(vocab_step.check(context(facts))) == [("SD301", "error")]


def test_eval_step_compares_with_the_claim_and_demotes_engine_cost_to_a_known_cause():
    ref = {"steps": 3, "full_accuracy": [0.77, 0.6, 0.4], "expected_accept_length": 2.7}
    eng = {"steps": 3, "full_accuracy": [0.68, 0.5, 0.3], "expected_accept_length": 2.4, "semantics": "sglang"}
    facts = eval_step.parse({"args": {"claimed_accuracy": "0.747"}, "reference": ref, "engine": eng})
    assert codes(eval_step.check(context(facts, {**SGLANG, "configs": {"raised": ["SD201"]}}))) == [("SD403", "info")]
    bad = eval_step.parse({"args": {"claimed_accuracy": "95%"}, "reference": ref})
    assert codes(eval_step.check(context(bad))) == [("SD401", "error")]


def test_throughput_step_explains_an_accept_length_gap_by_the_root_cause():
    lines = [f"Decode batch. #running-req: 1, accept len: 1.10, accept rate: 0.55, gen throughput (token/s): {v}"
             for v in (61.0, 62.0, 60.5)]
    facts = throughput_step.parse({"found": True, "path": "log", "lines": lines,
                                   "args": {"baseline_tok_s": "90"}})
    host = {"launch": {"effective": {"num_steps": 1}},
            "eval": {"reference": {"steps": 3, "reference": "target_argmax",
                                   "target_conditional_acceptance": [0.75, 0.7, 0.6]}},
            "configs": {"draft_config": DRAFT, "target_config": TARGET, "raised": ["SD201"]}}
    found = throughput_step.check(context(facts, host))
    assert codes(found) == [("SD501", "error"), ("SD502", "info")]
    evidence = " ".join(found[0].evidence)
    assert "1.10 at 1 step" in evidence and "1.75 at the served 1 step" in evidence


def test_configs_step_with_a_malformed_rope_setting_says_so_instead_of_raising():
    # A hand-edited config with the rope type as a bare string (`"rope_scaling": "yarn"`):
    # the other config checks still run, and RoPE gets one "not checked" line.
    broken = json.loads(json.dumps(DRAFT))
    broken.setdefault("transformer_layer_config", {})["rope_scaling"] = "yarn"
    facts = configs_step.parse({"draft": {"found": True, "path": "d", "config": broken,
                                          "tensors": {"fc.weight": [[32, 96], "F32"]}},
                                "target": {"found": True, "path": "t", "config": TARGET}})
    found = configs_step.check(context(facts, SGLANG))
    assert ("SD201", "error") in codes(found)
    rope = [f for f in found if f.code == "SD004" and "RoPE" in f.evidence[0]]
    assert len(rope) == 1 and "rope_scaling" in rope[0].evidence[0]
