"""A speculators draft whose config.json was edited to another hidden_size (64) than its
weights were saved at (32), over a 32-wide target: the engines build every draft layer from
the config and cannot load the weights. The configs step passed it (fc.weight [32, 96] is 3 x
the target's 32, so the fc width check was satisfied), the layout and eval steps failed as
steps that could not run (SD003, a warning), and `run perf_regression` said PASSED. The
configs step now raises SD204 naming both widths. The world is saved by speculators 0.9.0."""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import configs_step  # noqa: E402
from spec_debug.probes import model_configs  # noqa: E402
from tests.diagnose.test_steps import codes, context  # noqa: E402
from tests.eagle3.speculators_world import H, save_verifier_and_draft  # noqa: E402

VLLM = {"engine": {"name": "vllm", "version": "0.12.0"}}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = tmp_path_factory.mktemp("config-hidden-size")
    save_verifier_and_draft(root)
    return root


def _configs(root, host_facts=None, target=True):
    raw = model_configs.run({"draft_model": str(root / "draft"),
                             "target_model": str(root / "target") if target else ""})
    facts = configs_step.parse(raw)
    return configs_step.check(context(facts, host_facts or {}))


def _edit_hidden_size(root, value):
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["transformer_layer_config"]["hidden_size"] = value
    path.write_text(json.dumps(config, indent=2))


def test_the_draft_as_speculators_saved_it_has_no_width_finding(world):
    assert "SD204" not in [code for code, _ in codes(_configs(world, VLLM))]


def test_a_config_of_another_width_than_the_weights_is_sd204(tmp_path, world):
    import shutil

    root = tmp_path / "edited"
    shutil.copytree(world, root)
    _edit_hidden_size(root, 2 * H)
    for host_facts, target in ((VLLM, True), ({}, True), (VLLM, False)):
        found = [f for f in _configs(root, host_facts, target) if f.code == "SD204"]
        assert [f.severity for f in found] == ["error"], (host_facts, target)
        [line] = [e for e in found[0].evidence if "hidden_size" in e]
        assert line.startswith(f"the draft config's hidden_size is {2 * H}, its weights are "
                               f"{H} wide (norm.weight [{H}])")
        assert f"set transformer_layer_config.hidden_size to {H}" in line
        assert "target_hidden_size is unset" in line
