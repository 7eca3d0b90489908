"""The layout probe's "no layout is clearly the draft's" verdict ended with "check the draft
and the dump's targets (see the notes)" even when the report had no notes at all (a real
speculators world, two aux slots saved swapped, two samples: `notes` []), sending the user to
look for something that is not there. It points to the notes only when the report has some."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.diagnose.checks.drafter import UNCLEAR_LAYOUT  # noqa: E402
from spec_debug.eagle3.api import probe_layout  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("layout_notes"), seed=1)


def _dump(world: Path, out: Path, slots: list[int], samples: int = 3) -> Path:
    out.mkdir()
    for path in sorted((world / "data").glob("hs_*.safetensors"))[:samples]:
        tensors = load_file(str(path))
        tensors["hidden_states"] = tensors["hidden_states"][:, slots].contiguous()
        save_file(tensors, str(out / path.name))
    return out


def test_no_notes_no_pointer_to_them(world, tmp_path):
    report = probe_layout(world / "draft", _dump(world, tmp_path / "two", [0, 2, 1, 3], 2),
                          world / "target")
    assert report["verdict"].startswith(UNCLEAR_LAYOUT) and report["notes"] == []
    assert report["verdict"].endswith("check the draft and the dump's targets"), report["verdict"]
    assert "see the notes" not in report["verdict"]


def test_notes_present_keep_the_pointer(world, tmp_path):
    # a dump missing the final slot: the report notes that targets are the data's tokens
    report = probe_layout(world / "draft", _dump(world, tmp_path / "missing", [0, 1, 3]),
                          world / "target")
    assert report["verdict"].startswith(UNCLEAR_LAYOUT) and report["notes"]
    assert report["verdict"].endswith("check the draft and the dump's targets (see the notes)")
