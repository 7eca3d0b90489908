"""The incident (INCIDENT.md): a draft trained on cat([embed_output, layer, layer]) whose config
names the layers the engine serves. Here speculators 0.9.0 saves a draft over hidden states whose
first aux slot is the embedding output (target layers [0, 2, 4], as vLLM's id 0 captures it), and
its config.json is then given the engines' default ids [2, 4, 5]. The layout probe found it (its
verdict: "slot(s) [0] hold the embedding output ... and the configured layout uses it"), but the
layout step raised nothing: SD402 speaks only when another layout fits better, and a dump
without layer ids gives no trained ids to compare. Now the step raises SD201 (the engine serves
no embedding output to a draft trained on it), info when the configs step found the cause."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import tests.eagle3.speculators_world as speculators_world  # noqa: E402
from spec_debug.diagnose.steps import configs_step, layout_step  # noqa: E402
from spec_debug.probes import hidden_layout, model_configs  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402


@pytest.fixture(scope="module")
def embed_world(tmp_path_factory):
    root = tmp_path_factory.mktemp("embed-slot")
    # a world of its own: other aux layers, and a build cache of its own so no other test
    # copies this draft (or this test another's)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(speculators_world, "AUX", [0, 2, 4])
        patch.setattr(speculators_world, "_BUILT", {})
        speculators_world.save_informative_world(root, seed=39)
    return root


@pytest.fixture(scope="module")
def plain_world(tmp_path_factory):
    return speculators_world.save_informative_world(tmp_path_factory.mktemp("plain"), seed=1)


def _with_ids(root, tmp_path, ids):
    copy = tmp_path / "world"
    shutil.copytree(root, copy)
    path = copy / "draft" / "config.json"
    config = json.loads(path.read_text().replace(str(root), str(copy)))
    config["eagle_aux_hidden_state_layer_ids"] = ids
    path.write_text(json.dumps(config, indent=2))
    return copy


def _steps(root, engine, version):
    host = {"engine": {"name": engine, "version": version}}
    configs = configs_step.parse(model_configs.run({"draft_model": str(root / "draft"),
                                                    "target_model": str(root / "target")}))
    host.update(configs)
    found = configs_step.check(context(configs, host))
    layout = layout_step.parse(hidden_layout.run({
        "draft_model": str(root / "draft"), "target_model": str(root / "target"),
        "hidden_states": str(root / "data"), "engine": engine, "engine_version": version}))
    host.update(layout)
    return found, layout_step.check(context(layout, host))


@pytest.mark.parametrize("engine, version", [("vllm", "0.12.0"), ("sglang", "0.5.30")])
def test_a_draft_trained_on_the_embedding_output_served_the_default_layers_is_sd201(
        embed_world, tmp_path, engine, version):
    world = _with_ids(embed_world, tmp_path, [2, 4, 5])
    configs, layout = _steps(world, engine, version)
    assert [f.code for f in configs if f.code.startswith("SD2")] == []
    [finding] = [f for f in layout if f.code == "SD201"]
    assert finding.severity == "error"
    assert finding.evidence[0].startswith(
        "slot 0 of the training dump is exactly the embedding output (embed_tokens[token_ids]), "
        "and the draft fits the dump best in its configured layout [0, 1, 2]")
    assert finding.evidence[1] == f"served [2, 4, 5] ({engine} {version} convention): none is the embedding output (id 0)"


def test_the_configs_step_cause_makes_it_info(embed_world, tmp_path):
    # the config says [0, 2, 4]: vLLM 0.12 cannot capture id 0, the configs step says so first
    world = _with_ids(embed_world, tmp_path, [0, 2, 4])
    configs, layout = _steps(world, "vllm", "0.12.0")
    assert [f.code for f in configs if f.severity == "error"] == ["SD201"]
    assert [(f.code, f.severity) for f in layout if f.code == "SD201"] == [("SD201", "info")]


def test_an_engine_that_feeds_the_embedding_output_has_no_finding(embed_world, tmp_path):
    world = _with_ids(embed_world, tmp_path, [0, 2, 4])
    configs, layout = _steps(world, "vllm", "0.30.0")
    assert [f for f in configs + layout if f.severity == "error"] == []


def test_a_draft_trained_on_layers_has_no_finding(plain_world):
    configs, layout = _steps(plain_world, "vllm", "0.12.0")
    assert [f for f in configs + layout if f.severity == "error"] == []
