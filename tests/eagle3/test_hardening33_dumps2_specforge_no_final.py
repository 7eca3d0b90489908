"""A SpecForge dump (data_<i>.ckpt: input_ids, loss_mask, aux_hidden_state [1, T, 3H],
hidden_state [1, T, H], scripts/prepare_hidden_states.py) whose files lost `hidden_state`.
Eval and layout ran with the data's next tokens as targets (right) but the note said "a
speculators dump always ends with the final layer: if this is one, it holds 2 aux states and
was made for another draft": wrong for SpecForge, whose aux key holds every aux state and whose
final state sits under its own key. Now the note names the missing key."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter, probe_layout  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = save_informative_world(tmp_path_factory.mktemp("sf_no_final"), seed=1)
    out = root / "specforge" / "rows_0-3"
    out.mkdir(parents=True)
    for i, path in enumerate(sorted((root / "data").glob("hs_*.safetensors"))):
        tensors = load_file(str(path))
        states = tensors["hidden_states"]
        T = states.shape[0]
        torch.save({"input_ids": tensors["token_ids"], "loss_mask": torch.ones(T, dtype=torch.long),
                    "aux_hidden_state": states[:, :-1].reshape(T, -1)[None].contiguous()},
                   out / f"data_{i}.ckpt")
    return root


def test_a_specforge_dump_without_hidden_state_is_named_so(world):
    result = evaluate_drafter(world / "draft", world / "specforge", world / "target", steps=1)
    layout = probe_layout(world / "draft", world / "specforge", world / "target")
    for notes in (result["notes"], layout["notes"]):
        note = next(n for n in notes if "no final-layer slot" in n)
        assert "`hidden_state`" in note and "SpecForge" in note
        assert "speculators dump" not in note


def test_two_aux_states_without_hidden_state_do_not_claim_a_hidden_size(world, tmp_path):
    """aux_hidden_state of 2 states (captured for another draft) and no hidden_state: the
    reader guessed the hidden size as width / 3 and said "width 64 is not a multiple of the
    hidden size 21", a size no model here has."""
    from spec_debug.eagle3.data import DataError, read_samples

    path = tmp_path / "data_0.ckpt"
    T, H = 5, 32
    torch.save({"input_ids": torch.arange(T), "loss_mask": torch.ones(T, dtype=torch.long),
                "aux_hidden_state": torch.randn(1, T, 2 * H)}, path)
    (error,) = list(read_samples(path))
    assert isinstance(error, DataError)
    assert "hidden size 21" not in str(error)
    assert "`hidden_state`" in str(error) and "64 wide" in str(error)
