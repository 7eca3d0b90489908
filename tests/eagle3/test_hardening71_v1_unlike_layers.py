"""speculators' earlier data_*.pt dump ("v1": `hidden_states`, a list of one [T, Ht] tensor
per captured layer) whose layers disagree with each other. A list holding one entry of
another width (logits, another model's states) was refused as "hidden_states holds shapes
[(14, 32), (14, 64)]; expected 4 x [14, hidden] for 14 input_ids: the ids and the states of
this sample are of different sequences ...; dump it again with the ids the states were
computed for", blaming ids that match every layer; one layer shorter than the others was
blamed on the ids as well. The refusal now names the layers that differ, and how."""

from __future__ import annotations

from pathlib import Path

import pytest
from safetensors.torch import load_file

from tests.eagle3._world import drafter_error, informative_world, torch

from spec_debug.eagle3.data import DataError, read_sample

world = informative_world("h71_v1_unlike_layers", seed=71)


def _v1_dump(world: Path, out: Path, change) -> Path:
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        states = tensors["hidden_states"]
        layers = [states[:, j].clone() for j in range(states.shape[1])]
        change(layers)
        torch.save({"input_ids": tensors["token_ids"],
                    "loss_mask": torch.ones(states.shape[0], dtype=torch.long),
                    "hidden_states": layers}, out / f"data_{i}.pt")
    return out


def _wider_second(layers):
    layers[1] = torch.cat([layers[1], layers[1]], -1)


def _shorter_second(layers):
    layers[1] = layers[1][:-1].clone()


@pytest.mark.parametrize("command", ["eval", "layout"])
def test_a_layer_of_another_width_is_not_blamed_on_the_ids(world, tmp_path, command):
    data = _v1_dump(world, tmp_path / "wide", _wider_second)
    message = drafter_error(world, data, command)
    assert "ids and the states of this sample are of different sequences" not in message, message
    assert ("data_0.pt: the 4 layers of hidden_states are of different widths [32, 64] "
            "(0: [14, 32], 1: [14, 64], 2: [14, 32], 3: [14, 32]): the layers of one target "
            "share its hidden size, so an entry of the list is no hidden state of it") in message, \
        message
    assert ("hint: save one [tokens, hidden] tensor per captured layer of the target, the "
            "final layer's last") in message, message


def test_a_layer_of_another_length_is_named(world, tmp_path):
    data = _v1_dump(world, tmp_path / "short", _shorter_second)
    with pytest.raises(DataError) as caught:
        read_sample(data / "data_0.pt")
    assert caught.value.message.endswith(
        "data_0.pt: the 4 layers of hidden_states are of different lengths [13, 14] "
        "(0: [14, 32], 1: [13, 32], 2: [14, 32], 3: [14, 32]), input_ids 14: the list mixes "
        "the states of different sequences (one layer cut to a max length, or kept from "
        "another prompt)"), caught.value.message
    assert caught.value.hint == ("dump the sample again, every layer from the one forward "
                                 "pass over its input_ids")


def test_layers_alike_but_longer_than_the_ids_keep_the_ids_cause(world, tmp_path):
    """One common shape of another length than input_ids is the ids' fault, as before."""
    def one_more(layers):
        layers[:] = [torch.cat([layer, layer[-1:]]) for layer in layers]

    data = _v1_dump(world, tmp_path / "longer", one_more)
    with pytest.raises(DataError) as caught:
        read_sample(data / "data_0.pt")
    assert "holds shapes [(15, 32)]; expected 4 x [14, hidden] for 14 input_ids: one id fewer " \
           "than states" in caught.value.message, caught.value.message
