"""A speedup written without its "x" after a separator, and a speedup of another task named before.

"EAGLE-3 speedup = 2.05 (AR 45.2 -> 92.7 tok/s)" and "speedup: 1.37" gave no speedup: the factor
needed its "x" (and a text without an "x" was not even looked at). A percentage, a unit, a count
or a time after the number is still none. "compile speedup: 1.8" and "prefill speedup 1.2x" name
another task than decoding before the word, as "a speedup in compile time" does after it.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _speedups(text):
    return [m.value for m in extract_metrics(text, prose=True) if m.name == "speedup"]


@pytest.mark.parametrize("text,factor", [
    ("EAGLE-3 speedup = 2.05 (AR 45.2 \u2192 92.7 tok/s)", 2.05),
    ("MTP speedup: 1.37", 1.37),
    ("decode_speedup=1.42 accept_rate=0.6 (eagle3, k=3)", 1.42),
    ("Spec decoding speedup: **0.87** with k=5", 0.87),
])
def test_a_bare_factor_after_a_separator(text, factor):
    assert _speedups(text) == [factor]


@pytest.mark.parametrize("text", ["speedup: 25%", "speedup = 3", "speedup: 2.5 ms", "speedup: 12.5 tok/s",
                                  "speedup: 2.5 times", "compile speedup: 1.8", "prefill speedup 1.2x",
                                  "CUDA graph speedup = 1.3"])
def test_no_factor_or_another_task(text):
    assert _speedups(text) == []


def test_a_bare_factor_in_a_text_that_names_no_drafter_is_none():
    assert _speedups("tok/s comparison\n- H100 SXM: 95.2\n- A100 80GB: 60.1\n- speedup: 1.58\n") == []
