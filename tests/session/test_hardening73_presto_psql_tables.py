"""Tables with no outer border, "-----+-----" under the header: tabulate's "presto" format and
psql's aligned output of a results table (``SELECT ... FROM runs``, "(2 rows)" under it). Before,
the rule was taken for a "pretty" border only with a "|" opening the header, so these tables
gave no reading. Now each row's readings are read; a "+" rule under a line of another count of
"|" is still no table."""

from spec_debug.session.metric_tables import table_readings
from spec_debug.session.metrics import extract_metrics

# tabulate 0.9.0, tablefmt="presto"
PRESTO = '   batch size |   output throughput (tok/s) |   acc length\n--------------+-----------------------------+--------------\n            1 |                      183.42 |         3.21\n            8 |                      951.07 |         3.05\n'

PSQL = """ batch_size | output throughput (tok/s) | acc_length
------------+---------------------------+------------
          1 |                    183.42 |       3.21
          8 |                    951.07 |       3.05
(2 rows)
"""

EXPECTED = [("throughput", 183.42), ("accept_length", 3.21), ("throughput", 951.07), ("accept_length", 3.05)]


def test_presto_table_rows_are_read():
    assert [(m.name, m.value) for m in extract_metrics(PRESTO)] == EXPECTED


def test_psql_output_rows_are_read():
    readings, spans = table_readings(PSQL)
    assert [(name, value) for name, value, _, _ in readings] == EXPECTED
    assert readings[0][3] == "table: output throughput (tok/s) | 1: 183.42"
    assert PSQL[spans[0][1]:].startswith("(2 rows)")


def test_rule_under_a_line_of_other_cells_is_no_table():
    assert table_readings("a | b | 180 tok/s\n-----+-----\n 1 | 2 | 3\n") == ([], [])
