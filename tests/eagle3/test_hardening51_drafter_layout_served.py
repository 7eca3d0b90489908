"""`drafter layout --served IDS` when those ids cannot be scored as a layout of the draft.

The probe ranks layouts of as many distinct slots as the draft's fc takes. `--served 2,4` (a
layer left out), `--served 2,4,5,8` (the final layer pasted with the aux ones) or a layer named
twice were left out of the ranking, and looking their score up ended in "error: unexpected
StopIteration ... this looks like a spec-debug bug". Ids the dump does not hold, or any ids on
a dump that names no slots, were dropped with no word although --served is documented as
"always scored". Now each says why it was not scored. Saved by speculators 0.9.0, its hidden
states named by layer_ids metadata as a wide dump names them."""

from __future__ import annotations

import json
import shutil

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from tests.conftest import run_cli  # noqa: E402
from tests.eagle3.speculators_world import AUX, NL, save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """The informative world, and a copy of its dump naming its slots [2, 4, 5, 8]."""
    root = save_informative_world(tmp_path_factory.mktemp("hardening51_served"), seed=51)
    named = root / "named"
    shutil.copytree(root / "data", named)
    for path in named.glob("hs_*.safetensors"):
        save_file(load_file(str(path)), str(path), metadata={"layer_ids": json.dumps(AUX + [NL])})
    return root


def _layout(world, data, served: str):
    return run_cli("drafter", "layout", "--model", str(world / "draft"), "--data", str(data),
                   "--target", str(world / "target"), "--served", served, "--json")


@pytest.mark.parametrize("served, why", [
    ("2,4", "2 layer id(s), the draft's fc takes 3"),
    ("2,4,5,8", "4 layer id(s), the draft's fc takes 3"),
    ("2,2,4", "a layer named twice"),
    ("3,5,6", "the dump holds no layer [3, 6] (its layer_ids metadata names [2, 4, 5, 8])"),
])
def test_served_ids_that_are_no_layout_of_the_dump_say_why(world, served, why):
    result = _layout(world, world / "named", served)
    assert result.code == 0, result.stderr  # was exit 1, "unexpected StopIteration"
    report = json.loads(result.stdout)
    assert "served" not in report
    ids = [int(i) for i in served.split(",")]
    assert f"served layers {ids} not scored: {why}" in " ".join(report["notes"])


def test_served_ids_the_dump_holds_are_scored(world):
    report = json.loads(_layout(world, world / "named", "4,2,5").stdout)
    assert report["served"] == [1, 0, 2] and report["served_layer_ids"] == [4, 2, 5]
    assert not any(note.startswith("served layers") for note in report["notes"])


def test_served_ids_on_a_dump_naming_no_slots_are_said_not_scored(world):
    result = run_cli("drafter", "layout", "--model", str(world / "draft"), "--data",
                     str(world / "data"), "--target", str(world / "target"), "--served", "2,4,5")
    assert result.code == 0, result.stderr
    assert ("--served 2,4,5 not scored: the dump does not name its slots"
            in " ".join(result.stdout.split()))
