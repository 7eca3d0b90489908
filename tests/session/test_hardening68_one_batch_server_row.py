"""bench_one_batch_server's readings are of the batch size their block (or result line) states.

sglang 0.5.23 (sglang/benchmark/one_batch_server.py, run_one_case) prints each run's block under
"batch size: N", and its --result-filename line holds "batch_size": N (BenchOneCaseResult.
dump_to_jsonl). Before: the readings' contexts ("bench_one_batch_server: output throughput: ...")
named no row, so a batch-size-1 run's 120 tok/s was compared with a baseline measured at
concurrency 16 (1400 tok/s: "slower than the baseline"). Now each reading carries its run's batch
size, and is compared with the baseline of that row only."""

from __future__ import annotations

from spec_debug.session.baselines import BaselineBook, row_key
from spec_debug.session.metrics import scan_metrics
from spec_debug.session.records import MetricRecord

BLOCK = ("batch size: {bs}\ninput_len: 1024\noutput_len: 256\nlatency: 3.10 s\n"
         "input throughput: {inp:.2f} tok/s\noutput throughput: {out:.2f} tok/s\nlast_ttft: 0.11 s\n"
         "last generation throughput: {gen:.2f} tok/s\nacc_length: 3.20 \n")
SWEEP = BLOCK.format(bs=1, inp=9000, out=120.5, gen=121) + BLOCK.format(bs=16, inp=19000, out=1250.5, gen=1300)
RECORD = ('{"run_name": "default", "batch_size": 4, "input_len": 1024, "output_len": 256, "latency": 5.1, '
          '"input_throughput": 19000.0, "output_throughput": 450.25, "overall_throughput": 2000.0, '
          '"last_ttft": 0.81, "last_gen_throughput": 460.0, "acc_length": 2.9}')


def test_each_block_is_of_its_batch_size() -> None:
    rows = [(m.name, m.value, row_key(m.context, m.value)) for m in scan_metrics(SWEEP)]
    assert rows == [("prefill_throughput", 9000.0, "1"), ("throughput", 120.5, "1"),
                    ("last_gen_throughput", 121.0, "1"), ("accept_length", 3.2, "1"),
                    ("prefill_throughput", 19000.0, "16"), ("throughput", 1250.5, "16"),
                    ("last_gen_throughput", 1300.0, "16"), ("accept_length", 3.2, "16")]


def test_a_block_without_its_batch_size_line_states_no_row() -> None:
    text = "input throughput: 9000.00 tok/s\noutput throughput: 120.50 tok/s\n"
    assert [row_key(m.context, m.value) for m in scan_metrics(text)] == [None, None]


def test_the_result_line_is_of_its_batch_size() -> None:
    rows = {m.name: row_key(m.context, m.value) for m in scan_metrics(RECORD)}
    assert rows == {"prefill_throughput": "4", "throughput": "4", "total_throughput": "4",
                    "last_gen_throughput": "4", "accept_length": "4"}


def _rec(seq: int, value: float, context: str) -> MetricRecord:
    return MetricRecord("s", seq, "main", "throughput", value, "tok/s", None, context)


def test_a_bs1_run_is_not_compared_with_a_concurrency_16_baseline() -> None:
    book = BaselineBook()
    book.note(_rec(1, 1400.0, "Output token throughput (tok/s): 1400.00"),
              "python3 -m sglang.bench_serving --backend sglang --max-concurrency 16 --num-prompts 64")
    book.note(_rec(2, 1300.0, "Output token throughput (tok/s): 1300.00"),
              "python3 -m sglang.bench_serving --backend sglang --max-concurrency 16 --num-prompts 64")
    command = "python3 -m sglang.bench_one_batch_server --model-path meta-llama/Llama-3.1-8B-Instruct --batch-size 1 16"
    small, large = (m for m in scan_metrics(SWEEP) if m.name == "throughput")
    assert book.pair(_rec(3, small.value, small.context), command) is None
    paired = book.pair(_rec(4, large.value, large.context), command)
    assert paired is not None and paired.seq == 2
