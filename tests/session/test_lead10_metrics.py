"""Throughput prose the way people write it in a debugging session."""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import extract_metrics


def _readings(text: str) -> list[tuple[str, float]]:
    return [(m.name, m.value) for m in extract_metrics(text) if m.unit == "tok/s"]


@pytest.mark.parametrize("text, expected", [
    # the unit written once for two numbers
    ("Throughput improved from 54.8 to 91.2 tok/s after the fix.", [("throughput", 54.8), ("throughput", 91.2)]),
    ("54.8 vs 90 tok/s baseline", [("baseline_throughput", 90.0), ("throughput", 54.8)]),
    ("baseline: 90 vs 54.8 tok/s", [("baseline_throughput", 90.0), ("throughput", 54.8)]),
    ("Speculative decoding now gives ~1.46x over the no-spec baseline (131.5 vs 90.1 tok/s).",
     [("baseline_throughput", 90.1), ("throughput", 131.5)]),
    # a baseline with its own number, in parentheses after a reading, is not that reading
    ("Before: 54.8 tok/s, after: 91.2 tok/s (baseline 90 tok/s).",
     [("baseline_throughput", 90.0), ("throughput", 54.8), ("throughput", 91.2)]),
    ("90 tok/s (baseline)", [("baseline_throughput", 90.0)]),
    # llama.cpp's and people's "t/s"
    ("We get 54.8 t/s vs 90 t/s baseline", [("baseline_throughput", 90.0), ("throughput", 54.8)]),
    ("what/s 12 items", []),
    # a count range is no reading
    ("batch sizes from 1 to 64, got 54.8 tok/s", [("throughput", 54.8)]),
])
def test_throughput_prose(text, expected):
    assert _readings(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("accept length went from 1.6 to 3.2", [("accept_length", 1.6, "tokens"), ("accept_length", 3.2, "tokens")]),
    ("The acceptance rate dropped from 62% to 31%.", [("accept_rate", 62.0, "%"), ("accept_rate", 31.0, "%")]),
    ("acceptance rate from 0.62 to 0.31", [("accept_rate", 0.62, "ratio"), ("accept_rate", 0.31, "ratio")]),
    ("accept rate is 0.55 to be honest", [("accept_rate", 0.55, "ratio")]),
    ("accept length from the log was bad", []),
])
def test_accept_prose_from_one_number_to_another(text, expected):
    assert [(m.name, m.value, m.unit) for m in extract_metrics(text)] == expected
