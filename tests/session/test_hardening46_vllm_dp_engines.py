"""A data-parallel vLLM server's throughput is the sum of its engines'.

With --data-parallel-size N, vLLM logs one stats line per engine each interval (vllm/v1/metrics/
loggers.py: a LoggingStatLogger per engine index, "Engine %03d: Avg prompt throughput: ...",
each counting its own engine's tokens). The mean over every line read a 2-engine server at half
its throughput, and compared that half with a single-engine baseline."""

from spec_debug.session.metrics import extract_metrics

P = "(APIServer pid=3120) INFO 10-14 09:12:{s:02d} [loggers.py:123] "


def _line(second: int, engine: int, prompt: float, gen: float) -> str:
    return (P.format(s=second) + f"Engine {engine:03d}: Avg prompt throughput: {prompt:.1f} tokens/s, "
            f"Avg generation throughput: {gen:.1f} tokens/s, Running: 16 reqs, Waiting: 0 reqs, "
            f"GPU KV cache usage: 12.3%, Prefix cache hit rate: 45.6%\n")


def _readings(text: str) -> list[tuple[str, float, str]]:
    return [(m.name, m.value, m.context) for m in extract_metrics(text) if m.name.endswith("throughput")]


def test_two_engines_are_summed() -> None:
    text = _line(10, 0, 900.0, 400.0) + _line(10, 1, 800.0, 380.0) + _line(20, 0, 0.0, 410.0) + _line(20, 1, 0.0, 390.0)
    ctx = "sum over 2 engines of each engine's mean (4 lines)"
    assert _readings(text) == [("throughput", 405.0 + 385.0, f"vLLM generation stats, {ctx}"),
                               ("prompt_throughput", 900.0 + 800.0, f"vLLM prompt stats, {ctx}")]


def test_one_engine_is_its_mean_as_before() -> None:
    text = _line(10, 0, 900.0, 400.0) + _line(20, 0, 0.0, 410.0)
    assert _readings(text) == [("throughput", 405.0, "vLLM generation stats, mean of 2 lines, batch size 16"),
                               ("prompt_throughput", 900.0, "vLLM prompt stats, mean of 1 line")]
