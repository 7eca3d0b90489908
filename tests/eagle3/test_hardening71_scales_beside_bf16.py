"""An FP8 dump of speculators' connector (float8_e4m3fn `hidden_states`, float32
`hidden_states_scales [T, 1, 1]`) that a user dequantized to bfloat16 with
hs_connectors.fp8_utils.dequantize_fp8_tensor, keeping the scales beside the states, was
multiplied by its scales a second time: every state shrank by its token's amax / 448 and the
draft was scored on them with no word. A wider payload beside scales is now read by what it
holds: FP8 values cast up (each token peaking at 448) are scaled, states already in scale
(peaking at scale x 448) are read as they are, and scales that fit neither are refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.eagle3._world import drafter_error, drafter_json, informative_world, torch

pytest.importorskip("hs_connectors")
from hs_connectors.fp8_utils import dequantize_fp8_tensor, quantize_tensor_to_fp8  # noqa: E402
from safetensors.torch import load_file, save_file  # noqa: E402

world = informative_world("h71_scales_beside_bf16", seed=71)


def _dump(world: Path, out: Path, payload) -> Path:
    """world's samples quantized as the FP8 connector does, saved with payload(fp8, scales,
    original states) as hidden_states and the scales beside them."""
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        fp8, scales = quantize_tensor_to_fp8(tensors["hidden_states"])
        save_file({"token_ids": tensors["token_ids"],
                   "hidden_states": payload(fp8, scales, tensors["hidden_states"]).contiguous(),
                   "hidden_states_scales": scales.contiguous()},
                  str(out / f"hs_{i}.safetensors"))
    return out


@pytest.mark.parametrize("command", ["eval", "layout"])
@pytest.mark.parametrize("payload", [
    lambda fp8, scales, h: dequantize_fp8_tensor(fp8, scales, dtype=torch.bfloat16),
    lambda fp8, scales, h: fp8.to(torch.bfloat16),
], ids=["dequantized-bf16", "fp8-values-cast"])
def test_a_wider_payload_reads_as_the_connectors_fp8_dump(world, tmp_path, command, payload):
    fp8 = drafter_json(world, _dump(world, tmp_path / "fp8", lambda f, s, h: f), command)
    wider = drafter_json(world, _dump(world, tmp_path / "wider", payload), command)
    assert wider["samples"] == fp8["samples"] == 3 and not wider.get("skipped_samples"), wider
    if command == "eval":
        assert wider["counts"] == fp8["counts"], (wider["counts"], fp8["counts"])
    else:
        assert wider["ranked"] == fp8["ranked"], (wider["ranked"], fp8["ranked"])


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
def test_states_kept_beside_their_own_scales_read_as_the_plain_dump(world, tmp_path, dtype):
    plain_dir = tmp_path / "plain"
    plain_dir.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        tensors["hidden_states"] = tensors["hidden_states"].to(dtype)
        save_file(tensors, str(plain_dir / f"hs_{i}.safetensors"))
    plain = drafter_json(world, plain_dir)
    kept = drafter_json(world, _dump(world, tmp_path / "kept", lambda f, s, h: h.to(dtype)))
    assert kept["counts"] == plain["counts"], (kept["counts"], plain["counts"])


@pytest.mark.parametrize("command", ["eval", "layout"])
def test_scales_of_other_states_are_refused(world, tmp_path, command):
    data = _dump(world, tmp_path / "other", lambda f, s, h: h * 3)
    message = drafter_error(world, data, command)
    assert ("hs_0.safetensors: hidden_states are bfloat16 beside hidden_states_scales, but "
            "they are neither FP8 values (each token peaking at 448) nor states the scales "
            "were taken from (each peaking at its scale x 448): the scales are not these "
            "states'") in message, message
    assert ("hint: drop hidden_states_scales from files whose hidden_states are already in "
            "scale, or copy the files as the connector wrote them") in message, message
