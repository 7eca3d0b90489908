"""A dump whose last slot, which speculators' loader takes as the target's final layer
(src/speculators/train/data.py `hs[:, -1]`), holds an aux layer's capture again (the datagen
off-by-one of https://github.com/vllm-project/speculators/issues/705): every target the draft
is scored on is that layer's, step-0 accuracy falls to ~0, and eval said nothing. The aux
slots differ from each other, so data._refuse_repeated_slots (which lets the final slot equal
the last aux one, legitimate for an aux id on the target's last layer) passes it. Eval now
names the slot when the draft's aux id for it is not the last layer."""

from __future__ import annotations

import json
from pathlib import Path

from tests.eagle3._world import informative_world, runner, torch  # noqa: F401

from spec_debug.eagle3.commands import drafter_app

world = informative_world("h28_final_copy", seed=3)


def _eval(root: Path, data: str) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(root / "draft"), "--data",
                                         str(root / data), "--target", str(root / "target"),
                                         "--steps", "2", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_eval_names_a_last_slot_that_copies_an_aux_one(world):
    from safetensors.torch import load_file, save_file

    (world / "data_last_copy").mkdir()
    for path in sorted((world / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        states = tensors["hidden_states"].clone()
        states[:, -1] = states[:, -2]  # the draft's aux id 5 of 8 layers, stored twice
        save_file({"token_ids": tensors["token_ids"], "hidden_states": states.contiguous()},
                  str(world / "data_last_copy" / path.name))
    out = _eval(world, "data_last_copy")
    notes = [n for n in out["notes"] if "equals aux slot 2 (layer 5 of 8)" in n]
    assert len(notes) == 1 and "is not the final layer" in notes[0], out["notes"]
    assert not any("equals aux slot" in n for n in _eval(world, "data")["notes"])


def test_a_nan_in_a_specforge_file_names_its_own_key(world):
    """SpecForge's data_<i>.ckpt has no `hidden_states` key (aux_hidden_state [1, T, 3H],
    hidden_state [1, T, H]): the refusal names the key the user can look into."""
    from safetensors.torch import load_file

    tensors = load_file(str(world / "data" / "hs_0.safetensors"))
    ids, states = tensors["token_ids"], tensors["hidden_states"].float()
    aux = states[:, :-1].reshape(1, ids.shape[0], -1).clone()
    aux[0, 2, 5] = float("nan")
    (world / "data_specforge_nan").mkdir()
    torch.save({"input_ids": ids, "loss_mask": torch.ones_like(ids), "aux_hidden_state": aux,
                "hidden_state": states[:, -1][None]}, world / "data_specforge_nan" / "data_0.ckpt")
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(world / "data_specforge_nan"), "--target",
                                         str(world / "target")])
    assert result.exit_code == 2, result.output
    assert "data_0.ckpt: NaN or Inf in the aux_hidden_state (slot 0, 1 of" in result.output, \
        result.output
    assert "Traceback" not in result.output


def test_layout_verdict_names_a_last_slot_that_copies_an_aux_one(world):
    if not (world / "data_last_copy").exists():
        test_eval_names_a_last_slot_that_copies_an_aux_one(world)
    result = runner.invoke(drafter_app, ["layout", "--model", str(world / "draft"), "--data",
                                         str(world / "data_last_copy"), "--target",
                                         str(world / "target"), "--json"])
    assert result.exit_code == 0, result.output
    verdict = json.loads(result.output)["verdict"]
    assert "equals aux slot 2 (layer 5 of 8)" in verdict, verdict
