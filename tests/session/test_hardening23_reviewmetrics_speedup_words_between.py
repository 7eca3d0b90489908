"""What a percentage speedup is of may stand between the number and the word; "tps" may open a text.

raullenchai/Rapid-MLX#2175 is titled "85% acceptance yields only ~5% e2e decode speedup": one word
between the percentage and "speedup" was allowed ("~5% e2e speedup"), two gave nothing. And a text
that opened with "tps" ("tps: ..." then "with eagle: 30 tps") was taken to hold no "tps" at all:
the search for the unit stopped at the text's first character.
"""

from spec_debug.session.metrics import extract_metrics


def _readings(text):
    return [(m.name, m.value) for m in extract_metrics(text, prose=True)]


def test_two_words_between_the_percentage_and_speedup():
    text = "perf(mtp): 85% acceptance yields only ~5% e2e decode speedup on qwen3.5-9b-4bit (chain MTP, B=1)"
    assert [r for r in _readings(text) if r[0] == "speedup"] == [("speedup", 1.05)]
    assert [r for r in _readings("MTP gives a 12% end-to-end decoding speedup over baseline")
            if r[0] == "speedup"] == [("speedup", 1.12)]


def test_a_text_opening_with_tps():
    text = "tps measured with the bench script\nwith eagle: 30 tps / without eagle: 21 tps"
    assert sorted(_readings(text)) == [("baseline_throughput", 21.0), ("throughput", 30.0)]
