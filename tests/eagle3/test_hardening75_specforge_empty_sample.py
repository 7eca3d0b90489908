"""A SpecForge dump (rows_*/data_<i>.ckpt) holding an empty sample, or one saved without ids.

Before: a sample of 0 tokens (input_ids, loss_mask and the states all empty: a conversation
that left no tokens after the chat template and max-length cut) was skipped as
"aux_hidden_state has shape [1, 0, 96], expected [1, 0, aux x hidden] for 0 input_ids: the
ids and the states of this sample are of different sequences (one cut to a max length and
not the other, or another prompt's ids)", when both are empty alike; the same sample read
from an hs_<i>.safetensors says "0 token(s), too short to score". A sample whose input_ids
alone are empty was told the same "different sequences". Now the empty sample is "0 token(s),
too short to score", and empty ids beside states are "no ids were saved with the states".
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file  # noqa: E402

from spec_debug.eagle3.data import DataError, read_sample  # noqa: E402
from tests.eagle3._world import drafter_json, informative_world  # noqa: E402

world = informative_world("hardening75-specforge-empty", seed=752)


def _post_norm(world, state):
    """The target's final RMSNorm of state, as SpecForge's hidden_state holds it."""
    weight = load_file(str(world / "target" / "model.safetensors"))["model.norm.weight"]
    x = state.float()
    return (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * weight).to(state.dtype)


def _specforge_dump(world, root, empty: int):
    rows = root / "rows_0-3"
    rows.mkdir(parents=True)
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        ids, states = tensors["token_ids"], tensors["hidden_states"]  # [T], [T, 4, H]
        T = ids.shape[0]
        if i == empty:
            ids, states, T = ids[:0], states[:0], 0
        torch.save({"input_ids": ids, "loss_mask": torch.ones(T, dtype=torch.long),
                    "aux_hidden_state": states[:, :3].reshape(1, T, 3 * states.shape[-1]),
                    "hidden_state": _post_norm(world, states[:, 3])[None]},
                   rows / f"data_{i}.ckpt")
    return root


def test_an_empty_specforge_sample_is_too_short_not_of_another_sequence(world, tmp_path):
    dump = _specforge_dump(world, tmp_path / "specforge", empty=1)
    report = drafter_json(world, dump)
    skipped = [n for n in report["notes"] if "skipped" in n]
    assert skipped == [f"1 sample file(s) skipped; first: {dump}/rows_0-3/data_1.ckpt: 0 "
                       "token(s), too short to score (input_ids and aux_hidden_state are "
                       "empty)"], report["notes"]
    assert report["samples"] == 2


def test_empty_ids_beside_states_are_said_unsaved(world, tmp_path):
    dump = _specforge_dump(world, tmp_path / "specforge", empty=-1)
    path = dump / "rows_0-3" / "data_0.ckpt"
    record = torch.load(path, weights_only=True)
    record["input_ids"] = record["input_ids"][:0]
    record["loss_mask"] = None
    torch.save(record, path)
    with pytest.raises(DataError) as refused:
        read_sample(path)
    assert refused.value.message == (
        f"{path}: aux_hidden_state has shape [1, 14, 96], expected [1, 0, aux x hidden] for 0 "
        "input_ids: no ids were saved with the states (the ids tensor is empty); save the ids "
        "the states were computed for")
