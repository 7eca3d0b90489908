"""A count of accepted drafts after "acceptance rate" is no rate, bold or not.

"Acceptance rate: **3** of 4 drafts" was read as an accept rate of 3% once bold values were read
(the count's "of 4" sat behind the "**"), and "acceptance rate: 3 of 4 drafts accepted" always was.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _rates(text):
    return [(m.name, m.value) for m in extract_metrics(text, prose=True) if m.name.startswith("accept")]


@pytest.mark.parametrize("text", [
    "EAGLE3 acceptance rate: **3** of 4 drafts",
    "acceptance rate: 3 of 4 drafts accepted",
    "acceptance rate **2** out of 5",
    "acceptance rate is **5x** lower with the old draft",
])
def test_counts_and_factors_are_no_rate(text):
    assert _rates(text) == []


@pytest.mark.parametrize("text, value", [
    ("Acceptance rate: **62%** for the EAGLE3 draft.", 62.0),
    ("accept rate **0.7** on MT-bench", 0.7),
    ("acceptance rate of 62% of drafts", 62.0),
])
def test_rates_are_read(text, value):
    assert _rates(text) == [("accept_rate", value)]
