"""`drafter layout` on a dump of every layer's hidden state that does not name its slots,
with two layers saved swapped (slot 4 holds layer 6's state and slot 6 layer 4's: a dumper
that writes its captures in the order they were registered). The draft reads layers [2, 4,
5], so the true layout of this dump is slots [2, 6, 5]. The pruned search only looked around
the first slots (eval's guess for an unnamed dump): with the other positions at [0, 1, 2],
slot 6 did not rank among the best few in its position, and the probe named [2, 4, 5]
(0.524) "so the draft fits its config; pass --layout 2,4,5", a layout that loses a sixth of
the hits. Two slots swapped inside the layout ([4, 2, 5] for slots 2<->4) were never
scored either: the search's one-slot changes skipped a slot already in the layout. Now the
search also looks around the best layout it has scored, a slot already in the layout trades
places, and the true layout is named (0.690, what the draft scores on the unswapped dump). Saved by speculators 0.9.0
(tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import probe_layout  # noqa: E402
from tests.eagle3.speculators_world import NL, save_informative_world  # noqa: E402
from tests.eagle3.test_hardening32_drafter_every_layer_dump import _every_layer_dump  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """(root, a dump of all 9 hidden states + the final slot, unnamed)."""
    from transformers import LlamaForCausalLM

    root = save_informative_world(tmp_path_factory.mktemp("hardening75_swap"), seed=1)
    verifier = LlamaForCausalLM.from_pretrained(str(root / "target")).eval()
    return root, _every_layer_dump(root, verifier, root / "wide", range(0, NL + 1))


def _swapped(wide, out, a: int, b: int):
    out.mkdir()
    for path in sorted(wide.glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        hidden = tensors["hidden_states"].clone()
        hidden[:, [a, b]] = hidden[:, [b, a]]
        tensors["hidden_states"] = hidden
        save_file(tensors, str(out / path.name))
    return out


@pytest.mark.parametrize("a, b, true", [(4, 6, [2, 6, 5]), (2, 4, [4, 2, 5]), (5, 8, [2, 4, 8])])
def test_two_layers_saved_swapped_are_found(world, tmp_path, a, b, true):
    root, wide = world
    report = probe_layout(root / "draft", _swapped(wide, tmp_path / "data", a, b),
                          root / "target")
    assert not report["exhaustive"]
    # was [2, 4, 5] (0.524), [4, 5, 2] (0.548), [2, 8, 4] (0.548)
    assert report["best"] == true
    assert report["ranked"][0]["full_accuracy0"] == 29 / 42  # as on the unswapped dump
    assert "pass --layout 2,4,5" not in report["verdict"]
    assert report["verdict"].startswith(f"slots {true} scores 0.690")


def test_the_unswapped_dump_still_names_the_configured_layers(world):
    root, wide = world
    report = probe_layout(root / "draft", wide, root / "target")
    assert report["best"] == [2, 4, 5]
    assert report["ranked"][0]["full_accuracy0"] == 29 / 42
    assert report["verdict"].endswith("so the draft fits its config; pass --layout 2,4,5")
