"""A table's "acc_rate" column is read as the drafter's acceptance rate.

A benchmark script's results dict dumped with tabulate or pandas heads its columns with its
keys: "acc_len" beside "acc_rate" (accepted over drafted tokens). The "acc_len" column was read,
the "acc_rate" one never: a run's acceptance rate was missing from the report. Now it is read
where the table is about drafting (EAGLE, spec, draft); an eval's "acc_rate" (a task's accuracy)
in a table about nothing drafted stays no reading.
"""

from spec_debug.session.metrics import extract_metrics

RUNS = """\
| method   |   output_tok_s | acc_len   | acc_rate   |
|----------|----------------|-----------|------------|
| baseline |          812.4 | -         | -          |
| eagle3   |         1503.9 | 3.21      | 0.71       |
"""


def test_acc_rate_column_is_the_accept_rate():
    got = [(m.name, m.value, m.unit, m.context) for m in extract_metrics(RUNS)]
    assert got == [
        ("baseline_throughput", 812.4, "tok/s", "table: output_tok_s | baseline: 812.4"),
        ("throughput", 1503.9, "tok/s", "table: output_tok_s | eagle3: 1503.9"),
        ("accept_length", 3.21, "tokens", "table: acc_len | eagle3: 3.21"),
        ("accept_rate", 0.71, "ratio", "table: acc_rate | eagle3: 0.71"),
    ]


def test_mean_acc_rate_in_percent():
    text = "| draft | mean_acc_rate (%) |\n|---|---|\n| eagle3-8b | 68.5 |\n"
    assert [(m.name, m.value, m.unit) for m in extract_metrics(text)] == [("accept_rate", 68.5, "%")]


def test_an_evals_acc_rate_is_no_reading():
    text = "| task | acc_rate |\n|---|---|\n| gsm8k | 0.81 |\n"
    assert extract_metrics(text) == []
