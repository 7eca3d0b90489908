"""GenAI-Perf's and AIPerf's latency rows are readings: TTFT, the per-request inter-token latency
(vLLM's TPOT) and the request latency, in ms, from the avg column.

The tables are GenAI-Perf's own examples (triton-inference-server/perf_analyzer genai-perf
README and multi-modal docs); AIPerf names the same rows (ai-dynamo/aiperf metrics/types:
"Time to First Token", "Inter Token Latency" = (request latency - TTFT) / (OSL - 1), "Request
Latency"). A cell rich cut to fit the terminal ("1,971…") is no number.
"""

from spec_debug.session.metrics import scan_metrics

BAR = "\u2502"


def _row(key, *cells):
    return BAR + f" {key} " + BAR + "".join(f" {c} {BAR}" for c in cells)


GENAI_PERF_2024 = "\n".join([
    "                                         LLM Metrics",
    "\u2503                Statistic \u2503      avg \u2503      min \u2503      max \u2503",
    _row("Time to first token (ms)", "  321.05", "  291.30", "  537.07"),
    _row("Inter token latency (ms)", "   12.28", "   11.44", "   12.88"),
    _row("    Request latency (ms)", "1,866.23", "1,044.70", "2,832.22"),
    _row("  Output sequence length", "  126.68", "   59.00", "  204.00"),
    "Output token throughput (per sec): 67.40",
]) + "\n"

GENAI_PERF_MULTIMODAL = "\n".join([
    " NVIDIA GenAI-Perf | Multi-Modal Metrics",
    _row("Time To First Token (ms)", "205.38", "172.31", "1,020.58"),
    _row("Time To Second Token (ms)", "18.58", "18.03", "19.22"),
    _row("Request Latency (ms)", "369.06", "336.56", "1,183.65"),
    _row("Inter Token Latency (ms)", "16.41", "16.27", "18.32"),
    _row("Output Token Throughput (per sec)", "29.74", "N/A", "N/A"),
]) + "\n"


def _readings(text):
    return {m.name: m.value for m in scan_metrics(text, False)
            if m.name in ("ttft_mean", "tpot_mean", "e2e_latency_mean", "throughput")}


def test_the_latency_rows_are_read_from_the_avg_column():
    assert _readings(GENAI_PERF_2024) == {"ttft_mean": 321.05, "tpot_mean": 12.28, "e2e_latency_mean": 1866.23,
                                          "throughput": 67.4}
    # the second token's time is not the first's
    assert _readings(GENAI_PERF_MULTIMODAL) == {"ttft_mean": 205.38, "tpot_mean": 16.41, "e2e_latency_mean": 369.06,
                                                "throughput": 29.74}


def test_a_cell_cut_to_fit_is_not_read():
    cut = _row("    Request latency (ms)", "1,971\u2026", " 55.56", "2,175\u2026") + "\n"
    assert "e2e_latency_mean" not in _readings(cut)
