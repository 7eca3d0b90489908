"""A SpecForge dump (data_<i>.ckpt: input_ids, loss_mask, aux_hidden_state [1, T, 3H],
hidden_state [1, T, H], scripts/prepare_hidden_states.py) whose `hidden_state` was saved
wrong (the aux concatenation saved under it too, or a slice of the last state) while its aux
states are exactly what the draft's fc takes. The reader takes the hidden size from
`hidden_state`, so the eval and layout said "the hidden states are 96 wide, the draft's fc
takes 3 x 32: this dump comes from another target model", or "aux_hidden_state width 96 is
not a multiple of the hidden size 64": both blame the aux states, which are right. Now the
final state is named as the one saved wrong. Built from a world speculators saved."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter, probe_layout  # noqa: E402
from spec_debug.eagle3.data import DataError  # noqa: E402
from tests.eagle3.speculators_world import H, save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return save_informative_world(tmp_path_factory.mktemp("sf_final_width"), seed=1)


def _dump(world, name, final):
    """A SpecForge dump of the world's samples whose hidden_state is final(states, aux)."""
    out = world / name / "rows_0-3"
    out.mkdir(parents=True)
    for i, path in enumerate(sorted((world / "data").glob("hs_*.safetensors"))):
        tensors = load_file(str(path))
        states = tensors["hidden_states"]  # [T, 3 aux + final, H]
        T = states.shape[0]
        aux = states[:, :-1].reshape(T, -1)[None].contiguous()  # [1, T, 3H]
        torch.save({"input_ids": tensors["token_ids"], "loss_mask": torch.ones(T, dtype=torch.long),
                    "aux_hidden_state": aux, "hidden_state": final(states, aux).contiguous()},
                   out / f"data_{i}.ckpt")
    return world / name


def _refusals(world, data):
    messages = []
    for run in (lambda: evaluate_drafter(world / "draft", data, world / "target", steps=1),
                lambda: probe_layout(world / "draft", data, world / "target")):
        with pytest.raises(DataError) as caught:
            run()
        messages.append(str(caught.value))
    return messages


def test_the_right_dump_is_read(world):
    data = _dump(world, "right", lambda states, aux: states[:, -1][None])
    assert evaluate_drafter(world / "draft", data, world / "target", steps=1)["samples"] == 3


@pytest.mark.parametrize("name, final, width", [
    ("aux_saved_twice", lambda states, aux: aux.clone(), 3 * H),
    ("half_of_the_state", lambda states, aux: states[:, -1, : H // 2][None], H // 2),
])
def test_a_final_state_of_another_width_is_named_not_the_aux(world, name, final, width):
    data = _dump(world, name, final)
    for message in _refusals(world, data):
        assert f"`hidden_state` is {width} wide, but `aux_hidden_state` holds 3 x {H}" in message
        assert "the final state was saved wrong" in message
        assert "another target model" not in message


def test_a_final_state_the_aux_width_does_not_divide_is_named_not_the_aux(world):
    data = _dump(world, "twice_the_state", lambda states, aux: torch.cat([states[:, -1]] * 2, -1)[None])
    for message in _refusals(world, data):
        assert f"hidden_state is {2 * H} wide and aux_hidden_state {3 * H}" in message
        assert f"aux_hidden_state is 3 states of {H}, as SpecForge captures, so hidden_state was " \
               "saved wrong" in message
        assert "not a multiple of the hidden size" not in message
