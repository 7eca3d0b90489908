"""A speculators 0.9.0 draft whose config.json lost its `speculators_config` (a hand edit
that took out the training host's verifier path, or an older export).

Before: the configs step said nothing (no finding beside the ones an intact draft gets), while
vLLM reads a config.json as speculators' only when it has no model_type and a speculators_config
that is not None (vllm/transformers_utils/config.py HFConfigParser.parse) and hands this one to
transformers' AutoConfig ("Unrecognized model in <dir>. Should have a `model_type` key in its
config.json"), and speculators 0.9.0's own from_pretrained stops (load_verifier_weights reads
`config.speculators_config.verifier`). Now the configs step gives SD704 naming the key, what
each does, and the fix."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401

TITLE = "The draft config has no speculators_config: vLLM does not load it"


@pytest.fixture
def stripped(tmp_path, world):
    """The world's draft and target, the draft's speculators_config taken out."""
    shutil.copytree(world / "target", tmp_path / "target")
    shutil.copytree(world / "draft", tmp_path / "draft")
    path = tmp_path / "draft" / "config.json"
    config = json.loads(path.read_text())
    assert "model_type" not in config  # speculators writes none: vLLM decides by speculators_config
    del config["speculators_config"]
    path.write_text(json.dumps(config, indent=2))
    return tmp_path


def _not_info(found):
    return [(f.code, f.title) for f in found if f.severity != "info"]


def test_an_intact_speculators_draft_gives_no_finding(world):
    assert _not_info(_configs(world, VLLM)) == []


def test_without_speculators_config_the_configs_step_gives_sd704(stripped):
    found = _configs(stripped, VLLM)
    assert _not_info(found) == [("SD704", TITLE)]
    [finding] = [f for f in found if f.code == "SD704"]
    assert finding.severity == "error"
    assert finding.evidence == [
        "the draft's config.json is a speculators config (speculators_model_type 'eagle3', "
        "transformer_layer_config) whose speculators_config is not there: vLLM reads a config as "
        "speculators' only by that key and hands this one to transformers, which stops with "
        "\"Unrecognized model in <draft dir>. Should have a `model_type` key in its config.json\"; "
        "speculators' from_pretrained stops too (no speculators_config.verifier)"]
    assert finding.facts["key"] == "speculators_config"
    assert finding.remediation.startswith("Put back the draft's speculators_config")


def test_a_null_speculators_config_is_said_as_null(stripped):
    path = stripped / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["speculators_config"] = None
    path.write_text(json.dumps(config))
    [finding] = [f for f in _configs(stripped, VLLM) if f.code == "SD704"]
    assert "whose speculators_config is null:" in finding.evidence[0]


def test_a_top_level_model_type_speculators_is_read_by_vllm(stripped):
    """vLLM's registry takes model_type "speculators" without the section: nothing to say."""
    path = stripped / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["model_type"] = "speculators"
    path.write_text(json.dumps(config))
    assert "SD704" not in [f.code for f in _configs(stripped, VLLM)]


def test_sglang_is_not_told_what_vllm_does(stripped):
    found = _configs(stripped, {"engine": {"name": "sglang", "version": "0.5.12"}})
    assert "SD704" not in [f.code for f in found]


def test_the_facts_the_finding_states(stripped):
    """The two refusals the evidence names, from the installed libraries."""
    from speculators import SpeculatorModel
    from transformers import AutoConfig

    with pytest.raises(ValueError, match="Should have a `model_type` key in its config.json"):
        AutoConfig.from_pretrained(str(stripped / "draft"))
    with pytest.raises(AttributeError, match="'NoneType' object has no attribute 'verifier'"):
        SpeculatorModel.from_pretrained(str(stripped / "draft"))
