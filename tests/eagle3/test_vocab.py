"""Vocab-map checks fire on the failure modes seen in the wild and stay quiet on a correct map
(EAGLE3.md section 6 item 7)."""

from __future__ import annotations

import random

from spec_debug.eagle3.vocab import check_vocab_maps

V, DV = 1000, 200


def correct_map(seed: int = 0):
    rng = random.Random(seed)
    selected = sorted(rng.sample(range(V), DV))
    d2t = [target - i for i, target in enumerate(selected)]
    t2d = [False] * V
    for target in selected:
        t2d[target] = True
    return selected, d2t, t2d


def kinds(report):
    return sorted({issue.kind for issue in report.issues})


def codes(report):
    return sorted({issue.code for issue in report.issues})


def test_a_correct_map_passes():
    _, d2t, t2d = correct_map()
    report = check_vocab_maps(d2t=d2t, t2d=t2d, target_vocab_size=V, draft_vocab_size=DV,
                              embed_rows=V)
    assert report.ok and report.issues == []
    assert report.to_dict()["ok"] is True


def test_full_vocab_without_maps_passes():
    report = check_vocab_maps(d2t=None, t2d=None, target_vocab_size=V, draft_vocab_size=V,
                              embed_rows=V)
    assert report.ok


def test_missing_d2t_fires():
    report = check_vocab_maps(d2t=None, t2d=None, target_vocab_size=V, draft_vocab_size=DV)
    assert kinds(report) == ["d2t_missing"] and codes(report) == ["SD301"]


def test_absolute_ids_instead_of_offsets_fire():
    selected, _, t2d = correct_map()
    report = check_vocab_maps(d2t=selected, t2d=t2d, target_vocab_size=V, draft_vocab_size=DV)
    assert "d2t_not_offsets" in kinds(report)
    assert codes(report) == ["SD302"]
    # without t2d the absolute map still shows: i + id runs past the vocabulary
    alone = check_vocab_maps(d2t=selected, t2d=None, target_vocab_size=V, draft_vocab_size=DV)
    assert {"d2t_not_offsets", "d2t_out_of_range"} <= set(kinds(alone))


def test_offsets_that_disagree_with_t2d_fire():
    _, d2t, t2d = correct_map(0)
    _, _, other_t2d = correct_map(1)
    report = check_vocab_maps(d2t=d2t, t2d=other_t2d, target_vocab_size=V, draft_vocab_size=DV)
    assert kinds(report) == ["d2t_t2d_mismatch"]


def test_all_zero_d2t_fires():
    _, _, t2d = correct_map()
    report = check_vocab_maps(d2t=[0] * DV, t2d=t2d, target_vocab_size=V, draft_vocab_size=DV)
    assert "d2t_all_zero" in kinds(report)


def test_wrong_t2d_length_and_embed_rows_fire():
    _, d2t, t2d = correct_map()
    report = check_vocab_maps(d2t=d2t, t2d=t2d[:-10], target_vocab_size=V, draft_vocab_size=DV,
                              embed_rows=V - 10)
    assert {"t2d_length", "embed_rows"} <= set(kinds(report))
    assert "SD303" in codes(report)


def test_tensors_are_accepted():
    import pytest

    torch = pytest.importorskip("torch")
    selected, d2t, t2d = correct_map()
    report = check_vocab_maps(d2t=torch.tensor(d2t), t2d=torch.tensor(t2d),
                              target_vocab_size=V, draft_vocab_size=DV)
    assert report.ok
