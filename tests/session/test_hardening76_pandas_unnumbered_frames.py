"""pandas frames printed without row numbers are read as the tables they are.

A benchmark script prints its runs with ``df.to_string(index=False)``, or indexed by the run
(``df.set_index("method")``, ``df.set_index(["method", "bs"])``, a groupby's mean, a dict of
results turned with ``.T``). Before, only a frame numbered from 0 was read: these gave no
reading, the baseline's tok/s and the drafter's accept lengths lost. Now each is read as a
Markdown table's rows are, by run and batch size; ``df.describe()`` (statistics over the runs),
a frame of other things and a server log's lines of one length give none. The outputs are
pandas 3.1.1's of the frames in the comments."""

from __future__ import annotations

from spec_debug.session.metrics import extract_metrics

# rows = [{"method": "baseline", "bs": 1, "output_tok_s": 92.41, "accept_length": None}, ...]
NO_INDEX = """  method  bs  output_tok_s  accept_length
baseline   1         92.41            NaN
  eagle3   1        181.70           3.12
baseline   8        601.20            NaN
  eagle3   8        954.90           3.05
"""
NAMED = """          bs  output_tok_s  accept_length
method                                   
baseline   1         92.41            NaN
eagle3     1        181.70           3.12
baseline   8        601.20            NaN
eagle3     8        954.90           3.05
"""
MULTI = """             output_tok_s  accept_length
method   bs                             
baseline 1          92.41            NaN
         8         601.20            NaN
eagle3   1         181.70           3.12
         8         954.90           3.05
"""
EXPECTED = sorted([
    ("baseline_throughput", 92.41, "table: output_tok_s | baseline bs=1: 92.41"),
    ("throughput", 181.7, "table: output_tok_s | eagle3 bs=1: 181.70"),
    ("accept_length", 3.12, "table: accept_length | eagle3 bs=1: 3.12"),
    ("baseline_throughput", 601.2, "table: output_tok_s | baseline bs=8: 601.20"),
    ("throughput", 954.9, "table: output_tok_s | eagle3 bs=8: 954.90"),
    ("accept_length", 3.05, "table: accept_length | eagle3 bs=8: 3.05")])
# pd.DataFrame({"baseline": {"throughput_tok_s": 92.4, "accept_rate": None}, "eagle3": {...}}).T
TURNED = """          throughput_tok_s  accept_rate
baseline              92.4          NaN
eagle3               181.7         0.71
"""
DESCRIBE = """             bs  output_tok_s  accept_length
count  4.000000      4.000000       2.000000
mean   4.500000    457.552500       3.085000
std    4.041452    398.920538       0.049497
min    1.000000     92.410000       3.050000
max    8.000000    954.900000       3.120000
"""


def _read(text: str) -> list[tuple[str, float, str]]:
    return sorted((m.name, m.value, m.context) for m in extract_metrics(text))


def test_frames_without_row_numbers_read_by_run_and_batch_size():
    assert _read(NO_INDEX) == EXPECTED
    assert _read(NAMED) == EXPECTED
    assert _read("sweep done\n" + MULTI.replace("\n", "\r\n") + "saved results.csv\n") == EXPECTED


def test_a_frame_indexed_by_run_name():
    assert _read(TURNED) == [
        ("accept_rate", 0.71, "table: accept_rate | eagle3: 0.71"),
        ("baseline_throughput", 92.4, "table: throughput_tok_s | baseline: 92.4"),
        ("throughput", 181.7, "table: throughput_tok_s | eagle3: 181.7")]


def test_statistics_other_frames_and_log_lines_give_none():
    assert _read(DESCRIBE) == []
    assert _read(" file  size\na.txt    10\nb.txt    20\n") == []
    line = "[2026-01-10 09:00:00 TP0] Decode batch.   #running-req: 8, gen throughput (token/s): 512.34, #queue-req: 0\n"
    assert [(m.name, m.value) for m in extract_metrics(line * 3)] == [("throughput", 512.34)]
