"""A draft config whose aux layer ids are strings (["2", "4", "5"], as a template or a shell
script writes them): SGLang's set_eagle3_layers_to_capture adds 1 to each (TypeError at
startup), vLLM captures a target layer when its int index is among them (never), so neither
serves the draft as trained. The configs step said only SD004 (the config could not be read)
with the generic 'pass the named input' fix; it now raises SD707, naming the key and the
integers to write. The draft is saved by speculators 0.9.0, then its config edited."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401
from tests.eagle3.test_hardening41_wrapped_draft_unservable import SGLANG  # noqa: E402

from spec_debug.diagnose.checks.draft_config import check_layer_id_types  # noqa: E402


def _with_ids(tmp_path, world, edit):
    root = tmp_path / "ids"
    shutil.copytree(world, root)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    ids = config["eagle_aux_hidden_state_layer_ids"]
    edit(config, ids)
    path.write_text(json.dumps(config, indent=2))
    return root, ids


def _as_strings(config, ids):
    config["eagle_aux_hidden_state_layer_ids"] = [str(i) for i in ids]


@pytest.mark.parametrize("host", [VLLM, SGLANG, {}], ids=["vllm", "sglang", "unknown"])
def test_layer_ids_written_as_strings_are_sd707_naming_the_key_and_the_fix(tmp_path, world, host):
    root, ids = _with_ids(tmp_path, world, _as_strings)
    found = _configs(root, host)
    [finding] = [f for f in found if f.code == "SD707"]
    assert finding.severity == "error"
    quoted = json.dumps([str(i) for i in ids])
    assert finding.evidence == [f"eagle_aux_hidden_state_layer_ids is {quoted}, strings: SGLang adds 1 "
                                "to each and does not start (TypeError), vLLM compares each target "
                                "layer's index with them and captures none, so the draft gets no aux "
                                "hidden states"]
    assert finding.remediation == ("Write the ids as JSON integers in the draft's config.json: "
                                   f"\"eagle_aux_hidden_state_layer_ids\": {json.dumps(ids)}, then "
                                   "restart the server.")


def test_the_draft_as_speculators_saved_it_is_not_sd707(world):
    assert "SD707" not in [f.code for f in _configs(world, VLLM)]


def test_spec_forge_nested_string_ids_name_the_nested_key():
    raw = {"architectures": ["LlamaForCausalLMEagle3"],
           "eagle_config": {"eagle_aux_hidden_state_layer_ids": ["1", "29", "57"]}}
    [finding] = check_layer_id_types(raw)
    assert finding.facts == {"key": "eagle_config.eagle_aux_hidden_state_layer_ids",
                             "layer_ids": ["1", "29", "57"]}
    assert finding.remediation.endswith("\"eagle_aux_hidden_state_layer_ids\": [1, 29, 57] "
                                        "(under eagle_config), then restart the server.")


def test_integer_ids_are_not_sd707():
    assert check_layer_id_types({"eagle_aux_hidden_state_layer_ids": [2, 16, 29]}) == []
