"""The named-verifier check (--target vs speculators_config.verifier) on two half-precision
copies of one float32 verifier: the config names a float16 copy, --target is a bfloat16 one.
Rounding float32 to float16 and then to bfloat16 can land on a bfloat16 tie that rounds the
other way than rounding float32 to bfloat16 once (1 + 3 * 2**-8 - 2**-13: 1.015625 vs
1.0078125), so comparing in bfloat16 called the same model "another model (a base and an
instruct model)". Now half types are equal within one step of the coarser one; a norm that
really differs still gets the note."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import resolve_target  # noqa: E402
from spec_debug.eagle3.checkpoint import open_draft  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

NOTE = "is not the verifier the draft's config names"


def _save_as(target: Path, out: Path | None, dtype, norm: torch.Tensor) -> Path:
    """target's files (at out, or in place) with `norm` as the final norm, every tensor in dtype."""
    if out is not None:
        shutil.copytree(target, out)
        target = out
    tensors = load_file(str(target / "model.safetensors"))
    tensors["model.norm.weight"] = norm
    save_file({k: v.to(dtype) for k, v in tensors.items()}, str(target / "model.safetensors"),
              {"format": "pt"})
    return target


def test_two_half_copies_of_one_verifier_are_the_same_model(tmp_path):
    root = save_informative_world(tmp_path / "world", seed=1)
    size = load_file(str(root / "target" / "model.safetensors"))["model.norm.weight"].shape
    trained = 1 + 0.1 * torch.randn(size, generator=torch.Generator().manual_seed(0))
    trained[0] = 1 + 3 * 2 ** -8 - 2 ** -13  # rounds to bfloat16 differently through float16
    assert trained.to(torch.bfloat16)[0] != trained.to(torch.float16).to(torch.bfloat16)[0]

    bf16 = _save_as(root / "target", tmp_path / "bf16_copy", torch.bfloat16, trained)
    other = _save_as(root / "target", tmp_path / "other", torch.bfloat16, trained * 1.5)
    _save_as(root / "target", None, torch.float16, trained)  # the named verifier
    cfg = open_draft(root / "draft").config
    assert not [n for n in resolve_target(bf16, cfg).notes if NOTE in n]
    assert [n for n in resolve_target(other, cfg).notes if NOTE in n]
