"""One speedup for each method, read once (review of d5294ed).

d5294ed reads the factors after a first speedup that each name their method ("1.52x (EAGLE3) and
0.97x (ngram)"). A later factor that carries its own word ("0.97x speedup (ngram)") is also
read by the speedup scan itself, so it was read twice (old tree: once), and a chain after it
("..., 1.1x (MTP)") twice more from there. Each factor is read once now.
"""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import scan_metrics


@pytest.mark.parametrize("text, speedups", [
    ("1.52x speedup (EAGLE3) and 0.97x speedup (ngram)", [1.52, 0.97]),
    ("1.52x speedup with EAGLE3 and 0.97x speedup with ngram", [1.52, 0.97]),
    ("1.52x speed-up (EAGLE3) and 0.97x speed-up (ngram)", [1.52, 0.97]),
    ("1.52x speedup (EAGLE3), 0.97x speedup (ngram), 1.1x (MTP)", [1.52, 0.97, 1.1]),
    # (the day's readings stay)
    ("1.52x speedup (EAGLE3) and 0.97x (ngram)", [1.52, 0.97]),
    ("1.8x speedup with EAGLE-3, 1.1x with ngram, and 1.3x (MTP)", [1.8, 1.1, 1.3]),
])
def test_each_factor_is_read_once(text, speedups):
    assert [m.value for m in scan_metrics(text, prose=True) if m.name == "speedup"] == speedups
