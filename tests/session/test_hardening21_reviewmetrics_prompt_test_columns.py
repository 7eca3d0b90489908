"""A table column named by llama-bench's prompt test ("pp512") is no decode speed.

83eb707 read llama-bench's rows by their test column (pp512 prefill, tg128 decode), but a table
whose columns are the tests ("| draft | pp512 (t/s) | tg128 (t/s) |", or "pp512" over "T/s
(CUDA)", a two-row header a648521 now reads) had its 5000 t/s prompt speeds read as decode
throughputs beside the 95 t/s ones: four runs' decode speeds, two of them 50x the others.
"""

from spec_debug.session.metrics import extract_metrics


def _readings(text):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=True))


def test_a_pp_column_is_no_decode_speed():
    text = "| draft | pp512 (t/s) | tg128 (t/s) |\n|---|---|---|\n| none | 5100.2 | 95.3 |\n| eagle3 | 5080.1 | 140.6 |\n"
    assert _readings(text) == [("throughput", 95.3), ("throughput", 140.6)]


def test_a_pp_column_over_a_unit_row_is_no_decode_speed():
    text = ("| draft | pp512 | tg128 |\n| | T/s (CUDA) | T/s (CUDA) |\n|---|---|---|\n"
            "| none | 5100.2 | 95.3 |\n| eagle3 | 5080.1 | 140.6 |\n")
    assert _readings(text) == [("throughput", 95.3), ("throughput", 140.6)]


def test_a_column_that_only_has_pp_in_a_word_still_counts():
    text = "| run | app tok/s |\n|---|---|\n| EAGLE-3 | 131.5 |\n"
    assert _readings(text) == [("throughput", 131.5)]
