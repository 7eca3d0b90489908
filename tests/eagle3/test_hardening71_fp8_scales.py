"""speculators' FP8 hidden-state connector writes `hidden_states` (float8_e4m3fn, each token
divided by its scale) beside `hidden_states_scales` (float32 [T, 1, 1], amax / 448 clamped to
at least 1e-12: hs_connectors fp8_utils.quantize_tensor_to_fp8). A copy whose scales were
cast to integers (all rounded to 0), or zeroed, multiplied every state to zero, and the
sample was refused as "slot 0 of the hidden_states is all zeros at all 14 positions: the
capture wrote nothing there", blaming a capture that did write; scales of the wrong shape
were refused with no hint. Each is now named as the scales' fault, with the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.eagle3._world import drafter_error, informative_world, torch

pytest.importorskip("hs_connectors")
from hs_connectors.fp8_utils import quantize_tensor_to_fp8  # noqa: E402
from safetensors.torch import load_file, save_file  # noqa: E402

world = informative_world("h71_fp8_scales", seed=71)

FIX = ("hint: copy the files as the connector wrote them (hidden_states_scales, float32 "
       "[tokens, 1, 1], beside hidden_states), or dump the hidden states again in bfloat16")


def _fp8_dump(world: Path, out: Path, damage) -> Path:
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        fp8, scales = quantize_tensor_to_fp8(tensors["hidden_states"])
        save_file({"token_ids": tensors["token_ids"], "hidden_states": fp8,
                   "hidden_states_scales": damage(scales).contiguous()},
                  str(out / f"hs_{i}.safetensors"))
    return out


def test_the_connectors_own_scales_are_read(world, tmp_path):
    from tests.eagle3._world import drafter_json

    out = drafter_json(world, _fp8_dump(world, tmp_path / "fp8", lambda s: s))
    assert out["samples"] == 3 and not out.get("skipped_samples"), out


@pytest.mark.parametrize("command", ["eval", "layout"])
@pytest.mark.parametrize("damage,said", [
    (lambda s: s.long(), "hidden_states_scales is int64, not the float32 scales speculators' "
                         "FP8 connector writes: cast to integers, the scales (amax / 448 per "
                         "token, most under 1) are lost"),
    (torch.zeros_like, "hidden_states_scales holds 14 of 14 scales at zero or below; the FP8 "
                       "connector's are positive (amax / 448 per token, at least 1e-12), so the "
                       "states cannot be read back"),
    (lambda s: s.reshape(-1)[:3], "hidden_states_scales has shape [3], expected one scale per "
                                  "token [14, 1, 1] (speculators FP8 hidden-state format)"),
], ids=["integer", "zero", "shape"])
def test_scales_that_are_not_the_connectors_are_named(world, tmp_path, command, damage, said):
    data = _fp8_dump(world, tmp_path / "dump", damage)
    message = drafter_error(world, data, command)
    assert "the capture wrote nothing there" not in message, message
    assert f"hs_0.safetensors: {said}" in message, message
    assert FIX in message, message
