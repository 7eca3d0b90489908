"""A pandas frame printed after a long run of a script's own lines is still read.

A benchmark script logs each request as it goes ("req 117: 256 tokens, accept len: 3.10,
181.2 tok/s") and prints its summary with ``df.to_string(index=False)`` (or indexed by the
method) at the end. Before, the frame reader gave up after 100 lines that named a metric, each
log line counted: after 100 requests the summary frame was never looked at, the baseline's
tok/s and the drafter's accept length lost with no word. Now only a line that could head a
frame (no log line's "key: value", a line of its width under it) counts, and the frame is read
however many log lines come first. The frames are pandas 3.1.1's."""

from __future__ import annotations

from spec_debug.session.metrics import extract_metrics

# pd.DataFrame(rows).to_string(index=False)
NO_INDEX = """  method  bs  output_tok_s  accept_length
baseline   1         92.41            NaN
  eagle3   1        181.70           3.12
"""
# pd.DataFrame(rows).set_index("method")
NAMED = """          bs  output_tok_s  accept_length
method                                   
baseline   1         92.41            NaN
eagle3     1        181.70           3.12
"""
TABLE = [
    ("accept_length", 3.12, "table: accept_length | eagle3 bs=1: 3.12"),
    ("baseline_throughput", 92.41, "table: output_tok_s | baseline bs=1: 92.41"),
    ("throughput", 181.7, "table: output_tok_s | eagle3 bs=1: 181.70"),
]


def _log(requests: int) -> str:
    return "".join(f"req {i}: 256 tokens, accept len: 3.10, 181.2 tok/s\n" for i in range(requests))


def _table_readings(text: str) -> list[tuple[str, float, str]]:
    return sorted((m.name, m.value, m.context) for m in extract_metrics(text) if m.context.startswith("table:"))


def test_summary_frame_after_150_request_lines_is_read():
    for frame in (NO_INDEX, NAMED):
        assert _table_readings(_log(20) + frame) == TABLE
        assert _table_readings(_log(150) + frame) == TABLE
        assert _table_readings(_log(150) + frame.replace("\n", "\r\n")) == TABLE


def test_summary_frame_after_a_long_traceback_of_tokenizer_lines_is_read():
    # a request that failed earlier left its traceback: indented lines naming the tokenizer,
    # each two lines of different widths
    trace = "".join(f'  File "/opt/venv/lib/python3.11/site-packages/transformers/tokenization_utils.py",'
                    f' line {1000 + i}, in _tokenize\n    tokens = self.tokenizer.encode(text)\n'
                    for i in range(120))
    assert _table_readings("Traceback (most recent call last):\n" + trace + "ValueError: bad input\n"
                           + NO_INDEX) == TABLE
