"""SD402 and the layout probe's verdict on the same few rows. Since 5853ed2 the verdict names
another layout only with LAYOUT_MIN_GAIN (5) more rows right, the fewest a sign test tells from
chance (0.5**5 = 3%); SD402, on accuracies alone, still said "error: the served layout is not
the one the drafter fits" beside a verdict of "no layout is clearly the draft's". On a real
speculators world with two aux slots saved swapped and two samples (27 rows, 3 rows apart) it
is now a warning that gives the count and asks for more samples; with three samples (42 rows,
6 apart) it stays an error."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.diagnose.checks.drafter import UNCLEAR_LAYOUT, check_layout  # noqa: E402
from spec_debug.eagle3.api import probe_layout  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("layout_rows"), seed=1)


def _swapped(world: Path, out: Path, samples: int) -> Path:
    out.mkdir()
    for path in sorted((world / "data").glob("hs_*.safetensors"))[:samples]:
        tensors = load_file(str(path))
        tensors["hidden_states"] = tensors["hidden_states"][:, [0, 2, 1, 3]].contiguous()
        save_file(tensors, str(out / path.name))
    return out


def test_three_rows_apart_is_a_warning_that_asks_for_more_samples(world, tmp_path):
    report = probe_layout(world / "draft", _swapped(world, tmp_path / "two", 2), world / "target")
    assert report["best"] == [0, 2, 1] and report["verdict"].startswith(UNCLEAR_LAYOUT)
    # 0.704 vs 0.593: not chance's doing, only too few rows to tell (was "which chance gives")
    assert "3 more of 27 rows right, too few to tell from chance" in report["verdict"]
    [finding] = check_layout(report)
    assert finding.code == "SD402" and finding.severity == "warning"
    assert any(e.startswith("3 more of 27 rows right: too few to tell") for e in finding.evidence)


def test_six_rows_apart_stays_an_error(world, tmp_path):
    report = probe_layout(world / "draft", _swapped(world, tmp_path / "three", 3), world / "target")
    assert "trained on a different layout" in report["verdict"]
    [finding] = check_layout(report)
    assert finding.code == "SD402" and finding.severity == "error"
    assert not any("too few" in e for e in finding.evidence)
