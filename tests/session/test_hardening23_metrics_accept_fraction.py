"""An acceptance percentage with its counts after it is an acceptance rate.

"speculation: 2.00 tokens/forward (20 forwards per 40 tokens) | MTP acceptance 33% (20/60)" (a
run's summary posted in JustVugg/colibri#523) and a verify-loop script's "Accept: 61.2% (245/400)"
gave nothing: the rate words ("acceptance rate") were missing. The fraction of accepted over
drafted tokens after the percentage makes it one, in a text about drafting.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _readings(text):
    return sorted((m.name, m.value, m.unit) for m in extract_metrics(text, prose=False))


@pytest.mark.parametrize("text, value", [
    ("speculation: 2.00 tokens/forward (20 forwards per 40 tokens) | MTP acceptance 33% (20/60)", 33.0),
    ("  TTFT: 182ms\n  Accept: 61.2% (245/400)\n  Draft time: 812ms total (8.1ms/round)\n", 61.2),
])
def test_a_percentage_with_its_counts(text, value):
    assert [r for r in _readings(text) if r[0] == "accept_rate"] == [("accept_rate", value, "%")]


def test_an_acceptance_rate_is_read_once():
    assert _readings("draft acceptance rate: 61.2% (245/400)") == [("accept_rate", 61.2, "%")]


def test_outside_drafting_it_is_none():
    assert _readings("we accepted 10% (1/10) of the PRs") == []
