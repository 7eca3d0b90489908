"""python-tabulate's default "simple" table is read as a table of runs.

A script that compares runs prints ``tabulate(rows, headers=[...])``: a header, a rule of
hyphens a column with two spaces between the columns, and the rows, no "|" anywhere. Its
readings were lost (no metric at all from "baseline ... 812.4" and "eagle3 ... 1503.9 ... 3.21"):
only "|" tables (GFM, psql, pretty, grid) were read. Now its columns are read as a "|" table's:
throughput, baseline throughput and accept length per row. The text below is what tabulate
0.9 prints for these rows.
"""

from spec_debug.session.metric_tables import table_readings
from spec_debug.session.metrics import extract_metrics

SIMPLE = """\
config      bs    output_tok_s    acc_len
--------  ----  --------------  ---------
baseline     1          812.4        1
eagle3       4         1503.9        3.21
eagle3       8         2710.55       3.05
"""


def test_simple_table_rows_are_read():
    got = [(m.name, m.value, m.unit) for m in extract_metrics(SIMPLE)]
    assert got == [
        ("baseline_throughput", 812.4, "tok/s"),
        ("throughput", 1503.9, "tok/s"),
        ("accept_length", 3.21, "tokens"),
        ("throughput", 2710.55, "tok/s"),
        ("accept_length", 3.05, "tokens"),
    ]


def test_simple_table_span_is_the_table_and_prose_after_it_is_read():
    text = "Results:\n\n" + SIMPLE + "\nThe EAGLE run decoded at 1503.9 tok/s.\n"
    readings, spans = table_readings(text)
    assert len(readings) == 5
    assert spans == [(text.index("config"), text.index("\nThe EAGLE"))]


def test_context_names_the_row():
    m = extract_metrics(SIMPLE)[2]
    assert m.context == "table: acc_len | eagle3 bs=4: 3.21"


def test_pip_list_rule_is_no_table():
    pip = "Package    Version\n---------- -------\ntokens_per_second 12.5\n"
    assert table_readings(pip) == ([], [])
