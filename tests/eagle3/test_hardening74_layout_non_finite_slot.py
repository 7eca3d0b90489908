"""`drafter layout` on a wide dump (every layer's hidden state) with NaN/Inf in a layer the
draft does not read: an fp16 dump's last layers, past float16's range. Every sample was
skipped ("NaN or Inf in the hidden_states (slot 7, ...)") and the probe ended in "no usable
samples", ranking nothing. Now that slot is left out of the candidate layouts with a note
naming it (in how many samples, where first), and the other slots are ranked: the draft's
configured layers [2, 4, 5] are found as before (0.690). A NaN in a slot the draft is
configured to read still refuses the sample, and `--served` ids that name the bad slot are
said not scored. Saved by speculators 0.9.0 (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import json

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import probe_layout  # noqa: E402
from spec_debug.eagle3.data import DataError  # noqa: E402
from tests.eagle3.speculators_world import NL, save_informative_world  # noqa: E402
from tests.eagle3.test_hardening32_drafter_every_layer_dump import _every_layer_dump  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """(root, a dump of all 9 hidden states + the final slot, unnamed)."""
    from transformers import LlamaForCausalLM

    root = save_informative_world(tmp_path_factory.mktemp("hardening74_nan_slot"), seed=1)
    verifier = LlamaForCausalLM.from_pretrained(str(root / "target")).eval()
    return root, _every_layer_dump(root, verifier, root / "wide", range(0, NL + 1))


def _damaged(wide, out, slot: int, layer_ids=None):
    """The wide dump with NaN at position 3 of `slot` in every sample (named by layer_ids)."""
    out.mkdir()
    for path in sorted(wide.glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        hidden = tensors["hidden_states"].clone()
        hidden[3, slot] = float("nan")
        tensors["hidden_states"] = hidden
        save_file(tensors, str(out / path.name),
                  metadata={"layer_ids": json.dumps(layer_ids)} if layer_ids else None)
    return out


def test_a_nan_layer_the_draft_does_not_read_is_left_out_of_the_ranking(world, tmp_path):
    root, wide = world
    data = _damaged(wide, tmp_path / "data", slot=7)
    report = probe_layout(root / "draft", data, root / "target")  # was "no usable samples"
    assert report["best"] == [2, 4, 5]
    assert report["ranked"][0]["full_accuracy0"] == 29 / 42  # the configured layers, as before
    assert report["candidates"] == 71  # the pruned search over the 8 finite slots, around
    # the first slots and then around the best (the config's [2, 4, 5]), swaps included
    # (round 75: was 36)
    assert not any(7 in r["layout"] for r in report["ranked"])
    assert ("slot 7 holds NaN or Inf in 3 of 3 samples (first hs_0.safetensors: 1 of 14 "
            "positions, first at 3): left out of the candidate layouts; the slots the draft "
            "is configured to read are finite") in report["notes"]
    assert report["verdict"].endswith("so the draft fits its config; pass --layout 2,4,5")


def test_a_nan_layer_the_draft_reads_still_refuses_the_samples(world, tmp_path):
    root, wide = world
    data = _damaged(wide, tmp_path / "data", slot=4)
    with pytest.raises(DataError) as refused:
        probe_layout(root / "draft", data, root / "target")
    assert refused.value.message.endswith(
        "no usable samples (3 sample file(s) skipped; first: hs_0.safetensors: NaN or Inf in "
        "the hidden_states (slot 4, 1 of 14 positions, first at 3))")


def test_served_layers_on_the_nan_slot_are_said_not_scored(world, tmp_path):
    root, wide = world
    # the dump names its slots: layers 0..8, the final state last
    data = _damaged(wide, tmp_path / "data", slot=7, layer_ids=list(range(NL + 1)) + [NL])
    report = probe_layout(root / "draft", data, root / "target", served_layer_ids=[2, 4, 7])
    assert "served" not in report
    assert report["best"] == [2, 4, 5]
    assert ("served layers [2, 4, 7] not scored: slot(s) [7] hold NaN or Inf (see the note "
            "above)") in report["notes"]
    assert any(n.startswith("slot 7 (layer 7) holds NaN or Inf in 3 of 3 samples")
               for n in report["notes"])
