"""A speculators-layout dump of the aux states alone (no final-layer slot: as many slots as the
draft's fc takes) where one file holds one layer in two aux slots (a late-binding capture hook).
The draft reads every slot of such a dump, and the repeated-slot check ran only when fewer
slots were read than the file holds: the file was scored (the layer fed twice) with no word.
Now eval says it reads the draft's slots (SampleSpec.fc_read), and the file is skipped with
the reason; the layout probe, which reads every slot to rank them, still does not refuse it."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter, probe_layout  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def aux_only(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("aux_only")
    world = save_informative_world(root, seed=1)
    out = root / "aux_only"
    out.mkdir()
    for path in sorted((world / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        states = tensors["hidden_states"][:, :3].clone()  # the 3 aux slots, the final one dropped
        if path.name == "hs_2.safetensors":
            states[:, 1] = states[:, 0]  # slot 0's layer stored under slot 1 too
        tensors["hidden_states"] = states.contiguous()
        save_file(tensors, str(out / path.name))
    return root


def test_aux_only_dump_with_a_repeated_slot_skips_its_file(aux_only):
    result = evaluate_drafter(aux_only / "draft", aux_only / "aux_only", aux_only / "target")
    assert result["layout"] == [0, 1, 2]
    [skipped] = result["skipped"]
    assert skipped["file"].endswith("hs_2.safetensors")
    assert skipped["reason"] == (
        "hs_2.safetensors: slots 0 and 1 of the hidden_states are equal at all 16 positions: "
        "one layer captured twice (a hook that stores under the wrong layer id, or a layer "
        "listed twice), so the draft reads it in place of another; fix the capture so each "
        "aux slot holds its own layer and dump again")
    assert result["samples"] == 2


def test_the_layout_probe_still_reads_every_slot_of_it(aux_only):
    result = probe_layout(aux_only / "draft", aux_only / "aux_only", aux_only / "target")
    assert result["skipped"] == []
