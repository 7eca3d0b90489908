"""A draft config with eagle_config.use_aux_hidden_state false (left from an MTP/EAGLE-1
template, or set by hand) on a checkpoint whose fc was trained on 3 aux layers. SGLang then
captures no aux layers (python/sglang/srt/speculative/eagle_worker.py) and vLLM builds no fc
(vllm/model_executor/models/llama_eagle3.py combine_hidden_states): the draft gets the last
hidden state unprojected and acceptance collapses with no error. Before: no finding at all.
The checkpoint is the demo draft (saved by speculators), read as the host probe reads it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from spec_debug.diagnose.steps import configs_step
from spec_debug.eagle3.config import parse_draft_config
from spec_debug.probes.hostfiles import describe_model
from tests.diagnose.test_steps import context

DEMO = Path(__file__).resolve().parents[2] / "spec_debug" / "data" / "demo"
TARGET = json.loads((DEMO / "target" / "config.json").read_text())
H = TARGET["hidden_size"]
ENGINES = [{"engine": {"name": "sglang", "version": "0.5.12"}},
           {"engine": {"name": "vllm", "version": "latest"}}]


def _draft(tmp_path: Path, eagle_config: dict | None) -> dict:
    """The demo draft as the host probe describes it, its config.json edited as a user would."""
    folder = tmp_path / "draft"
    shutil.copytree(DEMO / "draft", folder)
    config = json.loads((folder / "config.json").read_text())
    if eagle_config is not None:
        config["eagle_config"] = eagle_config
    (folder / "config.json").write_text(json.dumps(config))
    return describe_model(str(folder))


def _findings(draft: dict, host: dict):
    facts = configs_step.parse({"draft": draft, "target": {"found": True, "config": TARGET}})
    return configs_step.check(context(facts, host))


@pytest.mark.parametrize("host", ENGINES, ids=["sglang", "vllm"])
def test_aux_off_with_an_fc_trained_on_three_layers_is_sd204_naming_the_key(tmp_path, host):
    draft = _draft(tmp_path, {"use_aux_hidden_state": False})
    assert draft["tensors"]["fc.weight"][0] == [H, 3 * H]  # trained on 3 aux layers
    found = _findings(draft, host)
    assert [f.code for f in found] == ["SD204"]  # the layer ids are moot: none is captured
    evidence = " ".join(found[0].evidence)
    assert "eagle_config.use_aux_hidden_state = false" in evidence
    assert "SGLang then captures no aux layers" in evidence and "vLLM builds no fc" in evidence
    assert f"{3 * H} = 3 x {H}" in evidence and "trained on 3 aux layers" in evidence
    assert "use_aux_hidden_state" in found[0].remediation
    assert found[0].facts["use_aux_hidden_state"] is False


@pytest.mark.parametrize("eagle_config", [None, {}, {"use_aux_hidden_state": True}],
                         ids=["no eagle_config", "key absent", "key true"])
def test_aux_on_or_unset_says_nothing_of_the_key(tmp_path, eagle_config):
    draft = _draft(tmp_path, eagle_config)
    for host in ENGINES:
        found = _findings(draft, host)
        assert not [f for f in found if f.code == "SD204"], found
        assert not any("use_aux_hidden_state" in line for f in found for line in f.evidence)


@pytest.mark.parametrize("fc", [None, [H, H]], ids=["no fc", "fc of H"])
def test_aux_off_on_a_draft_without_a_multi_layer_fc_is_consistent(tmp_path, fc):
    # heads trained on the last hidden state alone (the key's meaning) have no fc, or one of H
    draft = _draft(tmp_path, {"use_aux_hidden_state": False})
    tensors = dict(draft["tensors"])
    if fc is None:
        del tensors["fc.weight"]
    else:
        tensors["fc.weight"] = [fc, tensors["fc.weight"][1]]
    for host in ENGINES:
        assert _findings({**draft, "tensors": tensors}, host) == []


def test_the_draft_config_keeps_the_flag():
    config = json.loads((DEMO / "draft" / "config.json").read_text())
    assert parse_draft_config(config).use_aux_hidden_state is True
    off = {**config, "eagle_config": {"use_aux_hidden_state": False}}
    assert parse_draft_config(off).use_aux_hidden_state is False
