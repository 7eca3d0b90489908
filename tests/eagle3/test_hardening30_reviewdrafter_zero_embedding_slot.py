"""A sound capture whose aux slot 0 is the embedding output (id 0, which vLLM and speculators'
datagen capture) at a pad token whose embedding row is all zeros (nn.Embedding's padding_idx
keeps it so; speculators copies the verifier's rows into the draft): slot 0 is all zeros there
while the other slots hold states. The lost-layer rule said "a capture that lost a layer
there ... dump the hidden states again" and left out the rows reading it (41 of 42 rows);
those rows are what the draft reads and was trained on. Now such positions are not lost."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("zero_embedding"), seed=1)


def _embedding_slot(world: Path, tmp_path: Path, *, pad_row_zero: bool) -> tuple[Path, Path]:
    """(draft, data): slot 0 holds embed_tokens[ids], hs_1's position 6 a pad token whose
    draft embedding row is zero (or, not `pad_row_zero`, a token whose row is not)."""
    draft, data = tmp_path / "draft", tmp_path / "data"
    draft.mkdir()
    data.mkdir()
    for name in ("config.json",):
        (draft / name).write_text((world / "draft" / name).read_text())
    weights = load_file(str(world / "draft" / "model.safetensors"))
    embed = weights["embed_tokens.weight"].clone()
    pad = int(load_file(str(world / "data" / "hs_1.safetensors"))["token_ids"][6])
    if pad_row_zero:
        embed[pad] = 0
    save_file(weights | {"embed_tokens.weight": embed}, str(draft / "model.safetensors"),
              {"format": "pt"})
    for path in sorted((world / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        states = tensors["hidden_states"]
        states[:, 0] = embed[tensors["token_ids"]].to(states.dtype)
        if path.name == "hs_1.safetensors":
            states[6, 0] = 0
        save_file(tensors, str(data / path.name))
    return draft, data


def test_a_zero_pad_embedding_in_the_embedding_slot_is_not_a_lost_layer(world, tmp_path):
    draft, data = _embedding_slot(world, tmp_path, pad_row_zero=True)
    result = evaluate_drafter(draft, data, world / "target")
    assert result["counts"]["full_total"][0] == 42
    assert not [n for n in result["notes"] if "lost a layer" in n]


def test_a_zero_slot_at_a_token_that_embeds_to_nonzero_is_still_lost(world, tmp_path):
    draft, data = _embedding_slot(world, tmp_path, pad_row_zero=False)
    result = evaluate_drafter(draft, data, world / "target")
    assert result["counts"]["full_total"][0] == 41
    [note] = [n for n in result["notes"] if "lost a layer" in n]
    assert note.startswith("1 of 3 samples have 1 position(s) where slot(s) 0 of the")
