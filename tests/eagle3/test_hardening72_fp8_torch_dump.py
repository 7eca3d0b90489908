"""FP8 hidden states in a torch file (SpecForge data_*.ckpt, speculators v1 data_*.pt) were
scored without a word: `drafter eval` printed its accuracy table as for any dump, while the
safetensors reader refuses FP8 states without their hidden_states_scales. No torch-file writer
stores scales beside its states, and torch's cast to float8_e4m3fn saturates at +-448: a plain
cast clipped every larger activation there, a scaled one cannot be read back. Both readers now
refuse such states, and the torch one says why."""

from __future__ import annotations

from pathlib import Path

import pytest
from safetensors.torch import load_file

from tests.eagle3._world import drafter_error, drafter_json, informative_world, torch

world = informative_world("h72_fp8_torch_dump", seed=72)


def _dump(world: Path, out: Path, kind: str, dtype) -> Path:
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        ids, h = tensors["token_ids"], tensors["hidden_states"].float().to(dtype)
        if kind == "specforge":  # SpecForge prepare_hidden_states: torch.save of one dict
            record = {"input_ids": ids, "aux_hidden_state": h[:, :-1].reshape(h.shape[0], -1),
                      "hidden_state": h[:, -1], "loss_mask": torch.ones(len(ids), dtype=torch.long)}
            torch.save(record, out / f"data_{i}.ckpt")
        else:  # speculators v1: hidden_states a list of [T, H] layers
            record = {"input_ids": ids, "hidden_states": [h[:, j] for j in range(h.shape[1])]}
            torch.save(record, out / f"data_{i}.pt")
    return out


def test_torchs_cast_saturates_at_the_formats_largest_value():
    # what the message says of the cast, as this torch does it
    big = torch.tensor([1000.0, -1000.0])
    assert big.to(torch.float8_e4m3fn).float().tolist() == [448.0, -448.0]


@pytest.mark.parametrize("command", ["eval", "layout"])
@pytest.mark.parametrize("kind,key,name", [("specforge", "aux_hidden_state", "data_0.ckpt"),
                                           ("speculators_v1", "hidden_states", "data_0.pt")])
def test_fp8_states_in_a_torch_file_are_refused_with_the_reason(world, tmp_path, command,
                                                                kind, key, name):
    data = _dump(world, tmp_path / "fp8", kind, torch.float8_e4m3fn)
    message = drafter_error(world, data, command)
    assert (f"{name}: {key} is float8_e4m3fn with no scales saved: a cast to it clips every "
            "activation beyond +-448 there, and states divided by a scale to fit cannot be "
            "read back without it; scored, every state would be off hint: dump the hidden "
            "states again in bfloat16 or float32") in message, message


def test_e5m2_names_its_own_largest_value(world, tmp_path):
    data = _dump(world, tmp_path / "e5m2", "specforge", torch.float8_e5m2)
    message = drafter_error(world, data)
    assert "aux_hidden_state is float8_e5m2 with no scales saved: a cast to it clips every " \
           "activation beyond +-57344 there" in message, message


@pytest.mark.parametrize("kind", ["specforge", "speculators_v1"])
def test_the_same_dump_in_bfloat16_is_scored(world, tmp_path, kind):
    out = drafter_json(world, _dump(world, tmp_path / "bf16", kind, torch.bfloat16))
    assert out["samples"] == 3 and not out.get("skipped_samples"), out
