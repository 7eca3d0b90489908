"""A pandas table's header is no "accept_rate: 0" reading.

A user's benchmark script collects its runs into a DataFrame and prints it (``print(df)``).
pandas ends the header with the last column's name and starts each row with the index, so
"accept_rate" was followed, across the line break, by the first row's "0": the analyzer read an
acceptance rate of 0 (a drafter that accepts nothing) and "accept_length" an accept length of 0,
values the runs never had. Now a number that opens the next line under a header of aligned
columns is no reading of the header's last word; a label alone on its line over its value still
is. The tables are pandas 2's output of the frames shown."""

from __future__ import annotations

from spec_debug.session.metrics import extract_metrics

# pd.DataFrame([{"method": "eagle3", "steps": 3, "output_tok_s": 181.7, "accept_rate": 0.71}, ...])
RATE = """   method  steps  output_tok_s  accept_rate
0  eagle3      3         181.7         0.71
1  eagle3      5         190.2         0.62
"""
# ... "accept_length": None for the baseline rows
LENGTH = """     method  bs  output_tok_s  accept_length
0  baseline   1         92.41            NaN
1    eagle3   1        181.70           3.12
2  baseline   8        601.20            NaN
3    eagle3   8        954.90           3.05
"""
SPACED = """   method  steps  tok/s  acceptance length
0  eagle3      3  181.7                3.1
"""


def _readings(text: str) -> list[tuple[str, float]]:
    return [(m.name, m.value) for m in extract_metrics(text) if m.name.startswith("accept")]


def test_index_zero_is_no_acceptance_rate():
    # (the rows' own rates are read since the frame is read as a table: test_hardening75_pandas_frames)
    assert _readings(RATE) == [("accept_rate", 0.71), ("accept_rate", 0.62)]


def test_index_zero_is_no_accept_length():
    assert _readings(LENGTH) == [("accept_length", 3.12), ("accept_length", 3.05)]
    assert _readings(SPACED) == [("accept_length", 3.1)]


def test_a_label_alone_over_its_value_is_read():
    assert _readings("Acceptance rate\n0.71\n") == [("accept_rate", 0.71)]
    assert _readings("accept length:\n3.2\n") == [("accept_length", 3.2)]
