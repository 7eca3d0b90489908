"""A draft saved by speculators 0.9.0 stores its decoder layer as `layers.0.*`; its config.json,
flattened by hand to the EAGLE format SGLang reads (`LlamaForCausalLMEagle3`), makes SGLang
build LlamaForCausalLMEagle3, which holds the layer as `model.midlayer.*`; its load_weights
takes a name as is or with `model.` added and skips every other name without a word (sglang
python/sglang/srt/models/llama_eagle3.py, commits 03d5a777 and d737979c): SGLang serves the
draft with an untrained layer. The configs step said nothing for SGLang; it now raises SD709,
and the rename its fix gives clears it. vLLM, which maps `midlayer.` to `layers.0.` itself,
gets no SD709 either way; nor does the speculators config (`Eagle3DraftModel`), which does not
reach that load_weights."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401
from tests.eagle3.test_hardening41_wrapped_draft_unservable import SGLANG  # noqa: E402


def _copy(tmp_path, world):
    """The world with the draft's config flattened to the EAGLE format (what SGLang reads)."""
    root = tmp_path / "copy"
    shutil.copytree(world, root)
    path = root / "draft" / "config.json"
    saved = json.loads(path.read_text())
    flat = dict(saved["transformer_layer_config"], architectures=["LlamaForCausalLMEagle3"],
                draft_vocab_size=saved["draft_vocab_size"],
                eagle_config={"eagle_aux_hidden_state_layer_ids": saved["eagle_aux_hidden_state_layer_ids"]})
    path.write_text(json.dumps(flat))
    return root


def _rename(root, rename):
    from safetensors.torch import load_file, save_file

    weights = root / "draft" / "model.safetensors"
    save_file({rename(name): t for name, t in load_file(str(weights)).items()}, str(weights),
              metadata={"format": "pt"})


def test_a_speculators_draft_flattened_for_sglang_is_sd709(tmp_path, world):
    found = _configs(_copy(tmp_path, world), SGLANG)
    assert [f.code for f in found if f.code.startswith("SD7")] == ["SD709"]
    assert [f for f in found if f.code == "SD709"][0].severity == "error"
    [finding] = [f for f in found if f.code == "SD709"]
    assert finding.facts["layers"] == [0]
    assert finding.evidence[0].startswith("the draft's decoder layers are stored as layers.N.* "
                                          "(layers.0.hidden_norm.weight, ... ")
    assert "midlayer.*" in finding.evidence[0] and "untrained layers" in finding.evidence[0]
    assert "replace('layers.0.', 'midlayer.', 1)" in finding.remediation
    assert "additional_layers" not in finding.remediation  # one layer: nothing more to rename


def test_the_same_draft_served_by_vllm_or_an_unknown_engine_is_not_sd709(tmp_path, world):
    root = _copy(tmp_path, world)
    for host in (VLLM, {}):
        assert "SD709" not in [f.code for f in _configs(root, host)]


def test_the_speculators_config_as_saved_is_not_sd709(world):
    # architectures ["Eagle3DraftModel"]: SGLang does not build LlamaForCausalLMEagle3 from it
    assert "SD709" not in [f.code for f in _configs(world, SGLANG)]


def test_sglang_model_prefixed_layers_are_sd709_too(tmp_path, world):
    # `model.layers.0.*` is no SGLang parameter either (it holds model.midlayer.*)
    root = _copy(tmp_path, world)
    _rename(root, lambda name: "model." + name if name not in ("d2t", "t2d") else name)
    [finding] = [f for f in _configs(root, SGLANG) if f.code == "SD709"]
    assert finding.facts["example"].startswith("model.layers.0.")


def test_the_fix_sd709_gives_makes_the_draft_loadable_by_sglang_and_vllm(tmp_path, world):
    root = _copy(tmp_path, world)
    [finding] = [f for f in _configs(root, SGLANG) if f.code == "SD709"]
    [command] = re.findall(r"`(python -c .*?)`", finding.remediation)
    command = command.replace("python ", f"{sys.executable} ", 1)
    subprocess.run(["bash", "-c", command], cwd=root / "draft", check=True, timeout=120)
    for host in (SGLANG, VLLM):
        assert "SD709" not in [f.code for f in _configs(root, host)]
    assert [f.code for f in _configs(root, VLLM) if f.severity == "error"] == []
