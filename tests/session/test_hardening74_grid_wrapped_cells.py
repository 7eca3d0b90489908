"""A grid table's row whose cells wrapped onto more lines is read as one row.

tabulate's "grid" format with ``maxcolwidths`` (and rich with ``show_lines=True``) wraps a long
cell onto the lines under it, up to the rule that fences the row: "Llama-3.1-8B-Instruct" over
"without speculative" over "decoding". Only the row's first line was read as the row, so the run
without speculation was a drafting run at 812.4 tok/s and its accept length 1 the drafter's: no
baseline, and an accept length of 1 that says the drafter had nothing accepted. Now the row's
lines are one row of the cells' words. The text is what tabulate 0.9 prints.
"""

from spec_debug.session.metrics import extract_metrics

GRID = """\
+-------------------------+----------------+-----------------+
| config                  |   output tok/s |   accept length |
+=========================+================+=================+
| Llama-3.1-8B-Instruct   |          812.4 |            1    |
| without speculative     |                |                 |
| decoding                |                |                 |
+-------------------------+----------------+-----------------+
| Llama-3.1-8B-Instruct + |         1503.9 |            3.21 |
| EAGLE-3 (k=4, topk=8)   |                |                 |
+-------------------------+----------------+-----------------+
"""

PRETTY = """\
+------------+----------------+
| config     |   output tok/s |
+------------+----------------+
| baseline   |          812.4 |
| eagle3 k=4 |         1503.9 |
| eagle3 k=8 |         2710.6 |
+------------+----------------+
"""


def _got(text):
    return [(m.name, m.value, m.context) for m in extract_metrics(text)]


def test_wrapped_baseline_row_is_the_baseline():
    assert _got(GRID) == [
        ("baseline_throughput", 812.4,
         "table: output tok/s | Llama-3.1-8B-Instruct without speculative decoding: 812.4"),
        ("throughput", 1503.9, "table: output tok/s | Llama-3.1-8B-Instruct + EAGLE-3 (k=4, topk=8): 1503.9"),
        ("accept_length", 3.21, "table: accept length | Llama-3.1-8B-Instruct + EAGLE-3 (k=4, topk=8): 3.21"),
    ]


def test_pretty_table_rows_stay_a_line_each():
    assert _got(PRETTY) == [
        ("baseline_throughput", 812.4, "table: output tok/s | baseline: 812.4"),
        ("throughput", 1503.9, "table: output tok/s | eagle3 k=4: 1503.9"),
        ("throughput", 2710.6, "table: output tok/s | eagle3 k=8: 2710.6"),
    ]
