"""A pandas frame indexed by its runs and too wide for the display is still read.

A benchmark script keeps eight columns per run (latencies beside tok/s and accept length) and
prints ``df.set_index("method")``; its output goes to a log, so pandas lays it out for 80
columns and puts a ``...`` for the columns it leaves out, in the header, under it on the line of
the index's names, and in every row. Before, that names line (``method   ...``) was no line of
names: the frame gave no reading, where the same frame printed with row numbers was read. Now
the ``...`` is passed over and the runs' tok/s and accept lengths are read, by run and batch
size for a MultiIndex. The frames are pandas 3.1.1's."""

from __future__ import annotations

from spec_debug.session.metrics import extract_metrics

# df.set_index("method") of rows with batch_size, ttft_ms, itl_ms, e2e_latency_s, p99_itl_ms,
# output_tok_s and accept_length
INDEXED = """          batch_size  ttft_ms  ...  output_tok_s  accept_length
method                         ...                             
baseline           1     35.2  ...         92.41            NaN
eagle3             1     41.0  ...        181.70           3.12

[2 rows x 7 columns]
"""
# df.set_index(["method", "bs"])
MULTI = """             ttft_ms  itl_ms  ...  output_tok_s  accept_length
method   bs                   ...                             
baseline 1      35.2    10.8  ...         92.41            NaN
eagle3   1      41.0     5.5  ...        181.70           3.12
baseline 8      35.2    10.8  ...        739.28            NaN
eagle3   8      41.0     5.5  ...       1453.60           3.12

[4 rows x 6 columns]
"""


def _read(text: str) -> list[tuple[str, float, str]]:
    return sorted((m.name, m.value, m.context) for m in extract_metrics(text))


def test_a_frame_with_columns_left_out_is_read_by_run():
    assert _read("sweep done\n" + INDEXED) == [
        ("accept_length", 3.12, "table: accept_length | eagle3 bs=1: 3.12"),
        ("baseline_throughput", 92.41, "table: output_tok_s | baseline bs=1: 92.41"),
        ("throughput", 181.7, "table: output_tok_s | eagle3 bs=1: 181.70")]


def test_a_multiindex_frame_with_columns_left_out_is_read_by_run_and_batch_size():
    assert _read(MULTI.replace("\n", "\r\n")) == [
        ("accept_length", 3.12, "table: accept_length | eagle3 bs=1: 3.12"),
        ("accept_length", 3.12, "table: accept_length | eagle3 bs=8: 3.12"),
        ("baseline_throughput", 92.41, "table: output_tok_s | baseline bs=1: 92.41"),
        ("baseline_throughput", 739.28, "table: output_tok_s | baseline bs=8: 739.28"),
        ("throughput", 181.7, "table: output_tok_s | eagle3 bs=1: 181.70"),
        ("throughput", 1453.6, "table: output_tok_s | eagle3 bs=8: 1453.60")]
