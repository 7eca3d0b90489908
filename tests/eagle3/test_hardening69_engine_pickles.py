"""A draft folder that holds its weights only as torch.save files under other names than
pytorch_model.bin (model.pt, model.bin): transformers' from_pretrained, so speculators and the
drafter evaluation, cannot load it, but vLLM 0.34.0 and SGLang 0.5.23 can. Their loaders take
the first of "*.safetensors", "*.bin", "*.pt" that matches any file here, then drop only
training_args.bin, optimizer.bin, optimizer.pt, scheduler.pt and scaler.pt
(vllm/model_executor/model_loader/default_loader.py _prepare_weights and weight_utils.py
filter_files_not_needed_for_inference; sglang/srt/model_loader/loader.py and weight_utils.py,
the same code). Before, the refusal named the file and asked for model.safetensors, silent on
what the server does with the folder: it serves model.pt, or loads a trainer's state file as
weights too, or (a *.bin that it skips shadowing the *.pt) finds no weights at all."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402

runner = CliRunner()


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("h69_pickles")
    save_verifier_and_draft(root)
    return root


@pytest.fixture
def draft(base, tmp_path) -> Path:
    """The draft folder with model.safetensors replaced by nothing (the caller writes the
    torch.save files)."""
    root = tmp_path / "case"
    shutil.copytree(base, root)
    state = load_file(str(root / "draft" / "model.safetensors"))
    (root / "draft" / "model.safetensors").unlink()
    torch.save(state, root / "state.pt")
    return root / "draft"


def _save(draft: Path, name: str) -> None:
    shutil.copy(draft.parent / "state.pt", draft / name)


def _error(draft: Path) -> str:
    result = runner.invoke(drafter_app, ["vocab", "--model", str(draft), "--target",
                                         str(draft.parent / "target"), "--json"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, result.output
    return " ".join(result.output.split())


def _read_note(draft: Path) -> str:
    """The note of a folder read as the engines serve it (hardening 69, later: these were
    refused, while the server ran them; see test_hardening69_eval_model_pt.py)."""
    result = runner.invoke(drafter_app, ["vocab", "--model", str(draft), "--target",
                                         str(draft.parent / "target"), "--json"])
    assert result.exit_code == 0, result.output
    (note,) = [n for n in json.loads(result.output)["notes"] if "weights were read from" in n]
    return note


def test_only_model_pt_says_the_engines_serve_it(draft):
    _save(draft, "model.pt")
    note = _read_note(draft)
    assert note.startswith(f"the draft's weights were read from {draft / 'model.pt'}, the file "
                           "vLLM and SGLang serve from this folder (with no *.safetensors they "
                           "load every *.bin, else every *.pt); transformers' from_pretrained "
                           "(so speculators) cannot load it"), note


def test_model_bin_is_what_the_engines_serve(draft):
    _save(draft, "model.bin")
    _save(draft, "model.pt")
    note = _read_note(draft)
    assert f"read from {draft / 'model.bin'}, the file vLLM and SGLang serve" in note, note
    assert note.endswith("; model.pt not read (the engines do not load it here)"), note


def test_a_trainer_state_pt_is_loaded_as_weights_too(draft):
    """speculators' Checkpointer writes optimizer_state_dict.pt beside the weights
    (src/speculators/train/checkpointer.py); the engines' skip list does not name it."""
    _save(draft, "model.pt")
    torch.save({"state": {}, "param_groups": []}, draft / "optimizer_state_dict.pt")
    torch.save({"last_epoch": 1}, draft / "scheduler.pt")
    error = _error(draft)
    assert "vLLM and SGLang would serve model.pt" in error, error
    assert ("and would load optimizer_state_dict.pt as weights too (they skip only "
            "training_args.bin, optimizer.bin, optimizer.pt, scheduler.pt and scaler.pt)") \
        in error, error


def test_a_skipped_bin_hides_the_pt_from_the_engines(draft):
    """transformers' Trainer writes training_args.bin; a *.bin here is matched before *.pt is
    looked for, and it is then dropped: the server finds no weights."""
    _save(draft, "model.pt")
    torch.save({"output_dir": "x"}, draft / "training_args.bin")
    error = _error(draft)
    assert ("vLLM and SGLang find no weights here either: they take training_args.bin (*.bin "
            "is matched before *.pt), then skip it (\"Cannot find any model weights\")") \
        in error, error
    assert "would serve" not in error


def test_a_wrapped_state_dict_in_model_pt_is_not_served(draft):
    """torch.save({"state_dict": model.state_dict()}, "model.pt") (a Lightning-style wrapper):
    the engines iterate the file's top-level items (vLLM weight_utils.py pt_weights_iterator,
    SGLang's copy) and meet one name, "state_dict"."""
    torch.save({"state_dict": torch.load(draft.parent / "state.pt", weights_only=True),
                "epoch": 3}, draft / "model.pt")
    error = _error(draft)
    assert ("vLLM and SGLang would load model.pt but read its top-level entries as weights, "
            "and its tensors are nested under 'state_dict': SGLang drops that unknown name and "
            "runs the draft on unloaded weights, vLLM stops on it; transformers' "
            "from_pretrained (so speculators) cannot load it either") in error, error
    assert "would serve" not in error
