"""rich's tables (its default HEAVY_HEAD box) are read as tables of runs.

A script that prints its runs with ``rich.table.Table`` (``Console().print(table)``) draws the
header in heavy lines and rules it off with "┡━━━╇━━━┩"; with ``show_lines=True`` a "├───┼───┤"
rule between every two rows. No reading came from either: the heavy header rule was not read
as a table's (its corners were not among the box characters read), and a table without rules
between its rows was not looked at. Now both are read as a "|" table: throughput, baseline
and accept length per row. The texts below are what rich 15.0 prints (width 100, no colour).
"""

from spec_debug.session.metrics import extract_metrics

PLAIN = """\
                EAGLE-3 bench
┏━━━━━━━━━━━━┳━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ config     ┃ output tok/s ┃ accept length ┃
┡━━━━━━━━━━━━╇━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ baseline   │ 812.4        │ 1.00          │
│ eagle3 k=4 │ 1503.9       │ 3.21          │
└────────────┴──────────────┴───────────────┘
"""

SHOW_LINES = """\
                EAGLE-3 bench
┏━━━━━━━━━━━━┳━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ config     ┃ output tok/s ┃ accept length ┃
┡━━━━━━━━━━━━╇━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ baseline   │ 812.4        │ 1.00          │
├────────────┼──────────────┼───────────────┤
│ eagle3 k=4 │ 1503.9       │ 3.21          │
├────────────┼──────────────┼───────────────┤
│ eagle3 k=8 │ 2710.6       │ 3.05          │
└────────────┴──────────────┴───────────────┘
"""


def _got(text):
    return [(m.name, m.value, m.context) for m in extract_metrics(text)]


def test_rich_table_rows_are_read():
    assert _got(PLAIN) == [
        ("baseline_throughput", 812.4, "table: output tok/s | baseline: 812.4"),
        ("throughput", 1503.9, "table: output tok/s | eagle3 k=4: 1503.9"),
        ("accept_length", 3.21, "table: accept length | eagle3 k=4: 3.21"),
    ]


def test_rich_table_with_lines_between_rows_reads_every_row():
    assert _got(SHOW_LINES) == [
        ("baseline_throughput", 812.4, "table: output tok/s | baseline: 812.4"),
        ("throughput", 1503.9, "table: output tok/s | eagle3 k=4: 1503.9"),
        ("accept_length", 3.21, "table: accept length | eagle3 k=4: 3.21"),
        ("throughput", 2710.6, "table: output tok/s | eagle3 k=8: 2710.6"),
        ("accept_length", 3.05, "table: accept length | eagle3 k=8: 3.05"),
    ]

