"""The prompt's speed is no decode throughput, in two more tools' output.

- Ollama's ``ollama run --verbose`` summary (ollama api/types.go, Metrics.Summary): "prompt eval
  rate:     191.76 tokens/s" above "eval rate:            35.76 tokens/s". Both were read as
  decode throughput.
- llama-bench's table (ggml-org/llama.cpp tools/llama-bench/llama-bench.cpp), one row per test:
  "pp512" times a 512-token prompt (prefill), "tg128" 128 generated tokens. The pp512 row's 5234
  t/s was read as a decode throughput, 40 times the run's real one.
"""

from spec_debug.session.metrics import extract_metrics

OLLAMA = """\
total duration:       8.271203625s
load duration:        23.891083ms
prompt eval count:    26 token(s)
prompt eval duration: 135.587ms
prompt eval rate:     191.76 tokens/s
eval count:           290 token(s)
eval duration:        8.110339s
eval rate:            35.76 tokens/s
"""

LLAMA_BENCH = """\
| model                          |       size |     params | backend    | ngl |            test |                  t/s |
| ------------------------------ | ---------: | ---------: | ---------- | --: | --------------: | -------------------: |
| llama 8B Q4_K - Medium         |   4.58 GiB |     8.03 B | CUDA       |  99 |           pp512 |      5234.56 ± 12.34 |
| llama 8B Q4_K - Medium         |   4.58 GiB |     8.03 B | CUDA       |  99 |           tg128 |        123.45 ± 0.56 |
| llama 8B Q4_K - Medium         |   4.58 GiB |     8.03 B | CUDA       |  99 |     pp512+tg128 |        400.10 ± 1.00 |
| llama 8B Q4_K - Medium         |   4.58 GiB |     8.03 B | CUDA       |  99 |  tg128 @ d4096 |        101.20 ± 0.40 |
"""


def _readings(text):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=False))


def test_ollama_prompt_eval_rate_is_prefill():
    assert _readings(OLLAMA) == [("prefill_throughput", 191.76), ("throughput", 35.76)]


def test_llama_bench_rows_by_their_test():
    assert _readings(LLAMA_BENCH) == [("prefill_throughput", 5234.56), ("throughput", 101.2),
                                      ("throughput", 123.45), ("total_throughput", 400.1)]
    [tg] = [m for m in extract_metrics(LLAMA_BENCH, prose=False) if m.value == 123.45]
    assert "tg128" in tg.context
