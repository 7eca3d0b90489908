"""An FP8 dump of speculators' connector dequantized to bfloat16 with
hs_connectors.fp8_utils.dequantize_fp8_tensor, hidden_states_scales kept beside the states, is
read right by `drafter eval` (the states are in scale; hardening71) and scored with no word.
But speculators' training through hs_connectors' fp8 backend multiplies the states by the
scales whenever the key is there (transfer.py FP8Transfer._dequantize, 0.9.0): a draft
trained on those files saw every state shrunk by its token's amax / 448. The evaluation now
says so, naming the files; the connector's own dump (FP8 values beside their scales) and the
FP8 values cast up keep no such note."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.eagle3._world import drafter_json, informative_world, torch

pytest.importorskip("hs_connectors")
from hs_connectors.fp8_utils import dequantize_fp8_tensor, quantize_tensor_to_fp8  # noqa: E402
from hs_connectors.transfer import FP8Transfer  # noqa: E402
from safetensors.torch import load_file, save_file  # noqa: E402

world = informative_world("h72_scales_kept_note", seed=72)


def _dump(world: Path, out: Path, payload, count: int = 3) -> Path:
    out.mkdir()
    for i in range(count):
        tensors = load_file(str(world / "data" / f"hs_{i % 3}.safetensors"))
        fp8, scales = quantize_tensor_to_fp8(tensors["hidden_states"])
        save_file({"token_ids": tensors["token_ids"],
                   "hidden_states": payload(fp8, scales).contiguous(),
                   "hidden_states_scales": scales.contiguous()},
                  str(out / f"hs_{i}.safetensors"))
    return out


def _kept(out: dict) -> list[str]:
    return [n for n in out["notes"] if "hidden_states_scales kept beside them" in n]


def test_a_dequantized_copy_with_its_scales_is_said_to_train_double_scaled(world, tmp_path):
    data = _dump(world, tmp_path / "bf16",
                 lambda fp8, scales: dequantize_fp8_tensor(fp8, scales, dtype=torch.bfloat16),
                 count=4)
    # what the training reads of such a file: the states scaled a second time
    trained = FP8Transfer(data)._dequantize(load_file(str(data / "hs_0.safetensors")))
    stored = load_file(str(data / "hs_0.safetensors"))
    ratio = (trained["hidden_states"].float().abs().amax((1, 2))
             / stored["hidden_states"].float().abs().amax((1, 2)))
    assert torch.allclose(ratio, stored["hidden_states_scales"].reshape(-1), rtol=0.02)
    out = drafter_json(world, data)
    assert out["samples"] == 4
    assert _kept(out) == [
        "4 of 4 samples hold hidden_states already in scale with hidden_states_scales kept "
        "beside them (hs_0.safetensors, hs_1.safetensors, hs_2.safetensors, ...): scored as "
        "they are, but speculators' training through the hs_connectors fp8 backend multiplies "
        "them by the scales again (FP8Transfer._dequantize does whenever the scales are there), "
        "each state shrunk by its token's amax / 448; drop hidden_states_scales from these "
        "files, or train with the file backend"], out["notes"]


@pytest.mark.parametrize("payload", [
    lambda fp8, scales: fp8,
    lambda fp8, scales: fp8.to(torch.bfloat16),
], ids=["connector-fp8", "fp8-values-cast"])
def test_fp8_values_beside_their_scales_have_no_note(world, tmp_path, payload):
    out = drafter_json(world, _dump(world, tmp_path / "fp8", payload))
    assert out["samples"] == 3 and _kept(out) == [], out["notes"]


def test_drafter_layout_says_it_too(world, tmp_path):
    data = _dump(world, tmp_path / "bf16",
                 lambda fp8, scales: dequantize_fp8_tensor(fp8, scales, dtype=torch.bfloat16))
    out = drafter_json(world, data, "layout")
    assert _kept(out) == [
        "3 of 3 samples hold hidden_states already in scale with hidden_states_scales kept "
        "beside them (hs_0.safetensors, hs_1.safetensors, hs_2.safetensors): scored as "
        "they are, but speculators' training through the hs_connectors fp8 backend multiplies "
        "them by the scales again (FP8Transfer._dequantize does whenever the scales are there), "
        "each state shrunk by its token's amax / 448; drop hidden_states_scales from these "
        "files, or train with the file backend"], out["notes"]
    plain = drafter_json(world, _dump(world, tmp_path / "fp8", lambda fp8, scales: fp8), "layout")
    assert _kept(plain) == [], plain["notes"]
