"""Samples saved from a padded batch (each file padded to 40 tokens, an attention_mask marking
the pad) with a loss mask keeping a few tokens of each: the evaluation cuts the pad off and
counts the rows of what is left. Before, its few-rows note said "12 of 42 rows (3 samples of
45 tokens ...)" of files a user counts 120 tokens in (3 x 40), which read as 75 tokens lost.
Now the note says the pad positions were cut and the tokens the files hold: "3 samples of 45
tokens once the 75 pad position(s) their attention_mask marks were cut from the 120 the files
hold". Samples without padding keep the words they had."""

from __future__ import annotations

from pathlib import Path

from safetensors.torch import load_file, save_file

from spec_debug.eagle3.evaluate import _few_deep_rows_note, _few_rows_note
from tests.eagle3._world import drafter_json, informative_world, padded_sample, torch

world = informative_world("h73_padded_rows", seed=73)
WIDTH = 40


def _padded(world: Path, out: Path) -> tuple[Path, int, int]:
    """3 samples right-padded to WIDTH tokens, the loss mask on their last 4 real tokens;
    (folder, tokens unpadded, tokens the files hold)."""
    out.mkdir()
    real = held = 0
    for i in range(3):
        source = world / "data" / f"hs_{i}.safetensors"
        T = int(load_file(str(source))["token_ids"].shape[0])
        ids, states, attention = padded_sample(source, "right", WIDTH - T)
        loss = torch.zeros(WIDTH, dtype=torch.long)
        loss[T - 4:T] = 1
        save_file({"token_ids": ids, "hidden_states": states, "attention_mask": attention,
                   "loss_mask": loss}, str(out / f"hs_{i}.safetensors"))
        real += T
        held += WIDTH
    return out, real, held


def test_the_few_rows_note_says_the_pad_was_cut_from_the_tokens_the_files_hold(world, tmp_path):
    data, real, held = _padded(world, tmp_path / "padded")
    out = drafter_json(world, data)
    assert out["tokens"] == real - 3
    [note] = [n for n in out["notes"] if "scored at step 0" in n]
    assert note.startswith(
        f"the loss mask leaves {int(out['counts']['full_total'][0])} of {real - 3} rows (3 samples of "
        f"{real} tokens once the {held - real} pad position(s) their attention_mask marks were cut "
        f"from the {held} the files hold: a sample of T tokens has T - 1 rows) scored at step 0: "), note
    assert any(n.startswith(f"3 of 3 samples carry an attention_mask marking {held - real} pad")
               for n in out["notes"]), out["notes"]


def test_the_notes_alone():
    [one] = _few_rows_note(6, 39, 3, 3, 21)
    assert "6 of 39 rows (3 samples of 42 tokens once the 21 pad position(s) their attention_mask " \
           "marks were cut from the 63 the files hold: " in one
    [deep] = _few_deep_rows_note([120, 80, 40], 120, 40, 10)
    assert "(step 0 on 120 of 120 rows (40 samples of 160 tokens once the 10 pad position(s) their " \
           "attention_mask marks were cut from the 170 the files hold: " in deep
    # no padding: the words of before
    [plain] = _few_rows_note(6, 39, 3, 3)
    assert "6 of 39 rows (3 samples of 42 tokens: a sample of T tokens has T - 1 rows)" in plain
