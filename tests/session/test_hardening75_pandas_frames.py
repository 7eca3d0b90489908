"""A pandas ``print(df)`` of a script's runs is read as the table it is.

A user's benchmark script gathers each run into a dict and prints ``pd.DataFrame(rows)``: no
rule under the header, columns two spaces apart and right-aligned, rows numbered from 0. Before,
no reading came from it (the table readers need a rule line, the prose readers a unit or a
separator after a name): the runs' tok/s, accept lengths and rates were lost, the baseline row
with them. Now each row is read as a Markdown table's is: "baseline" rows as the baseline's
throughput, the others as the drafting runs', by batch size; a long frame's ".." rows are
stepped over. The outputs are pandas 2's of the frames in the comments."""

from __future__ import annotations

from spec_debug.session.metrics import extract_metrics

# [{"method": "baseline", "bs": 1, "output_tok_s": 92.41, "accept_length": None}, ...]
RUNS = """     method  bs  output_tok_s  accept_length
0  baseline   1         92.41            NaN
1    eagle3   1        181.70           3.12
2  baseline   8        601.20            NaN
3    eagle3   8        954.90           3.05
"""
# pd.set_option("display.max_rows", 6); 12 runs
LONG = """           run  batch_size  output_tok_s  acc_length
0    eagle3-s0           1         100.0         2.0
1    eagle3-s1           1         101.0         2.1
2    eagle3-s2           1         102.0         2.2
..         ...         ...           ...         ...
9    eagle3-s9           1         109.0         2.9
10  eagle3-s10           1         110.0         3.0
11  eagle3-s11           1         111.0         3.1

[12 rows x 4 columns]
"""
RATES = """   method  steps  output_tok_s  accept_rate
0  eagle3      3         181.7         0.71
1  eagle3      5         190.2         0.62
"""


def _read(text: str) -> list[tuple[str, float, str]]:
    return sorted((m.name, m.value, m.context) for m in extract_metrics(text))


def test_runs_and_baseline_read_by_batch_size():
    assert _read(RUNS) == sorted([
        ("baseline_throughput", 92.41, "table: output_tok_s | baseline bs=1: 92.41"),
        ("throughput", 181.7, "table: output_tok_s | eagle3 bs=1: 181.70"),
        ("accept_length", 3.12, "table: accept_length | eagle3 bs=1: 3.12"),
        ("baseline_throughput", 601.2, "table: output_tok_s | baseline bs=8: 601.20"),
        ("throughput", 954.9, "table: output_tok_s | eagle3 bs=8: 954.90"),
        ("accept_length", 3.05, "table: accept_length | eagle3 bs=8: 3.05")])


def test_long_frame_rows_around_the_cut_are_read():
    read = _read(LONG)
    assert [v for n, v, _ in read if n == "accept_length"] == [2.0, 2.1, 2.2, 2.9, 3.0, 3.1]
    assert [v for n, v, _ in read if n == "throughput"] == [100.0, 101.0, 102.0, 109.0, 110.0, 111.0]


def test_rates_read_once():
    assert [(n, v) for n, v, _ in _read(RATES)] == [
        ("accept_rate", 0.62), ("accept_rate", 0.71), ("throughput", 181.7), ("throughput", 190.2)]


def test_a_frame_of_other_things_holds_no_reading():
    assert _read("    file  size\n0  a.txt    10\n1  b.txt    20\n") == []


def test_a_frame_in_a_longer_output_keeps_the_rest():
    text = "running sweep...\n" + RUNS + "\nbest: eagle3 bs=8, accept length: 3.05\n"
    read = _read(text)
    assert len(read) == 7 and ("accept_length", 3.05, "best: eagle3 bs=8, accept length: 3.05") in read
