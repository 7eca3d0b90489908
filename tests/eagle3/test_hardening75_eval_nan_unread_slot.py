"""`drafter eval` on a dump of every layer whose layer_ids metadata is one layer off its
tensors (a dumper numbering each layer's output), with NaN in a layer the draft does not read
(slot 7: an fp16 dump's late layer past float16's range). Eval scored the slots the metadata
names as the draft's layers (0.524) and said nothing more: its checks that read every slot of
a few samples refused each sample for the NaN in slot 7, and with no sample left the note
that the metadata is one layer off (slots [2, 4, 5] score 0.690; --layout 2,4,5) was dropped
with no word. `drafter layout` had stopped refusing a NaN slot the draft does not read (round
74); eval now reads the same way: the NaN slot is left out of the checks, and the note comes
back as on the clean dump. A NaN in a slot the note would score drops that reading only.
The draft is saved by speculators 0.9.0 (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.eagle3._world import informative_world, runner, torch  # noqa: F401

from spec_debug.eagle3.commands import drafter_app
from tests.eagle3.test_hardening53_named_layers_off_by_one import _every_layer

world = informative_world("h75_eval_nan_unread", seed=3)

OFF = "the metadata numbers each slot one layer higher than the layer it holds"


def _with_nan(world: Path, clean: Path, name: str, slot: int) -> Path:
    """`clean` with NaN at position 3 of `slot` in every sample, its metadata kept."""
    from safetensors import safe_open
    from safetensors.torch import load_file, save_file

    out = world / name
    out.mkdir()
    for path in sorted(clean.glob("hs_*.safetensors")):
        with safe_open(str(path), "pt") as f:
            metadata = f.metadata()
        tensors = load_file(str(path))
        tensors["hidden_states"] = tensors["hidden_states"].clone()
        tensors["hidden_states"][3, slot] = float("nan")
        save_file(tensors, str(out / path.name), metadata=metadata)
    return out


def _eval(world: Path, data: Path) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target"),
                                         "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_a_nan_in_a_slot_the_draft_does_not_read_keeps_the_off_by_one_note(world):
    clean = _every_layer(world, "data_every_named_up", None, list(range(1, 10)))
    data = _with_nan(world, clean, "data_nan_slot7", 7)
    out = _eval(world, data)
    assert out["layout"] == [1, 3, 4]
    assert out["full_accuracy"][0] == 22 / 42
    [said] = [n for n in out["notes"] if OFF in n]  # was: no such note
    assert said.startswith("the slots [2, 4, 5] the dump's layer_ids metadata names as layers "
                           "[3, 5, 6] score 0.690 at step 0 vs 0.524 ")
    assert "--layout 2,4,5 evaluates with those slots" in said


def test_a_nan_in_a_slot_the_note_would_score_drops_the_reading_only(world):
    clean = _every_layer(world, "data_every_named_up", None, list(range(1, 10)))
    data = _with_nan(world, clean, "data_nan_slot5", 5)
    out = _eval(world, data)
    assert out["layout"] == [1, 3, 4] and out["full_accuracy"][0] == 22 / 42
    assert not any(OFF in n for n in out["notes"]), out["notes"]
