"""Tables printed by python-tabulate in its "grid" format (``+====+`` under the header, a
``+----+`` rule between rows) and "fancy_grid" (the same in box characters, ``╞═╪═╡`` under the
header), as a sweep script prints its results with ``tabulate(rows, headers, tablefmt="grid")``.
Before, neither gave any reading: the header rule of "=" was no delimiter row, and the rule after
the first row ended the table. Now each row's throughput and accept length are read, as from the
same table in the "psql"/"pretty" formats."""

from spec_debug.session.metric_tables import table_readings
from spec_debug.session.metrics import extract_metrics

# tabulate 0.9.0, headers of SGLang bench_one_batch_server's report
GRID = '+--------------+-------------+---------------+-----------------------------+--------------+\n|   batch size |   input len |   latency (s) |   output throughput (tok/s) |   acc length |\n+==============+=============+===============+=============================+==============+\n|            1 |        1024 |          4.62 |                      183.42 |         3.21 |\n+--------------+-------------+---------------+-----------------------------+--------------+\n|            8 |        1024 |          8.81 |                      951.07 |         3.05 |\n+--------------+-------------+---------------+-----------------------------+--------------+\n'

FANCY_GRID = '╒══════════════╤═════════════╤═══════════════╤═════════════════════════════╤══════════════╕\n│   batch size │   input len │   latency (s) │   output throughput (tok/s) │   acc length │\n╞══════════════╪═════════════╪═══════════════╪═════════════════════════════╪══════════════╡\n│            1 │        1024 │          4.62 │                      183.42 │         3.21 │\n├──────────────┼─────────────┼───────────────┼─────────────────────────────┼──────────────┤\n│            8 │        1024 │          8.81 │                      951.07 │         3.05 │\n╘══════════════╧═════════════╧═══════════════╧═════════════════════════════╧══════════════╛\n'

EXPECTED = [("throughput", 183.42, "tok/s", "table: output throughput (tok/s) | 1: 183.42"),
            ("accept_length", 3.21, "tokens", "table: acc length | 1: 3.21"),
            ("throughput", 951.07, "tok/s", "table: output throughput (tok/s) | 8: 951.07"),
            ("accept_length", 3.05, "tokens", "table: acc length | 8: 3.05")]


def test_grid_table_rows_are_read():
    readings, spans = table_readings(GRID)
    assert readings == EXPECTED
    assert len(spans) == 1 and GRID[spans[0][0]:].startswith("|   batch size")


def test_fancy_grid_table_rows_are_read():
    readings, _ = table_readings(FANCY_GRID)
    assert readings == EXPECTED


def test_extract_metrics_reads_each_grid_row_once():
    for text in (GRID, FANCY_GRID):
        assert [(m.name, m.value) for m in extract_metrics(text)] == [
            ("throughput", 183.42), ("accept_length", 3.21), ("throughput", 951.07), ("accept_length", 3.05)]


def test_key_value_report_table_is_read_once():
    # EvalScope's summary keys pasted as a Markdown table: _bench_serving reads each key, and the
    # table's rows gave the output throughput a second time (two runs at the same speed)
    text = ("| Key | Value |\n|---|---|\n| Output token throughput (tok/s) | 893.269 |\n"
            "| Total token throughput (tok/s) | 8039.42 |\n")
    assert [(m.name, m.value) for m in extract_metrics(text)] == [("throughput", 893.269),
                                                                  ("total_throughput", 8039.42)]
