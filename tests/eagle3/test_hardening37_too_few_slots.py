"""A dump with fewer slots per position than the draft has aux layers (a capture configured
for other layers, or an EAGLE-1 dump of the last state alone) said "the dump has 1 slots per
position, the draft needs 3 aux states" with no word of what to do."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
from safetensors.torch import load_file, save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.cli import app  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.mark.parametrize("slots", [1, 2])
def test_too_few_slots_says_how_many_and_what_to_capture(tmp_path, slots):
    root = save_informative_world(tmp_path / "w", seed=5)
    for path in sorted((root / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        tensors["hidden_states"] = tensors["hidden_states"][:, :slots].contiguous()
        save_file(tensors, str(path))
    result = CliRunner().invoke(app, ["drafter", "eval", "--model", str(root / "draft"),
                                      "--data", str(root / "data"), "--target", str(root / "target")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    text = " ".join(result.output.split())
    noun = "slot" if slots == 1 else "slots"
    assert f"the dump has {slots} {noun} per position, the draft needs 3 aux states" in text
    assert "capture the hidden states again with one slot per layer of the draft's eagle_aux_hidden_state_layer_ids" in text
