"""GenAI-Perf's CSV export, printed with `cat`, gives its readings.

genai-perf writes profile_export_genai_perf.csv (genai_perf/export_data/csv_exporter.py): the
request metrics under "Metric,avg,min,max,p99,...", their average first, then the throughputs
under "Metric,Value"; numbers formatted "{:,.2f}", so those of 1000 and more are quoted. An agent
that read the file instead of the console table got no reading at all."""

from spec_debug.session.metrics import scan_metrics

CSV = """Metric,avg,min,max,p99,p95,p90,p75,p50,p25
Time To First Token (ms),16.26,12.39,17.25,17.09,16.68,16.56,16.34,16.26,16.10
Inter Token Latency (ms),6.53,6.08,7.04,7.00,6.90,6.76,6.58,6.50,6.40
Request Latency (ms),"1,657.72","1,545.25","2,120.54","2,091.65","1,900.00","1,720.28","1,673.10","1,650.00","1,600.00"
Output Token Throughput Per User (tokens/sec/user),153.06,142.05,164.44,164.26,160.00,158.77,154.08,153.00,150.00
Output Sequence Length (tokens),253.14,240.00,259.00,258.72,258.00,256.10,255.00,253.00,250.00

Metric,Value
Output Token Throughput (per sec),"1,220.34"
Request Throughput (per sec),4.82
Request Count (count),72.00
"""


def test_the_averages_and_throughputs_are_read() -> None:
    assert [(m.name, m.value, m.unit) for m in scan_metrics(CSV)] == [
        ("ttft_mean", 16.26, "ms"), ("tpot_mean", 6.53, "ms"), ("e2e_latency_mean", 1657.72, "ms"),
        ("per_user_throughput", 153.06, "tok/s"), ("throughput", 1220.34, "tok/s"), ("request_throughput", 4.82, "req/s")]


def test_another_csv_is_no_genai_perf_export() -> None:
    assert scan_metrics("model,Output Token Throughput (per sec)\nllama,1220.34\n") == []
