"""vLLM's old throughput benchmark printed a total, not a decode throughput.

benchmarks/benchmark_throughput.py (before `vllm bench throughput` added "total" and the output
tokens) printed "Throughput: 24.05 requests/s, 27706.33 tokens/s", its tokens the prompts' and
the outputs' together (total_num_tokens = prompt_len + output_len). It was read as the run's
decode throughput, nine times what the engine generated, and compared with baselines."""

from spec_debug.session.metrics import scan_metrics


def _readings(text: str) -> list[tuple[str, float, str]]:
    return [(m.name, m.value, m.unit) for m in scan_metrics(text)]


def test_the_old_line_is_a_total_and_a_request_rate() -> None:
    assert _readings("Processed prompts: 100%|##########| 1000/1000\nThroughput: 24.05 requests/s, 27706.33 tokens/s\n") == [
        ("total_throughput", 27706.33, "tok/s"), ("request_throughput", 24.05, "req/s")]


def test_the_new_line_is_read_as_before() -> None:
    assert _readings("Throughput: 24.05 requests/s, 27706.33 total tokens/s, 3078.48 output tokens/s\n") == [
        ("throughput", 3078.48, "tok/s"), ("total_throughput", 27706.33, "tok/s"), ("request_throughput", 24.05, "req/s")]
