"""The incident, on a world built by the real libraries: a draft speculators saved, trained on
cat([embedding, layer-input 3, layer-input 5]) of a DeepSeek-V3-class target (the shape of
Kimi-K2.5's cat([embed, layer3, layer31]), INCIDENT.md), converted for SGLang with the default
ids [2, 4, 5] under eagle_config as a converter writes them, served by SGLang 0.5.12, whose
deepseek_v2.py adds 1 to every id (sgl-project/sglang#25454 changed that in 0.5.13): the engine
feeds layer inputs [3, 5, 6], the analogue of the incident's [3, 31, 59].

The configs step must call it SD201 (a different set of layers, not a shift), as the root cause,
with the one config fix the engine table knows (the trained ids raw under eagle_config, on a
release that captures the embedding output); the layout step's serving dump must corroborate
it as a symptom; the fix applied must be clean there."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.steps import configs_step, layout_step  # noqa: E402
from spec_debug.probes.registry import ProbeContext  # noqa: E402
from tests.diagnose.deepseek_world import NL, configs_facts, save_deepseek_world  # noqa: E402

TRAINED = [0, 3, 5]
KEY = "eagle_config.eagle_aux_hidden_state_layer_ids"


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return save_deepseek_world(tmp_path_factory.mktemp("incident"), aux=TRAINED)


def _served_draft(world, nested):
    draft = json.loads((world / "draft" / "config.json").read_text())
    return dict(draft, eagle_config={"eagle_aux_hidden_state_layer_ids": nested})


def _ctx(facts: dict, version: str) -> ProbeContext:
    engine = {"engine": {"name": "sglang", "version": version}}
    return ProbeContext(step_id="s", host="h", args={}, facts=facts, host_facts={**engine, **facts}, vars={})


def test_the_incident_is_sd201_with_its_fix(world):
    facts = configs_facts(world, _served_draft(world, [2, 4, 5]))
    found = configs_step.check(_ctx(facts, "0.5.12"))
    layers = facts["configs"]["layers"]
    assert [(f.code, f.severity) for f in found if f.code.startswith("SD20")] == [("SD201", "error")]
    assert layers["target_architecture"] == "DeepseekV3ForCausalLM"
    assert (layers["trained"], layers["served"]) == (TRAINED, [3, 5, 6])
    assert layers["shift"] is None and facts["configs"]["raised"] == ["SD201"]
    # DeepSeek files read ids not starting at 1 raw from 0.5.13; id 0 needs the embedding capture
    assert layers["fix"] == {"key": KEY, "ids": TRAINED, "min_version": "0.5.22", "before_version": None}
    sd201 = next(f for f in found if f.code == "SD201")
    assert sd201.remediation.startswith(f"Set {KEY} = {TRAINED} in the draft's config.json and run sglang >= 0.5.22")
    assert "0 (embedding output)" in " ".join(sd201.evidence)

    # the server's own dump measures [3, 5, 6] (+ the final slot): a symptom of that root cause
    host = {"num_target_layers": NL, "plan": {"layer_ids": [3, 5, 6]},
            "serving_dump": {"path": "dump", "layer_ids": [3, 5, 6, NL], "num_slots": 4}}
    earlier = {"engine": {"name": "sglang", "version": "0.5.12"}, **facts}
    measured = layout_step.check(ProbeContext(step_id="s", host="h", args={}, facts=layout_step.parse(host),
                                              host_facts=earlier, vars={}))
    assert [(f.code, f.severity) for f in measured] == [("SD201", "info")]
    assert "explained by SD201" in measured[0].evidence[-1]


def test_the_fix_applied_is_clean_on_the_release_it_names(world):
    fixed = configs_facts(world, _served_draft(world, TRAINED))
    assert not [f for f in configs_step.check(_ctx(fixed, "0.5.22")) if f.code.startswith("SD20")]
    assert fixed["configs"]["layers"]["served"] == TRAINED
    # on the running 0.5.12, which adds 1 to every id, the same config is served one layer late
    # ([1, 4, 6]): SD202, and the fix still names the release
    still = configs_facts(world, _served_draft(world, TRAINED))
    assert [f.code for f in configs_step.check(_ctx(still, "0.5.12")) if f.code.startswith("SD20")] == ["SD202"]
    assert still["configs"]["layers"]["served"] == [1, 4, 6]
    assert still["configs"]["layers"]["fix"]["min_version"] == "0.5.22"
