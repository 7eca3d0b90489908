"""A draft saved by speculators 0.9.0 and re-saved under `model.`: the drafter eval's note said
"SGLang loads either form" whatever the names under `model.` were. SGLang's
LlamaForCausalLMEagle3.load_weights takes a name as is or with `model.` added and skips every
other name (sglang python/sglang/srt/models/llama_eagle3.py, commit 03d5a777); it holds the
first layer as `model.midlayer.*`, so `model.layers.0.*` (speculators' layer names under
`model.`) is skipped and the layer served untrained. The note now says so for those names, and
keeps "either form" for `model.midlayer.*`, which SGLang does load."""

from __future__ import annotations

import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.eagle3.loading import load_draft  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = tmp_path_factory.mktemp("model-prefix-note")
    save_verifier_and_draft(root)
    return root


def _resaved(tmp_path, world, rename):
    from safetensors.torch import load_file, save_file

    root = tmp_path / "copy"
    shutil.copytree(world, root)
    weights = root / "draft" / "model.safetensors"
    save_file({rename(name): t for name, t in load_file(str(weights)).items()}, str(weights),
              metadata={"format": "pt"})
    return root


def _prefix_notes(root):
    loaded = load_draft(root / "draft", root / "target")
    return [n for n in loaded.notes if n.startswith("the draft's tensors are stored as model.*")]


def test_model_prefixed_speculators_layers_are_not_loaded_by_sglang(tmp_path, world):
    root = _resaved(tmp_path, world, lambda name: "model." + name)
    [note] = _prefix_notes(root)
    assert "either form" not in note
    assert "skips model.layers.0." in note
    assert "holds the decoder layers as model.midlayer.*" in note
    assert "fails on model.model.*" in note
    assert "with layers.0. renamed midlayer. for SGLang" in note


def test_model_prefixed_midlayer_names_are_loaded_by_sglang(tmp_path, world):
    root = _resaved(tmp_path, world,
                    lambda name: "model." + name.replace("layers.0.", "midlayer.", 1))
    [note] = _prefix_notes(root)
    assert "SGLang loads either form, but vLLM adds 'model.' to each name itself" in note
    assert "skips" not in note
