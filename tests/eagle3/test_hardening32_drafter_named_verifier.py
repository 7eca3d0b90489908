"""A speculators draft whose config names its verifier (speculators_config.verifier, here on
disk), checked with --target pointing at another model of the same architecture and sizes
(a base model beside the instruct one the draft was trained on). The note for another
verifier compares architectures only, so nothing was said and eval scored the draft against
the wrong model's head. Now, when the named verifier is here and its final norm differs from
--target's, a note names both and what to do; a copy of the named verifier elsewhere (or in
bfloat16) is no other model and gets no note."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter, resolve_target  # noqa: E402
from spec_debug.eagle3.checkpoint import open_draft  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

NOTE = "is not the verifier the draft's config names"


def _other_model(target: Path, out: Path) -> Path:
    """target's files with another final norm: the same kind of model, other weights."""
    shutil.copytree(target, out)
    tensors = load_file(str(out / "model.safetensors"))
    tensors["model.norm.weight"] = tensors["model.norm.weight"] * 1.5
    save_file(tensors, str(out / "model.safetensors"), {"format": "pt"})
    return out


def _notes(root: Path, target: Path) -> list[str]:
    result = evaluate_drafter(root / "draft", root / "data", target, steps=1, max_samples=1)
    return [note for note in result["notes"] if NOTE in note]


def test_a_target_other_than_the_named_verifier_is_said(tmp_path):
    root = save_informative_world(tmp_path / "world", seed=1)
    # a trained norm: float32 values that bfloat16 rounds (the initial ones it holds exactly)
    named = root / "target" / "model.safetensors"
    tensors = load_file(str(named))
    norm = tensors["model.norm.weight"]
    tensors["model.norm.weight"] = 1 + 0.1 * torch.randn(norm.shape, generator=torch.Generator().manual_seed(0))
    save_file(tensors, str(named), {"format": "pt"})
    other = _other_model(root / "target", tmp_path / "base_model")

    [note] = _notes(root, other)
    assert note.startswith(f"--target {other} is not the verifier the draft's config names "
                           f"({root / 'target'}, found at {root / 'target'}): their final "
                           "norms differ")
    assert note.endswith("pass that one as --target (or leave --target out), or if the draft "
                         "was trained on this one, the config's verifier is stale")

    # what eval, layout and diagnose resolve --target with, without a forward
    cfg = open_draft(root / "draft").config
    copy = tmp_path / "copy_of_target"
    shutil.copytree(root / "target", copy)
    half = tmp_path / "bf16_copy_of_target"  # the same model saved in bfloat16
    shutil.copytree(root / "target", half)
    tensors = load_file(str(half / "model.safetensors"))
    save_file({k: v.to(torch.bfloat16) for k, v in tensors.items()},
              str(half / "model.safetensors"), {"format": "pt"})
    for target in (root / "target", copy, half):
        assert not [n for n in resolve_target(target, cfg).notes if NOTE in n]
    # --no-verifier: the config's verifier is never read
    assert not [n for n in resolve_target(other, cfg, find_verifier=False).notes if NOTE in n]
    assert [n for n in resolve_target(other, cfg).notes if NOTE in n] == [note]
