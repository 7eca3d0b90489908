"""A table whose column is headed by a script's key for the accept length, ``acc_length`` or
``mean_acc_len`` (a pandas/tabulate dump of a sweep's results dicts). Before, only "accept ..."
or "acc " at the start of a header named the accept length, so these columns gave no reading and
the summary had the throughput alone. Now they are read as accept length; an eval's ``acc`` or
``acc_norm`` column (accuracy) is still no reading."""

from spec_debug.session.metric_tables import table_readings
from spec_debug.session.metrics import extract_metrics

TABLE = """| bs | throughput (tok/s) | acc_length | acc | acc_norm |
|---:|---:|---:|---:|---:|
| 1 | 180.5 | 3.21 | 0.71 | 0.74 |
| 8 | 950.2 | 3.05 | 0.71 | 0.74 |
"""


def test_acc_length_column_is_read_as_accept_length():
    readings, _ = table_readings(TABLE)
    assert [(name, value) for name, value, _, _ in readings] == [
        ("throughput", 180.5), ("accept_length", 3.21), ("throughput", 950.2), ("accept_length", 3.05)]


def test_mean_acc_len_header():
    readings, _ = table_readings("| run | mean_acc_len |\n|---|---|\n| eagle3 | 2.87 |\n")
    assert [(name, value, unit) for name, value, unit, _ in readings] == [("accept_length", 2.87, "tokens")]


def test_extract_metrics_reports_the_accept_length():
    found = extract_metrics(TABLE)
    assert sorted(m.value for m in found if m.name == "accept_length") == [3.05, 3.21]
