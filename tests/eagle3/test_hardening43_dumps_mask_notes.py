"""Loss masks a dump folder gets wrong, said with the files to open. The note on samples
whose loss_mask selects nothing gave only a count ("1 of 3 samples"), not which files;
and a folder mixing a dump with loss masks and one without (two runs copied together)
scored the unmasked files at every position and the others at their mask, with
loss_mask_source taken from the first file alone and no word of the mix."""

from __future__ import annotations

import json
from pathlib import Path

from tests.eagle3._world import informative_world, runner, torch  # noqa: F401

from spec_debug.eagle3.commands import drafter_app
from spec_debug.eagle3.data import write_hs_sample

world = informative_world("h43_mask_notes", seed=3)

LAYER_IDS = [2, 4, 5, 6]  # the draft's aux layers [2, 4, 5] and the final state


def _rewritten(world: Path, name: str, masks: list[str | None]) -> Path:
    """world's hs samples rewritten with loss_mask masks[i] on file i: None (no mask),
    'zero' (selects nothing) or 'assistant' (the first 3 positions left out)."""
    from safetensors.torch import load_file

    out = world / name
    out.mkdir()
    for i, kind in enumerate(masks):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        ids = tensors["token_ids"]
        mask = None
        if kind is not None:
            mask = torch.zeros(ids.shape[0], dtype=torch.long)
            if kind == "assistant":
                mask[3:] = 1
        write_hs_sample(out / f"hs_{i}.safetensors", ids, tensors["hidden_states"],
                        layer_ids=LAYER_IDS, loss_mask=mask)
    return out


def _eval(world: Path, data: Path) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target"),
                                         "--steps", "1", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_an_all_zero_loss_mask_is_named_by_file(world):
    out = _eval(world, _rewritten(world, "zero_mask", ["assistant", "zero", "assistant"]))
    (note,) = [n for n in out["notes"] if "selects no position" in n]
    assert note.startswith("1 of 3 samples (hs_1.safetensors) have a loss mask"), note


def test_a_folder_mixing_masked_and_unmasked_dumps_is_said(world):
    out = _eval(world, _rewritten(world, "mixed", [None, "assistant", "assistant"]))
    (note,) = [n for n in out["notes"] if "have no loss_mask" in n]
    assert note.startswith("1 of 3 samples have no loss_mask (hs_0.safetensors) while the "
                           "other 2 have one"), note
    assert "keep one dump per --data folder" in note, note


def test_one_kind_of_dump_says_no_mix(world):
    for name, masks in (("all_masked", ["assistant"] * 3), ("none_masked", [None] * 3)):
        out = _eval(world, _rewritten(world, name, masks))
        assert not [n for n in out["notes"] if "loss_mask" in n or "loss mask" in n], out["notes"]


def _cut(world: Path, name: str, *, ids_keep: int | None = None, mask_keep: int | None = None
         ) -> Path:
    """world's hs samples, file hs_2's token_ids or loss_mask cut to its first entries."""
    from safetensors.torch import load_file

    out = world / name
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        ids, states = tensors["token_ids"], tensors["hidden_states"]
        mask = torch.ones(ids.shape[0], dtype=torch.long)
        if i == 2:
            ids = ids[:ids_keep] if ids_keep is not None else ids
            mask = mask[:mask_keep] if mask_keep is not None else mask
        write_hs_sample(out / f"hs_{i}.safetensors", ids, states, layer_ids=LAYER_IDS,
                        loss_mask=mask)
    return out


def test_ids_of_another_length_than_the_states_name_the_file_and_the_fix(world):
    out = _eval(world, _cut(world, "short_ids", ids_keep=-3))
    (skipped,) = out["skipped"]
    assert skipped["file"].endswith("hs_2.safetensors"), skipped
    assert "entries, hidden_states" in skipped["reason"], skipped
    assert skipped["reason"].endswith("dump it again with the ids the states were computed "
                                      "for"), skipped


def test_a_loss_mask_of_another_length_names_the_file_and_the_fix(world):
    out = _eval(world, _cut(world, "short_mask", mask_keep=-4))
    (skipped,) = out["skipped"]
    assert skipped["file"].endswith("hs_2.safetensors"), skipped
    assert "loss_mask has" in skipped["reason"], skipped
    assert skipped["reason"].endswith("saving the mask of its own ids"), skipped
