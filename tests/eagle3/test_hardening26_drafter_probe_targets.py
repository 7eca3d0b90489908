"""The layout probe computes each sample's targets (the target head's logits over its rows)
once, not once per layout it scores: they do not depend on the layout or the norm flags."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from spec_debug.eagle3 import evaluate as evaluate_module  # noqa: E402
from spec_debug.eagle3.api import probe_layout  # noqa: E402


def test_the_layout_probe_computes_each_samples_targets_once(world, monkeypatch):
    calls = []
    real = evaluate_module._target_ids

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(evaluate_module, "_target_ids", counted)
    report = probe_layout(world.draft, world.data, world.target, max_samples=4)
    # 24 layouts and the flag check scored on 4 samples: 4 target computations (was 100)
    assert report["candidates"] == 24 and report["samples"] == 4
    assert len(calls) == report["samples"]
    assert report["best"] == report["configured"] == [0, 1, 2]


def test_cached_targets_give_the_numbers_computed_afresh(world):
    from spec_debug.eagle3.data import iter_samples
    from spec_debug.eagle3.evaluate import TargetCache, evaluate
    from spec_debug.eagle3.loading import load_draft

    loaded = load_draft(world.draft, world.target)
    samples = list(iter_samples(world.data, max_samples=4))
    cache = TargetCache()
    for layout in [(0, 1, 2), (2, 1, 0), (1, 2, 3)]:
        fresh = evaluate(loaded, samples, steps=2, layout_positions=layout)
        cached = evaluate(loaded, samples, steps=2, layout_positions=layout, targets=cache)
        assert cached.counts == fresh.counts
        assert cached.final_state_post_norm == fresh.final_state_post_norm
    assert cache.computed == len(samples)
