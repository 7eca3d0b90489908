"""A dump saved by speculators' world with one aux layer missing (3 slots, no final one): every
layout scores near zero against the data's next tokens, and one hit more on 39 rows (0.026 vs
0.000) was called "the draft was trained on a different layout than the one configured". The
verdict now wants LAYOUT_MIN_GAIN more rows right before it names another layout."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import probe_layout  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("layout_noise"), seed=1)


def _dump(world: Path, out: Path, slots: list[int]) -> Path:
    out.mkdir()
    for path in sorted((world / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        tensors["hidden_states"] = tensors["hidden_states"][:, slots].contiguous()
        save_file(tensors, str(out / path.name))
    return out


def test_one_hit_more_on_a_dump_missing_a_layer_is_not_another_layout(world, tmp_path):
    report = probe_layout(world / "draft", _dump(world, tmp_path / "missing", [0, 1, 3]),
                          world / "target")
    best = report["ranked"][0]["full_accuracy0"]
    assert best < 0.05 and report["best"] != report["configured"]  # one lucky hit
    assert "trained on a different layout" not in report["verdict"]
    assert report["verdict"].startswith("no layout is clearly the draft's")
    assert "1 more of 39 rows right" in report["verdict"]
    # every sample of the dump was read: --max-samples cannot give more (was "probe more
    # samples (--max-samples)" whatever had been read)
    assert "every sample of the dump was probed" in report["verdict"], report["verdict"]
    assert "--max-samples" not in report["verdict"]


def test_aux_slots_saved_swapped_are_still_named(world, tmp_path):
    report = probe_layout(world / "draft", _dump(world, tmp_path / "swapped", [1, 0, 2, 3]),
                          world / "target")
    assert report["best"] == [1, 0, 2]
    assert "the draft was trained on a different layout" in report["verdict"]
