"""metrics: a legend after a bold pair names its sides.

"140 tok/s vs 95 tok/s (baseline vs EAGLE-3)" followed its legend (round 60), but in Markdown
bold ("**140 tok/s** vs **95 tok/s** (baseline vs EAGLE-3)", as agents write their summaries)
the closing stars stood between the unit and the legend, so it was ignored: two throughputs, no
baseline and no speedup told. The legend is now read past the bold's closing stars.
"""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import scan_metrics


def _readings(text: str) -> list[tuple[str, float]]:
    return sorted((m.name, m.value) for m in scan_metrics(text, True))


@pytest.mark.parametrize("text", [
    "**140 tok/s** vs **95 tok/s** (baseline vs EAGLE-3).",
    "**95 tok/s** vs **140 tok/s** (EAGLE-3 vs baseline).",
    "**140 vs 95 tok/s** (baseline vs EAGLE-3).",
])
def test_the_legend_names_the_baseline(text):
    assert _readings(text) == [("baseline_throughput", 140.0), ("throughput", 95.0)]


def test_a_legend_naming_no_baseline_leaves_them():
    assert _readings("**140 tok/s** vs **95 tok/s** (EAGLE-3 vs MTP).") == [("throughput", 95.0), ("throughput", 140.0)]
