"""Runs named by their draft depth, with the unit in the cells, are a baseline and a speculative run.

ggml-org/llama.cpp#10455 posts "| GPU | `n_max:0` | `n_max:16` | change |" over "| P40 | 8.7 tps |
39.4 tps | 4.45x |": the depth-0 run drafts nothing. Only a header with "(tok/s)" in it was read as
such a table; as posted, every cell was a throughput of its own and no baseline came out.
"""

from spec_debug.session.metrics import extract_metrics

POSTED = ("Results look quite good.\n\n| GPU | `n_max:0` | `n_max:16` | change |\n|--|--|--|--|\n"
          "| P40 | 8.7 tps | 39.4 tps | 4.45x |\n| 3xP40 `-sm row` | 12.70 tps | 53 tps | 4.17x |\n"
          "| 3090 | 29 tps | 167 tps | 5.73x |\n")


def _speeds(text, prose=True):
    return [(m.name, m.value) for m in extract_metrics(text, prose=prose) if m.unit == "tok/s"]


def test_the_table_as_posted():
    for prose in (True, False):
        assert _speeds(POSTED, prose) == [
            ("baseline_throughput", 8.7), ("throughput", 39.4), ("baseline_throughput", 12.7),
            ("throughput", 53.0), ("baseline_throughput", 29.0), ("throughput", 167.0)]


def test_depths_without_units_in_their_cells_are_no_speeds():
    text = "| GPU | `n_max:0` | `n_max:16` |\n|--|--|--|\n| P40 | 8 | 16 |\n"
    assert _speeds(text) == []
