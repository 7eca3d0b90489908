"""The hidden_layout step on a dump of every layer's hidden state that does not name its
slots (speculators' hs files carry no layer ids), for a draft whose config is right (aux ids
[2, 4, 5]). `drafter layout` says "slots [2, 4, 5] score 0.690 ... the draft fits its config;
pass --layout 2,4,5", but the step raised SD402 as an error, "Another hidden-state layout fits
the drafter clearly better than the served one", with "served layout [0, 1, 2]: 11.9%": the
first three slots, eval's guess for a dump that names none, neither served nor configured.
Now SD402 compares the best layout with the slots that hold the config's layer ids
(`config_slots`), and says nothing when they rank best. Saved by speculators 0.9.0
(tests/eagle3/speculators_world.py), every layer as transformers' output_hidden_states gives
them."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.steps import layout_step  # noqa: E402
from spec_debug.probes import hidden_layout  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import NL, save_informative_world  # noqa: E402
from tests.eagle3.test_hardening32_drafter_every_layer_dump import _every_layer_dump  # noqa: E402

VLLM = {"engine": {"name": "vllm", "version": "0.11.0"}}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    from transformers import LlamaForCausalLM

    root = save_informative_world(tmp_path_factory.mktemp("hardening74_every_layer"), seed=1)
    verifier = LlamaForCausalLM.from_pretrained(str(root / "target")).eval()
    return root, _every_layer_dump(root, verifier, root / "wide", range(0, NL + 1))


def _step(root, data, host_facts):
    raw = hidden_layout.run({"draft_model": str(root / "draft"), "target_model": str(root / "target"),
                             "engine": "vllm", "hidden_states": str(data)})
    return raw, layout_step.check(context(layout_step.parse(raw), host_facts))


@pytest.mark.parametrize("host_facts", [{}, VLLM], ids=["engine unknown", "vllm"])
def test_a_dump_of_every_layer_that_fits_the_config_gives_no_sd402(world, host_facts):
    root, wide = world
    raw, findings = _step(root, wide, host_facts)
    assert raw["layout"]["best"] == [2, 4, 5] and raw["layout"]["configured"] == [0, 1, 2]
    assert [f.code for f in findings if f.code == "SD402"] == []  # was SD402, error
    assert raw["layout"]["config_slots"] == [2, 4, 5]

