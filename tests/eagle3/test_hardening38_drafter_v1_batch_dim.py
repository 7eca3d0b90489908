"""A speculators-v1 style dump (data_<i>.pt: input_ids, hidden_states = one state per captured
layer) written from transformers' `output_hidden_states` as it returns them keeps the batch of
one: a tuple of [1, T, H] tensors, or torch.stack of them, [S, 1, T, H]. The hs safetensors and
SpecForge readers take a leading batch of one; this one refused every file ("hidden_states
holds shapes [(1, 14, 32)]; expected 4 x [14, hidden]"), so the dump could not be evaluated at
all. It now scores exactly as the same states without the batch dimension. The world is saved
by speculators 0.9.0 (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import os

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter, probe_layout  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


def _batched(states: torch.Tensor, kind: str):
    layers = [states[:, j].contiguous() for j in range(states.shape[1])]  # [T, H] each
    if kind == "plain":
        return layers
    if kind == "tuple":
        return tuple(layer[None] for layer in layers)  # [1, T, H] each
    return torch.stack(layers)[:, None].contiguous()  # [S, 1, T, H]


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = save_informative_world(tmp_path_factory.mktemp("v1_batch"), seed=1)
    for kind in ("plain", "tuple", "stacked"):
        out = root / kind
        out.mkdir()
        for i, path in enumerate(sorted((root / "data").glob("hs_*.safetensors"))):
            tensors = load_file(str(path))
            torch.save({"input_ids": tensors["token_ids"][None] if kind != "plain"
                        else tensors["token_ids"],
                        "hidden_states": _batched(tensors["hidden_states"], kind)},
                       out / f"data_{i}.pt")
    return root


@pytest.mark.parametrize("kind", ["tuple", "stacked"])
def test_a_batch_of_one_left_in_scores_as_without_it(world, kind):
    plain = evaluate_drafter(world / "draft", world / "plain", world / "target", steps=2)
    batched = evaluate_drafter(world / "draft", world / kind, world / "target", steps=2)
    assert plain["full_accuracy"][0] > 0.5
    assert batched["samples"] == plain["samples"] == 3 and not batched["skipped"]
    assert batched["full_accuracy"] == plain["full_accuracy"]
    assert batched["target_acceptance"] == plain["target_acceptance"]
    layout = probe_layout(world / "draft", world / kind, world / "target")
    assert "the draft matches this dump's layout" in layout["verdict"]
