"""An hs_<i>.safetensors whose hidden_states keep the batch dim of one around the captured
layers concatenated along hidden, [1, T, S*H] (torch.cat(layers, dim=-1) of model outputs,
SpecForge's aux_hidden_state shape written under speculators' name). It was called "slots
first (1 states of T tokens)" with the hint to transpose, which gives [T, 1, S*H], still not
one slot per layer. Now it is named a batch of one with the layers concatenated, and the fix
is to stack them without the batch dim."""

from __future__ import annotations

from safetensors.torch import load_file, save_file

from tests.eagle3._world import drafter_error, informative_world

world = informative_world("h44_batched_concat", seed=44)


def test_a_batch_of_concatenated_layers_is_not_called_slots_first(world, tmp_path):
    data = tmp_path / "dump"
    data.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        states = tensors["hidden_states"]  # [T, 4, 32]
        save_file({"token_ids": tensors["token_ids"],
                   "hidden_states": states.reshape(1, states.shape[0], -1).contiguous()},
                  str(data / f"hs_{i}.safetensors"))
    message = drafter_error(world, data)
    assert ("hs_0.safetensors: hidden_states has shape [1, 14, 128], a batch of one with the "
            "layers concatenated (128 wide per token)") in message, message
    assert "torch.stack([layer states..., final layer state], dim=1)" in message
    assert "slots first" not in message and "transpose" not in message
