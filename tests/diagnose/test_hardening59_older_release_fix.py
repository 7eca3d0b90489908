"""The layer fix search looked only at the running SGLang release and later ones. A draft
trained on input-to ids starting at 1 (speculators' own convention, e.g. [1, 3, 5]) over a
DeepSeek-family target is served exactly only by SGLang before 0.5.13: from that release
deepseek_v2.py adds 1 only when the first configured id is 1 (sgl-project/sglang#25454), so no
spelling of the ids reaches layer-input 1 any more, while 0.5.12 adds 1 to [0, 2, 4]. On a
newer release the check said "No sglang release in the conventions table serves [1, 3, 5] ...
retrain", which the table itself contradicts; it now names the older release range."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.steps import configs_step  # noqa: E402
from spec_debug.probes.registry import ProbeContext  # noqa: E402
from tests.diagnose.deepseek_world import configs_facts, save_deepseek_world  # noqa: E402

KEY = "eagle_config.eagle_aux_hidden_state_layer_ids"


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return save_deepseek_world(tmp_path_factory.mktemp("older_release_fix"), aux=[1, 3, 5])


def _check(facts: dict, version: str):
    engine = {"engine": {"name": "sglang", "version": version}}
    ctx = ProbeContext(step_id="s", host="h", args={}, facts=facts, host_facts={**engine, **facts}, vars={})
    return configs_step.check(ctx)


def test_only_an_older_sglang_serves_the_trained_ids_and_the_fix_says_so(world):
    facts = configs_facts(world)
    found = [f for f in _check(facts, "0.5.23") if f.code.startswith("SD20")]
    layers = facts["configs"]["layers"]
    assert layers["target_architecture"] == "DeepseekV3ForCausalLM" and layers["trained"] == [1, 3, 5]
    # an EAGLE-format config holding only [0, 2, 4] is read as the newest SGLang reads it (the
    # embedding first): the fix says a re-run without the dump reads it so
    assert layers["fix"] == {"key": KEY, "ids": [0, 2, 4], "min_version": "0.5.12",
                             "before_version": "0.5.13", "reads_back_as": [0, 2, 4]}
    assert len(found) == 1 and found[0].severity == "error"
    assert "older sglang, >= 0.5.12 and < 0.5.13" in found[0].remediation
    assert "No sglang release" not in found[0].remediation
    # the fix applied, on that older release: nothing left to report on the layers
    draft = json.loads((world / "draft" / "config.json").read_text())
    fixed = dict(draft, eagle_config={"eagle_aux_hidden_state_layer_ids": [0, 2, 4]})
    ok = configs_facts(world, fixed)
    assert not [f for f in _check(ok, "0.5.12") if f.code.startswith("SD20")]
    assert ok["configs"]["layers"]["served"] == [1, 3, 5]


def test_a_fix_on_the_running_or_a_later_release_still_wins(world):
    # on 0.5.12 itself the same ids are the fix, with no release to change
    facts = configs_facts(world)
    _check(facts, "0.5.12")
    assert facts["configs"]["layers"]["fix"] == {"key": KEY, "ids": [0, 2, 4], "min_version": None,
                                                 "before_version": None, "reads_back_as": [0, 2, 4]}
