"""The hidden_layout step on a draft whose config names its verifier, without --var target_model.

The engine's serve plan (which layers it feeds the draft) needs the target's layer count. The
hidden_layout probe read it only from --var target_model, while its own layout ranking scored
against the verifier the draft's config names (the drafter takes it, as `vllm serve <draft>`
does). So `hidden_state_format --var engine=sglang` on a host holding that verifier made no
plan, compared no served layers with the training dump's, and said nothing of it. Now the probe
takes the named verifier for the plan too, and says so (target_source). Saved by speculators
0.9.0, its dump named by layer_ids metadata."""

from __future__ import annotations

import json
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.diagnose.steps import layout_step  # noqa: E402
from spec_debug.probes import hidden_layout  # noqa: E402
from tests.eagle3.speculators_world import AUX, NL, save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = save_informative_world(tmp_path_factory.mktemp("hardening51_layout_verifier"), seed=51)
    for path in (root / "data").glob("hs_*.safetensors"):
        save_file(load_file(str(path)), str(path), metadata={"layer_ids": json.dumps(AUX + [NL])})
    return root


def _probe(world, target: str = "") -> dict:
    return hidden_layout.run({"draft_model": str(world / "draft"), "target_model": target,
                              "hidden_states": str(world / "data"), "engine": "sglang",
                              "engine_version": "0.5.4"})


def test_the_named_verifier_gives_the_serve_plan(world):
    named = _probe(world)
    given = _probe(world, str(world / "target"))
    assert named["num_target_layers"] == given["num_target_layers"] == NL  # was None
    assert named["plan"] == given["plan"] and named["plan"]["layer_ids"] == AUX
    assert named["layout"]["served"] == given["layout"]["served"] == [0, 1, 2]
    assert named["target_source"] == "speculators_config.verifier"
    assert "target_source" not in given
    assert layout_step.parse(named)["layout"]["target_source"] == "speculators_config.verifier"


def test_a_verifier_of_another_width_is_not_taken(world, tmp_path):
    root = tmp_path / "w"
    shutil.copytree(world, root)
    config_path = root / "target" / "config.json"
    config_path.write_text(json.dumps({**json.loads(config_path.read_text()), "hidden_size": 64}))
    draft_config = root / "draft" / "config.json"
    draft_config.write_text(draft_config.read_text().replace(str(world), str(root)))
    probed = _probe(root)
    assert probed.get("num_target_layers") is None and "target_source" not in probed
