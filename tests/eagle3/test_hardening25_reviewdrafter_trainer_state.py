"""training_state.pt files that torch.load(weights_only=True) reads but trainer_state missed.

Review of ba82f9e/33f0ca2 (trainer_state reads the pickle without running it): its unpickler
knew only _rebuild_tensor_v2, so a draft saved in float8 (a ModelOpt FP8 draft's weights) or
uint16, which torch pickles with _rebuild_tensor_v3, and a tensor carrying a Python attribute
(_rebuild_from_type_v2) lost those tensors: a draft with its fc.weight in fp8 was called "not
an EAGLE-3 draft's". A legacy (non-zip) torch.save file was not read at all (the weights-missing
line, with the weights right there). A DDP-wrapped draft's names (module.fc.weight) got a
save_file fix that keeps the prefix no loader strips. A pickle naming one dict from many keys
at every level was walked as a tree (exponential). The weights are speculators' own draft."""

from __future__ import annotations

import argparse
import json
import pickle
import threading
import zipfile
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3 import trainer_state  # noqa: E402
from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402

runner = CliRunner()
# The EAGLE repo's EAGLE-3 config (a LlamaConfig with draft_vocab_size), tiny
EAGLE_CONFIG = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama",
                "hidden_size": 32, "intermediate_size": 64, "num_attention_heads": 4,
                "num_key_value_heads": 2, "num_hidden_layers": 1, "vocab_size": 256,
                "draft_vocab_size": 128, "rms_norm_eps": 1e-6, "max_position_embeddings": 128}


@pytest.fixture(scope="module")
def draft(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("h25_reviewdrafter_state")
    save_verifier_and_draft(root)
    return {"root": root, "weights": load_file(str(root / "draft" / "model.safetensors"))}


def _epoch(draft: dict, out: Path, weights: dict, **save: object) -> Path:
    """An epoch folder: the draft's config.json and a training_state.pt holding epoch, args
    and, under 'model', the given weights (torch.save keywords in save)."""
    out.mkdir()
    (out / "config.json").write_text((draft["root"] / "draft" / "config.json").read_text())
    state = {"epoch": 2, "args": argparse.Namespace(lr=1e-4), "model": weights}
    torch.save(state, out / "training_state.pt", **save)
    return out


def _vocab(model: Path) -> str:
    result = runner.invoke(drafter_app, ["vocab", "--model", str(model)])
    assert result.exit_code != 0 and "Traceback" not in result.output, result.output
    return " ".join(result.output.split())


def _with_attribute(weights: dict) -> dict:
    tagged = dict(weights)
    tagged["fc.weight"] = weights["fc.weight"].clone()
    tagged["fc.weight"].trained_epochs = 2  # pickled through torch._tensor._rebuild_from_type_v2
    return tagged


@pytest.mark.parametrize("form", ["float8_e4m3fn", "uint16", "attribute", "legacy"])
def test_a_drafts_weights_are_named_in_every_form_torch_loads(draft, tmp_path, form):
    weights = draft["weights"]
    save = {}
    if form in ("float8_e4m3fn", "uint16"):
        dtype = getattr(torch, form)
        weights = {name: tensor.to(dtype) if tensor.is_floating_point() else tensor
                   for name, tensor in weights.items()}
    elif form == "attribute":
        weights = _with_attribute(weights)
    else:
        save = {"_use_new_zipfile_serialization": False}
    folder = _epoch(draft, tmp_path / "epoch_2", weights, **save)
    shapes = dict(trainer_state.state_dicts(trainer_state.read_structure(
        folder / "training_state.pt")))["['model']"]
    with torch.serialization.safe_globals([argparse.Namespace]):
        loaded = torch.load(folder / "training_state.pt", weights_only=True)["model"]
    assert sorted(shapes) == sorted(loaded)  # every tensor torch itself reads
    output = _vocab(folder)
    assert "training_state.pt holds an EAGLE-3 draft's weights under ['model']" in output
    assert "not an EAGLE-3 draft's" not in output and "weights were not saved" not in output


def test_a_ddp_wrapped_drafts_fix_strips_module_prefix(draft, tmp_path, monkeypatch):
    wrapped = {f"module.{name}": tensor for name, tensor in draft["weights"].items()}
    folder = _epoch(draft, tmp_path / "epoch_2", wrapped)
    output = _vocab(folder)
    assert "every name under module.*" in output
    hint = trainer_state.save_hint(folder / "training_state.pt")
    monkeypatch.chdir(folder)  # the fix names the file as the user runs it, beside it
    expression = hint.split("save_file(", 1)[1].rsplit(", 'model.safetensors')", 1)[0]
    saved = eval(expression, {"torch": torch}, {})  # noqa: S307 - the fix as printed, our file
    assert sorted(saved) == sorted(draft["weights"])


def test_a_pickle_sharing_one_dict_at_every_level_is_read_at_once(tmp_path):
    shared: dict = {"step": 1}
    for _ in range(5):
        shared = {f"k{i}": shared for i in range(60)}  # 60**5 paths, 6 dicts
    path = tmp_path / "training_state.pt"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("archive/data.pkl", pickle.dumps(shared, protocol=2))
    result: list = []
    reader = threading.Thread(target=lambda: result.append(trainer_state.describe(path)),
                              daemon=True)
    reader.start()
    reader.join(timeout=5)
    assert result == [None]


def test_accelerates_stateful_dataloader_state_is_a_trainers_state(tmp_path):
    """accelerate's save_state also writes dl_state_dict.bin (dl_state_dict_<i>.bin) for a
    dataloader made with use_stateful_dataloader (huggingface/accelerate
    src/accelerate/checkpointing.py save_accelerator_state): a dataloader's position, not a
    state dict to convert (review of 263147e, which named optimizer/scheduler/sampler.bin)."""
    folder = tmp_path / "state_3"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(EAGLE_CONFIG))
    torch.save({"param_groups": [], "state": {}}, folder / "optimizer.bin")
    for name in ("dl_state_dict.bin", "dl_state_dict_1.bin"):
        torch.save({"_num_yielded": 40, "_sampler_iter_yielded": 40}, folder / name)
    output = _vocab(folder)
    assert "only a trainer's optimizer/scheduler state (dl_state_dict.bin" in output
    assert "under other names" not in output and "save it as model.safetensors" not in output
