"""A table of runs by draft depth says the unit in its first row only; every row is read.

"| Model | n_max:0 | n_max:16 |" over "| Qwen3-8B | 45.2 tok/s | 98.1 tok/s |" then "| Llama-8B |
40.1 | 85.3 |": the depth columns were throughputs for every row once the first row said tok/s.
Today's per-cell rule for run columns ("| AR | MTP |") read only the cells with their unit, and
the second model's speeds were lost.
"""

from spec_debug.session.metrics import scan_metrics

TABLE = """| Model | n_max:0 | n_max:16 |
|---|---|---|
| Qwen3-8B | 45.2 tok/s | 98.1 tok/s |
| Llama-8B | 40.1 | 85.3 |
"""


def test_every_row_under_depth_columns_is_read():
    assert [(m.name, m.value) for m in scan_metrics(TABLE, prose=True)] == [
        ("baseline_throughput", 45.2), ("throughput", 98.1), ("baseline_throughput", 40.1), ("throughput", 85.3)]


def test_an_ar_column_still_reads_only_its_speed_cells():
    text = "| Metric | AR | MTP |\n|---|---|---|\n| TTFT (ms) | 120 | 125 |\n| Output | 45 tok/s | 98 tok/s |\n"
    assert [(m.name, m.value) for m in scan_metrics(text, prose=True)] == [("baseline_throughput", 45.0), ("throughput", 98.0)]
