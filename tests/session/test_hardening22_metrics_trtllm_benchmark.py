"""TensorRT-LLM's benchmark reports are read.

gptManagerBenchmark (benchmarks/cpp/gptManagerBenchmark.cpp, report()) prints
"[BENCHMARK] token_throughput(token/sec) X" and, for speculative decoding, "[BENCHMARK]
avg_acceptance_rate(tokens/decoding steps) X" (tokens per decoding step: the mean acceptance
length, 1.00 without a draft); the Python benchmark.py one line with
"generation_tokens_per_second X" (NVIDIA/TensorRT-LLM#1410). None was read: a TensorRT-LLM
EAGLE run had no throughput and no acceptance.
"""

from spec_debug.session.metrics import scan_metrics

CPP = """\
[BENCHMARK] num_samples 80
[BENCHMARK] num_error_samples 0

[BENCHMARK] num_samples 80
[BENCHMARK] total_latency(ms) 60123.45
[BENCHMARK] seq_throughput(seq/sec) 1.33
[BENCHMARK] token_throughput(token/sec) 340.25
[BENCHMARK] avg_acceptance_rate(tokens/decoding steps) 2.71

[BENCHMARK] avg_sequence_latency(ms) 7512.33
"""

PYTHON = ("[BENCHMARK] model_name llama_13b world_size 2 num_heads 40 num_kv_heads 40 num_layers 40 hidden_size 5120 "
          "vocab_size 32000 precision float16 batch_size 1 input_length 710 output_length 190 gpu_peak_mem(gb) 0.0 "
          "build_time(s) 116.39 tokens_per_sec 43.09 percentile95(ms) 5120.208 percentile99(ms) 5120.208 latency(ms) "
          "4409.816 compute_cap sm80 quantization QuantMode.0 generation_time(ms) 3751.546 total_generated_tokens "
          "189.0 generation_tokens_per_second 50.379\n")


def _readings(text, prose=False):
    return sorted((m.name, m.value, m.unit) for m in scan_metrics(text, prose))


def test_gpt_manager_benchmarks_report():
    assert _readings(CPP) == [("accept_length", 2.71, "tokens"), ("throughput", 340.25, "tok/s")]


def test_no_speculation_gives_no_accept_length():
    assert _readings(CPP.replace(" 2.71", " 1.00")) == [("throughput", 340.25, "tok/s")]


def test_the_python_benchmarks_line_gives_its_decode_speed():
    assert _readings(PYTHON) == [("throughput", 50.379, "tok/s")]


def test_the_report_copied_into_markdown():
    text = "".join(f"1732901285,\\[BENCHMARK\\] {line[12:]}\n" for line in CPP.splitlines() if line)
    assert _readings(text, prose=True) == [("accept_length", 2.71, "tokens"), ("throughput", 340.25, "tok/s")]
