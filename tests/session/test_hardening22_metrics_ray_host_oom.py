"""Ray's OutOfMemoryError is the host's memory running out, not the GPU's.

Ray's memory monitor kills a worker when the node's RAM passes RAY_memory_usage_threshold and
raises "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on
memory." (ray python/ray/exceptions.py). vLLM's Ray workers die so (vllm-project/vllm#15102,
a DeepSeek-V3 server on 16 H20s), as do RL trainers' rollouts. It was read as a CUDA OOM, whose
fix (a smaller --gpu-memory-utilization, a smaller batch on the GPU) does nothing for host RAM.
"""

from spec_debug.session.failures import extract_errors

# vllm-project/vllm#15102, behind vLLM V1's EngineCore log prefix
VLLM_RAY = """\
ERROR 03-21 17:27:44 [core.py:340] EngineCore hit an exception: Traceback (most recent call last):
ERROR 03-21 17:27:44 [core.py:340]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 333, in run_engine_core
ERROR 03-21 17:27:44 [core.py:340]     engine_core.run_busy_loop()
ERROR 03-21 17:27:44 [core.py:340]   File "/usr/local/lib/python3.12/dist-packages/ray/_private/worker.py", line 2771, in get
ERROR 03-21 17:27:44 [core.py:340]     raise value
ERROR 03-21 17:27:44 [core.py:340] ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.
ERROR 03-21 17:27:44 [core.py:340] Memory on the node (IP: 29.45.33.204, ID: 3486ef92af91b0494ff27f70492b1895998d2c380f41e1132316408a) where the task (actor ID: 46c8d4da5261e03252fadd9c05000000, name=RayWorkerWrapper.__init__, pid=13378, memory used=3.37GB) was running was 2152.43GB / 2265.25GB (0.950196), which exceeds the memory usage threshold of 0.95.
"""

# the exception line alone, as a tool's tail shows it
BARE = ("ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n"
        "Memory on the node (IP: 10.0.0.1, ID: fc2b) where the task (actor ID: f9cc, name=SimEnv.__init__, pid=4331, "
        "memory used=2.22GB) was running was 59.49GB / 62.58GB (0.950744), which exceeds the memory usage threshold of 0.95.\n")


def test_rays_oom_in_a_traceback_is_no_cuda_oom():
    [err] = extract_errors(VLLM_RAY, exit_code=1)
    assert err.kind != "cuda_oom"
    assert (err.exception, err.message) == (
        "ray.exceptions.OutOfMemoryError", "Task was killed due to the node running low on memory.")
    assert err.file.endswith("ray/_private/worker.py")


def test_rays_oom_alone_is_no_cuda_oom():
    [err] = extract_errors(BARE, exit_code=1)
    assert (err.kind, err.exception) == ("exception", "ray.exceptions.OutOfMemoryError")


def test_torchs_oom_is_still_one():
    text = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
    assert extract_errors(text, exit_code=1)[0].kind == "cuda_oom"
    text = "torch.cuda.OutOfMemoryError: Allocation on device 0 would exceed allowed memory.\n"
    assert extract_errors(text, exit_code=1)[0].kind == "cuda_oom"
