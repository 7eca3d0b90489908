"""A speculators 0.9.0 draft folder that also holds torch pickle shards of other weights,
named by pytorch_model.bin.index.json (a re-export sharded as transformers < 4.35 saved large
models). vLLM and SGLang load "*.safetensors" before "*.bin" (model_loader/default_loader.py
_prepare_weights) and transformers' from_pretrained tries safetensors first, so the pickles
are never served. Eval and vocab named a single pytorch_model.bin of other weights, but not
sharded pickles: a drafter trainer who re-exported the fixed draft that way was scored, and
served, the old weights without a word. Both now name the index, and say nothing when the
pickles hold the same save. A draft saved only as pickle shards is read as transformers
reads it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from huggingface_hub import split_torch_state_dict_into_shards  # noqa: E402
from safetensors.torch import load_file  # noqa: E402

from spec_debug.eagle3.api import check_drafter_vocab, evaluate_drafter  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("sharded_pickle"), seed=1)


def _save_pickle_shards(state: dict, directory: Path) -> None:
    """torch.save shards and their index, as transformers 4.x save_pretrained(
    safe_serialization=False) wrote them (huggingface_hub's splitter, its file pattern)."""
    split = split_torch_state_dict_into_shards(
        state, filename_pattern="pytorch_model{suffix}.bin", max_shard_size="20KB")
    for filename, names in split.filename_to_tensors.items():
        torch.save({name: state[name].contiguous() for name in names}, directory / filename)
    (directory / "pytorch_model.bin.index.json").write_text(json.dumps(
        {"metadata": split.metadata, "weight_map": split.tensor_to_filename}))


def _draft_with_pickles(world: Path, tmp_path: Path, shift: float, *,
                        sharded_safetensors: bool = False) -> Path:
    draft = tmp_path / "draft"
    state = load_file(str(world / "draft" / "model.safetensors"))
    if sharded_safetensors:
        from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig

        config = Eagle3SpeculatorConfig.from_pretrained(str(world / "draft"))
        config.transformer_layer_config._attn_implementation = "eager"
        model = Eagle3DraftModel.from_pretrained(str(world / "draft"), config=config)
        model.save_pretrained(draft, max_shard_size="20KB")
    else:
        shutil.copytree(world / "draft", draft)
    _save_pickle_shards({name: tensor + shift if tensor.is_floating_point() else tensor
                         for name, tensor in state.items()}, draft)
    return draft


def _pickle_notes(result):
    return [note for note in result["notes"] if "pytorch_model" in note]


def _expected(draft: Path) -> list[str]:
    shards = len(list(draft.glob("pytorch_model-*.bin")))
    assert shards > 1
    return [f"{draft / 'pytorch_model.bin.index.json'} and the {shards} shard(s) it names hold "
            "other weights than the safetensors beside it (layers.0.hidden_norm.weight "
            "differs): vLLM, SGLang and transformers (so speculators) load only the "
            "safetensors when both are there, which were read here; the pickles are never "
            "served: delete whichever of the two is the older save of this draft"]


def test_pickle_shards_of_other_weights_beside_the_safetensors_are_named(world, tmp_path):
    draft = _draft_with_pickles(world, tmp_path, 1.0)
    result = evaluate_drafter(draft, world / "data", world / "target")
    alone = evaluate_drafter(world / "draft", world / "data", world / "target")
    assert result["full_accuracy"] == alone["full_accuracy"]  # the safetensors were scored
    assert _pickle_notes(result) == _expected(draft)
    assert _pickle_notes(check_drafter_vocab(draft, world / "target")) == _expected(draft)


def test_beside_safetensors_shards_too(world, tmp_path):
    draft = _draft_with_pickles(world, tmp_path, 1.0, sharded_safetensors=True)
    assert (draft / "model.safetensors.index.json").is_file()
    result = evaluate_drafter(draft, world / "data", world / "target")
    assert _pickle_notes(result) == _expected(draft)


def test_pickle_shards_of_the_same_save_are_not_said(world, tmp_path):
    draft = _draft_with_pickles(world, tmp_path, 0.0)
    result = evaluate_drafter(draft, world / "data", world / "target")
    assert _pickle_notes(result) == []


def test_a_draft_saved_only_as_pickle_shards_is_read_as_transformers_reads_it(world, tmp_path):
    draft = tmp_path / "draft"
    draft.mkdir()
    for name in ("config.json", "config.py"):
        shutil.copy(world / "draft" / name, draft)
    _save_pickle_shards(load_file(str(world / "draft" / "model.safetensors")), draft)
    result = evaluate_drafter(draft, world / "data", world / "target")
    alone = evaluate_drafter(world / "draft", world / "data", world / "target")
    assert result["full_accuracy"] == alone["full_accuracy"]
    assert result["notes"] == alone["notes"]
