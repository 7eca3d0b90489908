"""A table's percentile, minimum, maximum or peak of a throughput is no throughput of the run.

An agent copies `vllm bench serve`'s numbers into a summary table, statistics as columns
("| metric | mean | p99 |") or as rows ("| P99 tok/s | ... |"); each cell under the throughput's
name was read as a throughput of the run, so the p99 (or the max, or bench_serving's "Peak output
token throughput") of a run sat beside its mean as a second reading, and could be its baseline's."""

from spec_debug.session.metrics import extract_metrics


def _throughputs(text: str) -> list[tuple[str, float]]:
    return [(m.name, m.value) for m in extract_metrics(text) if m.name.endswith("throughput")]


def test_statistics_as_columns_give_the_mean_alone() -> None:
    text = ("| metric | mean | median | p99 | max |\n|---|---|---|---|---|\n"
            "| TPOT (ms) | 18.35 | 17.9 | 29.41 | 40.2 |\n| Output tok/s | 821.7 | 815.0 | 1104 | 1190 |\n")
    assert _throughputs(text) == [("throughput", 821.7), ("throughput", 815.0)]


def test_statistics_as_rows_give_the_runs_means_alone() -> None:
    text = ("| | baseline | EAGLE-3 |\n|---|---|---|\n| Mean output tok/s | 512.4 | 821.7 |\n"
            "| P99 output tok/s | 700.1 | 1104.0 |\n| Peak output token throughput (tok/s) | 640 | 1190 |\n")
    assert _throughputs(text) == [("baseline_throughput", 512.4), ("throughput", 821.7)]


def test_a_run_named_like_a_statistic_is_still_read() -> None:
    text = "| model | baseline tok/s | max-autotune tok/s |\n|---|---|---|\n| Llama-3.1-8B | 90.5 | 130.2 |\n"
    assert _throughputs(text) == [("baseline_throughput", 90.5), ("throughput", 130.2)]


def test_a_group_s_percentile_column_is_no_reading() -> None:
    # GuideLLM-style header of two rows: "Out Tok/sec" over "mean | median | p99"
    text = ("| Metadata | Out Tok/sec ||| TTFT (ms) |\n| Benchmark | mean | median | p99 | mean |\n"
            "|---|---|---|---|---|\n| synchronous | 80.5 | 80.1 | 95.2 | 102.6 |\n")
    assert _throughputs(text) == [("throughput", 80.5), ("throughput", 80.1)]
