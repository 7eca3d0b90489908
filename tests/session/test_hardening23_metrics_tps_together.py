""""tps" written against its number is a speed too.

ggml-org/llama.cpp#10664: "I tested it out with my 3090 and `-ngld 99` took it from 45tps to
103.9 tps" gave only 103.9: "tps" was a unit only after a space (as "https" holds the letters).
After a digit it is one as well; after a letter ("https", "v2tps") it is not.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _speeds(text):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=True) if m.unit == "tok/s")


def test_the_sentence_of_llama_cpp_10664():
    text = ("> @lhl I can confirm what @ggerganov said. I tested it out with my 3090 and `-ngld 99` "
            "took it from 45tps to 103.9 tps")
    assert _speeds(text) == [("throughput", 45.0), ("throughput", 103.9)]


@pytest.mark.parametrize("text, value", [("EAGLE3 gets 120TPS at bs=1", 120.0), ("now at 87.5tps", 87.5)])
def test_a_number_against_tps(text, value):
    assert _speeds(text) == [("throughput", value)]


@pytest.mark.parametrize("text", ["see https://example.com/tps 12", "model v2tps 12", "12 https links"])
def test_https_and_names_are_no_unit(text):
    assert _speeds(text) == []
