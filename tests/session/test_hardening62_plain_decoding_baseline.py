"""analyze: "Plain decoding gives 140 tok/s, EAGLE-3 only 95 tok/s." names 140 the baseline.

"Normal decoding speed (SGLang): 156 token/s" was read as the baseline (sgl-project/sglang#2150),
but "plain decoding" and "regular decoding", the same run in other words, gave a plain throughput:
the slowdown had no baseline. They now name it as "normal decoding" does; other decoding
("speculative decoding", "greedy decoding") does not.
"""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import extract_metrics


def _read(text):
    return sorted((m.name, m.value) for m in extract_metrics(text))


@pytest.mark.parametrize("text", ["Plain decoding gives 140 tok/s, EAGLE-3 only 95 tok/s.",
                                  "Regular decoding: 140 tok/s; EAGLE-3: 95 tok/s."])
def test_the_baseline(text):
    assert _read(text) == [("baseline_throughput", 140.0), ("throughput", 95.0)]


@pytest.mark.parametrize("text", ["Speculative decoding gives 95 tok/s.", "Greedy decoding gives 95 tok/s."])
def test_other_decoding_is_a_throughput(text):
    assert _read(text) == [("throughput", 95.0)]
