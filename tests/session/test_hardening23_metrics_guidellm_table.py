"""GuideLLM's console table, as posted in sgl-project/SpecForge#164 ("Qwen3 throughput lower with
speculative added"), is read by its columns.

Its header has two lines, the first naming groups of columns by a name and an empty cell for each
further column of the group ("Request Stats ||", "Req Latency (ms) |||"), so it has fewer cells
than the second; its unit is capitalised ("Out Tok/sec"); and its sweep names the max-rate run
"throughput". The table gave every cell of that row as a decode throughput (19.50 requests/s,
462.85 concurrent requests, latencies in ms) and missed "Out Tok/sec" (80.5, 2495.4), which under
"Without Speculative:" are the baselines. "Tot Tok/sec" counts prompt tokens: no decode speed.
(The second row is cut where the issue's excerpt is; its last cells are filled in.)
"""

from spec_debug.session.metrics import extract_metrics

GUIDELLM = """Without Speculative:
```
Benchmarks Stats:
==============================================================================================================================================================
Metadata      | Request Stats         || Out Tok/sec| Tot Tok/sec| Req Latency (ms)  ||| TTFT (ms)              ||| ITL (ms)          ||| TPOT (ms)         ||
     Benchmark| Per Second| Concurrency|        mean|        mean|  mean| median|   p99|    mean|  median|     p99|  mean| median|   p99|  mean| median|   p99
--------------|-----------|------------|------------|------------|------|-------|------|--------|--------|--------|------|-------|------|------|-------|------
   synchronous|       0.63|        1.00|        80.5|       401.8|  1.59|   1.58|  1.92|   102.6|    94.0|   428.3|  11.7|   11.7|  11.7|  11.6|   11.6|  11.6
    throughput|      19.50|      462.85|      2495.4|     12459.6| 23.74|  24.27| 39.28| 16309.2| 16898.6| 23631.8|  5.2|   5.1|  6.0|  5.3|   5.2|  6.1
==============================================================================================================================================================
```
"""


def _readings(text, prose):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=prose))


def test_out_tok_per_sec_gives_each_runs_speed_as_baseline():
    for prose in (False, True):
        assert _readings(GUIDELLM, prose) == [("baseline_throughput", 80.5), ("baseline_throughput", 2495.4)]


def test_without_the_caption_they_are_the_runs_speeds():
    table = GUIDELLM.split("```\n", 1)[1].rsplit("```", 1)[0]
    assert _readings(table, False) == [("throughput", 80.5), ("throughput", 2495.4)]


def test_a_row_named_throughput_in_a_table_of_metric_columns_is_a_run():
    table = ("| run | tok/s | TTFT (ms) |\n|---|---|---|\n"
             "| synchronous | 80.5 | 102.6 |\n| throughput | 2495.4 | 16309.2 |\n")
    assert _readings(table, False) == [("throughput", 80.5), ("throughput", 2495.4)]


def test_a_column_named_by_a_draft_depth_of_0_is_the_baseline():
    # ggml-org/llama.cpp#10455 names its runs by llama-server's speculative.n_max
    table = ("| GPU | `n_max:0` (tok/s) | `n_max:16` (tok/s) |\n|--|--|--|\n"
             "| P40 | 8.7 | 39.4 |\n| 3090 | 29 | 167 |\n")
    assert _readings(table, True) == [("baseline_throughput", 8.7), ("baseline_throughput", 29.0),
                                      ("throughput", 39.4), ("throughput", 167.0)]
