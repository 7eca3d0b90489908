"""speculators' prepared dataset beside its hidden_states/ lends row i's loss_mask to hs_i.
That row mask was flattened with reshape(-1) and cast to bool without the rule the files'
own masks follow: a row holding a mask folded in two ([2, T/2]) scored positions it was not
made for, and a row of HF labels (-100 at the prompt) scored every position, both with no
word. The row mask now passes the same check as a file's mask; [T], [1, T] and [T, 1] rows
read as before."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
datasets = pytest.importorskip("datasets")

from safetensors.torch import load_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("h71_row_mask_shape"), seed=71)


def _mask(T: int) -> list[int]:
    """A prompt / answer mask: the first third unscored."""
    return [0] * (T // 3) + [1] * (T - T // 3)


def _dataset(world: Path, root: Path, row_mask) -> Path:
    hidden = root / "hidden_states"
    shutil.copytree(world / "data", hidden)
    rows = []
    for i in range(3):
        ids = load_file(str(hidden / f"hs_{i}.safetensors"))["token_ids"].tolist()
        rows.append({"input_ids": ids, "loss_mask": row_mask(i, len(ids))})
    datasets.Dataset.from_list(rows).save_to_disk(str(root))
    return hidden


def _folded(i: int, T: int):
    flat = _mask(T)
    if i != 0:
        return [flat]  # [1, T] (an arrow column holds lists of lists throughout)
    k = next(k for k in range(2, T + 1) if T % k == 0)
    return [flat[r * (T // k):(r + 1) * (T // k)] for r in range(k)]


def test_a_folded_row_mask_is_refused_for_its_file(world, tmp_path):
    hidden = _dataset(world, tmp_path / "dataset", _folded)
    result = evaluate_drafter(world / "draft", hidden, world / "target")
    T = len(load_file(str(hidden / "hs_0.safetensors"))["token_ids"])
    k = next(k for k in range(2, T + 1) if T % k == 0)
    [skipped] = result["skipped"]
    assert skipped["reason"] == (
        f"hs_0.safetensors: row 0 of {tmp_path / 'dataset'}: loss_mask has shape "
        f"[{k}, {T // k}], {k} rows for the {T} positions of the sample, not one entry per "
        f"position ([{T}] or [1, {T}]): flattened, its entries would stand for positions "
        "they were not made for"), skipped


def test_labels_in_a_row_mask_are_refused(world, tmp_path):
    def labels(i: int, T: int):
        return [-100 if m == 0 else 1 for m in _mask(T)] if i == 1 else _mask(T)
    hidden = _dataset(world, tmp_path / "dataset", labels)
    result = evaluate_drafter(world / "draft", hidden, world / "target")
    [skipped] = result["skipped"]
    assert skipped["reason"].startswith(
        f"hs_1.safetensors: row 1 of {tmp_path / 'dataset'}: loss_mask holds values outside "
        "0 and 1 (e.g. -100)"), skipped


def test_one_entry_per_position_rows_read_as_before(world, tmp_path):
    flat = evaluate_drafter(world / "draft", _dataset(world, tmp_path / "flat",
                                                      lambda i, T: _mask(T)), world / "target")
    assert not flat["skipped"], flat["skipped"]
    assert flat["counts"]["full_total"][0] < sum(
        len(load_file(str(world / "data" / f"hs_{i}.safetensors"))["token_ids"]) for i in range(3))
    for name, shape in [("row", lambda i, T: [_mask(T)]),
                        ("column", lambda i, T: [[m] for m in _mask(T)])]:
        out = evaluate_drafter(world / "draft", _dataset(world, tmp_path / name, shape),
                               world / "target")
        assert not out["skipped"], (name, out["skipped"])
        assert out["counts"] == flat["counts"], (name, out["counts"], flat["counts"])
