"""The few-scored-rows notes said "the loss mask leaves 6 of 141 positions scored at step 0" of
3 samples a user counted 144 tokens in (len(token_ids) of each file): the figure is the rows
after speculators' shift_batch, one fewer per sample (the last token predicts nothing in its
sample), read as positions it contradicted the user's count. The notes now call the figure
rows and give the tokens it comes from, counted as the user counts them."""

from __future__ import annotations

from pathlib import Path

from safetensors.torch import load_file, save_file

from spec_debug.eagle3.evaluate import _few_deep_rows_note, _few_rows_note
from tests.eagle3._world import drafter_json, informative_world, torch

world = informative_world("h72_rows_wording", seed=72)


def _last_two_scored(world: Path, out: Path) -> tuple[Path, int]:
    """3 samples whose loss_mask keeps their last 2 tokens; and their tokens, as a user counts."""
    out.mkdir()
    counted = 0
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        mask = torch.zeros(tensors["token_ids"].shape[0], dtype=torch.long)
        mask[-2:] = 1
        tensors["loss_mask"] = mask
        counted += len(tensors["token_ids"])
        save_file(tensors, str(out / f"hs_{i}.safetensors"))
    return out, counted


def test_the_note_names_rows_and_the_tokens_a_user_counted(world, tmp_path):
    data, counted = _last_two_scored(world, tmp_path / "few")
    out = drafter_json(world, data)
    [note] = [n for n in out["notes"] if "scored at step 0" in n]
    assert out["tokens"] == counted - 3  # the rows: one fewer per sample
    assert note.startswith(
        f"the loss mask leaves {int(out['counts']['full_total'][0])} of {counted - 3} rows "
        f"(3 samples of {counted} tokens: a sample of T tokens has T - 1 rows) scored at step "
        "0: "), note
    assert "positions" not in note


def test_the_notes_alone():
    [one] = _few_rows_note(6, 39, 3, 3)
    assert one.startswith("the loss mask leaves 6 of 39 rows (3 samples of 42 tokens: a sample "
                          "of T tokens has T - 1 rows) scored at step 0"), one
    [single] = _few_rows_note(6, 13, 1, 1)
    assert "of 13 rows (1 sample of 14 tokens:" in single, single
    [deep] = _few_deep_rows_note([120, 80, 40], 120, 40)
    assert deep.startswith("steps 1, 2 rest on 80, 40 scored rows (step 0 on 120 of 120 rows "
                           "(40 samples of 160 tokens: a sample of T tokens has T - 1 rows)): "
                           "each step drops a row of every sample"), deep
