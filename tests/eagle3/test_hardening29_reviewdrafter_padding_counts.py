"""The every-position rerun (loss_masks all zero) tells a sample's tail padding from zero rows
inside it by the last written position. Round 29 counted the tail from the last scored row:
a zero run right before a sample's last (written) row leaves that row out too, and was said as
"1 of 3 samples end in 5 position(s) zero" with no word of the gap; and without a target
(data-token reference) every sample's last row, which has no next token, was said as padding
("3 of 3 samples end in 3 position(s) zero" of a dump with no zero row)."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402
from tests.eagle3.test_hardening29_drafter_inner_padding import rerun_dump  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("padding_counts")
    world = save_informative_world(root / "world", seed=1)
    rerun_dump(world, world / "plain", None)
    rerun_dump(world, world / "gap_before_last", slice(10, 14))  # 4 of 15, the last one written
    return world


def test_a_gap_before_the_last_row_is_no_tail(world):
    result = evaluate_drafter(world / "draft", world / "gap_before_last", world / "target")
    assert result["counts"]["full_total"][0] == 37  # 42 rows, 5 of hs_1's left out
    assert not [n for n in result["notes"] if " end in " in n]  # was: 'end in 5 position(s)'
    [note] = [n for n in result["notes"] if "before their last written one" in n]
    assert note.startswith("1 of 3 samples") and "the 5 row(s) that read those zeros" in note


def test_the_data_token_reference_last_row_is_no_padding(world):
    result = evaluate_drafter(world / "draft", world / "plain", None, find_verifier=False)
    assert result["counts"]["full_total"][0] == 39  # every row but each sample's last
    assert not [n for n in result["notes"] if " end in " in n or "before their last" in n]
