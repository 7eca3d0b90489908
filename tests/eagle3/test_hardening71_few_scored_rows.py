"""A loss_mask that leaves few rows to score (only the last tokens of each sample) gave a
report of "samples 3   tokens 42" and accuracies with no word that they rested on 6 rows:
read as if all 42 positions had been scored. `drafter eval` now notes how many positions
the mask left scored, and the 95% binomial uncertainty of an accuracy over so few, when they
are under MIN_SCORED_ROWS (100: +-10 points at 0.5) and half of the positions or fewer."""

from __future__ import annotations

from pathlib import Path

import pytest
from safetensors.torch import load_file, save_file

from spec_debug.eagle3.evaluate import MIN_SCORED_ROWS, _few_rows_note
from tests.eagle3._world import drafter_json, informative_world, torch

world = informative_world("h71_few_scored_rows", seed=71)


def _masked(world: Path, out: Path, keep_last: int | None) -> Path:
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        if keep_last is not None:
            mask = torch.zeros(tensors["token_ids"].shape[0], dtype=torch.long)
            mask[-keep_last:] = 1
            tensors["loss_mask"] = mask
        save_file(tensors, str(out / f"hs_{i}.safetensors"))
    return out


def _few(out: dict) -> list[str]:
    return [n for n in out["notes"] if "scored at step 0" in n]


@pytest.mark.parametrize("keep_last", [1, 2, 3])
def test_a_mask_leaving_few_rows_is_said_with_the_count(world, tmp_path, keep_last):
    out = drafter_json(world, _masked(world, tmp_path / "few", keep_last))
    scored = int(out["counts"]["full_total"][0])
    assert 0 < scored <= 3 * keep_last < out["tokens"], out["counts"]
    half = round(100 * 1.96 * 0.5 / scored ** 0.5)
    assert _few(out) == [
        f"the loss mask leaves {scored} of {out['tokens']} rows (3 samples of "
        f"{out['tokens'] + 3} tokens: a sample of T tokens has T - 1 rows) scored at step 0: an "
        f"accuracy over so few rows is uncertain by up to +-{half} points (95% binomial "
        "interval; under 100 rows it passes +-10); evaluate on more samples before comparing "
        "drafts or layouts"], out["notes"]


@pytest.mark.parametrize("keep_last", [None, 10_000], ids=["no-mask", "mask-keeps-all"])
def test_no_note_when_the_mask_drops_nothing(world, tmp_path, keep_last):
    out = drafter_json(world, _masked(world, tmp_path / "all", keep_last))
    assert _few(out) == [], out["notes"]


def test_the_note_stops_at_min_scored_rows():
    assert _few_rows_note(MIN_SCORED_ROWS - 1, 5000, 3)
    assert _few_rows_note(MIN_SCORED_ROWS, 5000, 3) == []
    assert _few_rows_note(MIN_SCORED_ROWS - 1, 5000, 0) == []  # no mask: no mask's note
    assert _few_rows_note(0, 5000, 3) == []  # nothing scored has its own note
    assert _few_rows_note(50, 100, 3) and _few_rows_note(51, 100, 3) == []  # keeps over half
