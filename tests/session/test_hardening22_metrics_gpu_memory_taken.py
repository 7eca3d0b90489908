"""vLLM's "Free memory on device ... is less than desired GPU memory utilization" is an OOM.

vLLM checks at start that the GPU has the share --gpu-memory-utilization asks for (vllm/v1/
worker/gpu_worker.py, init_device) and raises "ValueError: Free memory on device (13.91/79.33
GiB) on startup is less than desired GPU memory utilization (0.95, 75.36 GiB). Decrease GPU
memory utilization or reduce GPU memory used by other processes.": another process holds the
GPU, in an agent's session most often the server an earlier attempt left running. It was a
plain ValueError, no memory fault at all.
"""

from spec_debug.session.failures import extract_errors

P = "(EngineCore_DP0 pid=16388) ERROR 03-01 21:32:52 [core.py:708] "
ENGINE = "".join(P + line + "\n" for line in [
    "EngineCore failed to start.",
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_worker.py", line 187, in init_device',
    "    raise ValueError(",
    "ValueError: Free memory on device (13.91/79.33 GiB) on startup is less than desired GPU memory utilization "
    "(0.95, 75.36 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.",
])


def test_the_engines_traceback_is_an_oom():
    [err] = extract_errors(ENGINE, exit_code=1)
    assert (err.kind, err.exception) == ("cuda_oom", "ValueError")
    assert err.file.endswith("gpu_worker.py") and err.line == 187


def test_the_line_alone_with_its_device_is_an_oom():
    text = ("ValueError: Free memory on device cuda:0 (55.04/178.34 GiB) on startup is less than desired GPU "
            "memory utilization (0.35, 62.42 GiB).\n")
    [err] = extract_errors(text, exit_code=1)
    assert err.kind == "cuda_oom"


def test_free_memory_in_a_healthy_log_is_no_error():
    text = "INFO 03-01 21:33:00 [gpu_worker.py:270] Free memory on device (70.1/79.33 GiB) after loading weights\n"
    assert extract_errors(text, exit_code=0) == []
