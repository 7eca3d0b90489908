"""trtllm-bench's PERFORMANCE OVERVIEW is read.

TensorRT-LLM's benchmark CLI ends with "= PERFORMANCE OVERVIEW" and aligned "Key (unit):  value"
lines (NVIDIA/TensorRT-LLM docs: the DeepSeek-V3.2 MTP example and the perf overview pages show
them): "Total Output Throughput (tokens/sec):  274.1786", "Per User Output Throughput [w/ ctx]
(tps/user):  276.2231". Not one was read: a TensorRT-LLM MTP or EAGLE run had no throughput.
"""

from spec_debug.session.metrics import scan_metrics

# NVIDIA/TensorRT-LLM, DeepSeek-V3.2-Exp's MTP example (a tab before each value)
MTP = """\
===========================================================
= PERFORMANCE OVERVIEW
===========================================================
Request Throughput (req/sec):                 \t  0.2678
Total Output Throughput (tokens/sec):         \t  274.1786
Total Token Throughput (tokens/sec):          \t  2467.6070
Total Latency (ms):                           \t  37347.9238
Average request latency (ms):                 \t  3734.7334
Per User Output Throughput [w/ ctx] (tps/user):   276.2231
Per GPU Output Throughput (tps/gpu):          \t  68.5446
Average time-to-first-token [TTFT] (ms):      \t  425.9885
Average time-per-output-token [TPOT] (ms):    \t  3.2344
Per User Output Speed (tps/user):             \t  312.0708
"""

# the older layout, per-user in tokens/sec/user
OLDER = """\
===========================================================
= PERFORMANCE OVERVIEW
===========================================================
Request Throughput (req/sec):                     1.4439
Total Output Throughput (tokens/sec):             185.8351
Per User Output Throughput (tokens/sec/user):     38.1959
Per GPU Output Throughput (tokens/sec/gpu):       185.8351
Total Token Throughput (tokens/sec):              780.1607
Total Latency (ms):                               6925.4963
Average request latency (ms):                     3671.8441
"""


def _readings(text):
    return sorted((m.name, m.value) for m in scan_metrics(text))


def test_the_mtp_examples_overview():
    assert _readings(MTP) == [("per_user_throughput", 276.2231), ("request_throughput", 0.2678),
                              ("throughput", 274.1786), ("total_throughput", 2467.607), ("tpot_mean", 3.2344),
                              ("ttft_mean", 425.9885)]


def test_the_older_overview():
    assert _readings(OLDER) == [("per_user_throughput", 38.1959), ("request_throughput", 1.4439),
                                ("throughput", 185.8351), ("total_throughput", 780.1607)]
