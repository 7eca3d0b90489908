"""A draft saved by speculators 0.9.0, its config.json then hand-edited: eagle_config sets
use_aux_hidden_state = false (an MTP template's leftover) and rms_norm_eps became the string
"1e-06" (a templated value). SGLang and vLLM read only the flag and feed the draft the target's
last state alone, unprojected: SD204. The configs step took a config the EAGLE-3 reader refuses
(for any key) as aux on, so SD204 was missed, and said nothing of the refusal; the
hidden_layout step compared served layer ids that nothing reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.steps import configs_step, layout_step  # noqa: E402
from spec_debug.probes import model_configs  # noqa: E402
from tests.diagnose.test_steps import codes, context  # noqa: E402
from tests.eagle3.speculators_world import AUX, NL, save_verifier_and_draft  # noqa: E402

SGLANG = {"engine": {"name": "sglang", "version": "0.5.12"}}


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("aux_off_unreadable")
    save_verifier_and_draft(root)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["eagle_config"] = {"use_aux_hidden_state": False}
    config["transformer_layer_config"]["rms_norm_eps"] = "1e-06"
    path.write_text(json.dumps(config))
    return root


def _configs(world: Path) -> dict:
    return configs_step.parse(model_configs.run({"draft_model": str(world / "draft"),
                                                 "target_model": str(world / "target")}))


def test_the_aux_off_fault_is_found_and_the_refused_config_is_said(world):
    facts = _configs(world)
    found = configs_step.check(context(facts, SGLANG))
    assert codes(found) == [("SD004", "info"), ("SD204", "error")]
    [said] = found[0].evidence
    assert said.startswith("the draft config.json could not be read as an EAGLE-3 config (")
    assert "'rms_norm_eps' is '1e-06', expected a number" in said
    assert "use_aux_hidden_state = false" in found[1].evidence[0]
    assert "fc.weight takes 96 = 3 x 32 input features" in found[1].evidence[1]


def test_the_layout_step_does_not_compare_layer_ids_the_engine_does_not_read(world):
    configs = _configs(world)
    configs_step.check(context(configs, SGLANG))
    trained = [i + 1 for i in AUX]  # no matter: no aux layer is served
    training = {"ranked": [{"layout": [0, 1, 2], "layer_ids": trained, "full_accuracy0": 0.7}],
                "best": [0, 1, 2], "configured": [0, 1, 2], "dump_layer_ids": [*trained, NL]}
    host = {"num_target_layers": NL, "plan": {"layer_ids": [2, 4, 5]}, "layout": training}
    found = layout_step.check(context(layout_step.parse(host), {**SGLANG, **configs}))
    assert not {"SD201", "SD202", "SD203"} & {f.code for f in found}
    assert any("use_aux_hidden_state = false" in line for f in found for line in f.evidence)
