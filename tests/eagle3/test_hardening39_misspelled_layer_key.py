"""A speculators draft trained on target layers [1, 3, 6] whose config.json was edited by hand
and now spells the key `eagle_aux_hidden_state_layer_id` (no s). No engine reads that key:
vLLM and SGLang serve their default [2, 4, 5] to a draft trained on [1, 3, 6], and acceptance
collapses. The configs step took the config for one that names no layers, assumed the trainer
default, and said nothing. Now the misspelled key's ids are the trained ones: SD203, naming the
key as written and the key it misspells, with the fix under the key the engine reads. The
draft is saved by speculators 0.9.0."""

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
from tests.eagle3.speculators_world import DV, V, save_perturbed_draft, save_verifier_and_draft  # noqa: E402

TRAINED = [1, 3, 6]  # the target has 8 layers: the engines' default is [2, 4, 5]
VLLM = {"engine": {"name": "vllm", "version": "0.12.0"}}
SGLANG = {"engine": {"name": "sglang", "version": "0.5.30"}}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    from transformers import AutoConfig

    root = tmp_path_factory.mktemp("misspelled-layer-key")
    save_verifier_and_draft(root)
    layer_config = AutoConfig.from_pretrained(str(root / "target"))
    layer_config.num_hidden_layers = 1
    save_perturbed_draft(root / "trained_136", root / "target", layer_config, aux=TRAINED,
                         draft_vocab=DV, vocab=V, seed_name="misspelled-layer-key")
    return root


def _with_key(root, tmp_path, key, ids):
    import shutil

    draft = tmp_path / "draft"
    shutil.copytree(root / "trained_136", draft)
    config = json.loads((draft / "config.json").read_text())
    del config["eagle_aux_hidden_state_layer_ids"]
    config[key] = ids
    (draft / "config.json").write_text(json.dumps(config, indent=2))
    return draft


def _configs(root, draft, host_facts):
    raw = model_configs.run({"draft_model": str(draft), "target_model": str(root / "target")})
    return configs_step.check(context(configs_step.parse(raw), host_facts))


def test_the_key_spelled_right_is_served_by_vllm(world, tmp_path):
    draft = _with_key(world, tmp_path, "eagle_aux_hidden_state_layer_ids", TRAINED)
    assert [c for c, _ in codes(_configs(world, draft, VLLM)) if c.startswith("SD20")] == []


@pytest.mark.parametrize("host_facts, fix", [(VLLM, "Set eagle_aux_hidden_state_layer_ids = [1, 3, 6]"),
                                             (SGLANG, "Set eagle_config.eagle_aux_hidden_state_layer_ids")])
def test_a_misspelled_key_is_sd203_with_the_key_it_misspells(world, tmp_path, host_facts, fix):
    draft = _with_key(world, tmp_path, "eagle_aux_hidden_state_layer_id", TRAINED)
    [finding] = [f for f in _configs(world, draft, host_facts) if f.code.startswith("SD20")]
    assert (finding.code, finding.severity) == ("SD203", "error")
    assert finding.evidence[0] == ("trained on [1, 3, 6] (draft config eagle_aux_hidden_state_layer_id, "
                                   "a misspelling of eagle_aux_hidden_state_layer_ids), input-to-layer ids")
    assert finding.evidence[1].startswith("served [2, 4, 5]")
    assert finding.remediation.startswith(fix)


def test_a_misspelled_key_holding_the_default_layers_is_no_finding(world, tmp_path):
    # served [2, 4, 5] is what such a key says: nothing is lost by the misspelling
    draft = _with_key(world, tmp_path, "eagle_aux_hidden_state_layer_id", [2, 4, 5])
    assert [c for c, _ in codes(_configs(world, draft, VLLM)) if c.startswith("SD20")] == []
