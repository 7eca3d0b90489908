"""A speculators draft saved without fc.weight (a linear layer, not a norm): round 28's hint for
missing weights said speculators' from_pretrained starts them "fresh (a norm at 1.0)", which
is what it does with norm.weight; fc.weight it starts at random (std 0.02: loaded here with
speculators 0.9.0). Now the hint says what each kind starts as."""

from __future__ import annotations

import shutil

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from spec_debug.eagle3.checkpoint import CheckpointError  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.mark.parametrize("dropped, fresh", [
    (("fc.weight",), "at random"),
    (("fc.weight", "norm.weight"), "at random, a norm at 1.0"),
])
def test_the_hint_says_a_missing_linear_layer_starts_at_random(tmp_path, dropped, fresh):
    world = save_informative_world(tmp_path / "world", seed=1)
    draft = tmp_path / "draft"
    shutil.copytree(world / "draft", draft)
    tensors = load_file(str(draft / "model.safetensors"))
    for name in dropped:
        del tensors[name]
    save_file(tensors, str(draft / "model.safetensors"), metadata={"format": "pt"})
    with pytest.raises(CheckpointError) as refused:
        evaluate_drafter(draft, world / "data", world / "target")
    assert f"from_pretrained starts them fresh ({fresh});" in refused.value.hint
