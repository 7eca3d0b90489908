"""Error outputs from GPU serving stacks that used to give a wrong or empty error record.

Each text is the shape the named program prints (sources cited per case)."""

from __future__ import annotations

import json

from spec_debug.session.failures import extract_errors

# torch's NCCL watchdog dying of a CUDA error: ProcessGroupNCCL.cpp's watchdog rethrows the
# CUDA error as c10::DistBackendError (lmdeploy#3048, vllm#9308, sglang#8296 show this text).
WATCHDOG_IMA = (
    "[rank0]:[E117 11:40:54.259889664 ProcessGroupNCCL.cpp:1595] [PG ID 0 PG GUID 0(default_pg) Rank 0] "
    "Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered\n"
    "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be "
    "incorrect.\n"
    "For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
    "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n\n"
    "Exception raised from c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:43 (most recent call first):\n"
    "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 (0x7f4b0f549446 in "
    "/opt/py3/lib/python3.10/site-packages/torch/lib/libc10.so)\n"
    "frame #5: c10d::ProcessGroupNCCL::watchdogHandler() + 0x1da (0x7fa14b231b5a in "
    "/opt/py3/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so)\n\n"
    "terminate called after throwing an instance of 'c10::DistBackendError'\n"
    "  what():  [PG ID 0 PG GUID 0(default_pg) Rank 0] Process group watchdog thread terminated with exception: "
    "CUDA error: an illegal memory access was encountered\n")


def test_a_watchdog_killed_by_an_illegal_memory_access_reports_the_cuda_error_not_the_nccl_messenger():
    # before: kind "nccl", message "terminate called after throwing an instance of 'c10::DistBackendError'"
    for exit_code, known in ((134, True), (None, False)):
        [error] = extract_errors(WATCHDOG_IMA, exit_code=exit_code, status_known=known)
        assert (error.kind, error.message) == ("cuda_error", "CUDA error: an illegal memory access was encountered")


def test_a_ray_worker_line_in_docker_compose_logs_with_colours():
    # vllm#5537: docker compose prefix, Ray's cyan "(RayWorkerWrapper pid=N)" and the watchdog line;
    # before: kind "exit_code" and the escape codes in the message
    text = ("llm-inference-mixtral-20240612-2-1  | \x1b[36m(RayWorkerWrapper pid=14390)\x1b[0m [rank1]:[E "
            "ProcessGroupNCCL.cpp:1414] [PG 2 Rank 1] Process group watchdog thread terminated with exception: "
            "CUDA error: an illegal memory access was encountered\n")
    [error] = extract_errors(text, exit_code=1)
    assert (error.kind, error.message) == ("cuda_error", "CUDA error: an illegal memory access was encountered")


def test_a_bare_runtime_error_naming_a_cuda_error():
    [error] = extract_errors("RuntimeError: CUDA error: device-side assert triggered\n"
                             "CUDA kernel errors might be asynchronously reported at some other API call\n", exit_code=1)
    assert (error.kind, error.exception, error.message) == (
        "cuda_error", "RuntimeError", "CUDA error: device-side assert triggered")


def test_a_cuda_oom_stays_an_oom():
    [error] = extract_errors("RuntimeError: CUDA error: out of memory\n", exit_code=1)
    assert error.kind == "cuda_oom"


def test_a_python_313_coloured_traceback_keeps_its_exception_and_frame():
    # CPython 3.13 Lib/traceback.py + Lib/_colorize.py under FORCE_COLOR=1: file, line and
    # exception type each wrapped in SGR codes. Before: "traceback without an exception line".
    text = ("Traceback (most recent call last):\n"
            '  File \x1b[35m"/root/bench_eagle3.py"\x1b[0m, line \x1b[35m12\x1b[0m, in \x1b[35m<module>\x1b[0m\n'
            "    \x1b[31mrun\x1b[0m\x1b[1;31m()\x1b[0m\n"
            "\x1b[1;35mValueError\x1b[0m: \x1b[35mdraft vocab 32000 != 128256\x1b[0m\n")
    [error] = extract_errors(text, exit_code=1)
    assert (error.kind, error.exception, error.message, error.file, error.line) == (
        "traceback", "ValueError", "draft vocab 32000 != 128256", "/root/bench_eagle3.py", 12)


def _chain() -> str:
    return ('Traceback (most recent call last):\n  File "/app/serve.py", line 3, in <module>\n    import sglang\n'
            "ModuleNotFoundError: No module named 'sglang'\n\n"
            "During handling of the above exception, another exception occurred:\n\n"
            'Traceback (most recent call last):\n  File "/app/serve.py", line 5, in <module>\n'
            '    raise ImportError("install sglang[all]")\nImportError: install sglang[all]\n')


def test_a_traceback_inside_a_json_string():
    # Ray's job API ("Job entrypoint command failed with exit code 1, last available logs ...")
    # printed by curl: every newline is the two characters \n. Before: "traceback with no frames".
    body = json.dumps({"status": "FAILED", "message": "Job entrypoint command failed with exit code 1, last "
                       "available logs (truncated to 20,000 chars):\n" + _chain()})
    [error] = extract_errors(body + "\n", exit_code=0)
    # the chain's propagated exception, its innermost frame
    assert (error.kind, error.exception, error.message, error.file, error.line) == (
        "traceback", "ImportError", "install sglang[all]", "/app/serve.py", 5)
    [error] = extract_errors(json.dumps({"error": 'Traceback (most recent call last):\n  File "/a/b.py", line 12, '
                                         "in f\n    g()\nKeyError: 'd2t'\n"}), exit_code=1)
    assert (error.exception, error.message, error.file, error.line) == ("KeyError", "'d2t'", "/a/b.py", 12)


def test_ssh_connection_timed_out_is_a_connection_failure():
    # openssh-portable sshconnect.c: "ssh: connect to host %s port %s: %s" with strerror(ETIMEDOUT).
    # Before: kind "timeout".
    [error] = extract_errors("ssh: connect to host 10.0.0.5 port 22: Connection timed out\n", exit_code=255)
    assert (error.kind, error.message) == ("connection", "ssh: connect to host 10.0.0.5 port 22: Connection timed out")
    # a read timeout stays a timeout
    [error] = extract_errors("curl: (28) Operation timed out after 30001 milliseconds with 0 bytes received\n",
                             exit_code=28)
    assert error.kind == "timeout"


def test_bash_job_status_line_of_a_killed_process_is_a_signal():
    # bash jobs.c prints a job killed by a signal as "<shell>: line N: <pid, 5 wide> <signal text>  <command>"
    # (the OOM killer's SIGKILL reads "Killed"). Before: kind "exit_code", and nothing at all for a log
    # with no exit status.
    text = "loading weights\nbash: line 1:  4242 Killed                  python3 train_eagle3.py --epochs 3\n"
    for exit_code, known in ((1, True), (None, False)):
        [error] = extract_errors(text, exit_code=exit_code, status_known=known)
        assert (error.kind, error.exception) == ("signal", "Killed")
        assert error.message.startswith("bash: line 1:  4242 Killed")
    [error] = extract_errors("/tmp/run.sh: line 7: 31337 Segmentation fault      (core dumped) ./bench\n", exit_code=1)
    assert (error.kind, error.exception) == ("signal", "Segmentation fault")


def test_a_prose_line_with_killed_is_no_signal():
    assert [e.kind for e in extract_errors("Killed it: the bench is done\n", exit_code=1)] == ["exit_code"]


def _rank_traceback(rank: int, pid: int, line: int) -> list[str]:
    # vLLM V1 multiproc workers: every line behind "(VllmWorker rank=N pid=P) ERROR <time> [file:line] "
    # (vllm-project/vllm#17756 shows the prefix; with TP > 1 the ranks' lines interleave)
    p = f"(VllmWorker rank={rank} pid={pid}) ERROR 07-23 19:35:01 [multiproc_executor.py:522] "
    return [p + "WorkerProc hit an exception.", p + "Traceback (most recent call last):",
            p + '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/executor/multiproc_executor.py", line 517, '
                "in worker_busy_loop",
            p + "    output = func(*args, **kwargs)",
            p + f'  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/spec_decode/eagle.py", line {line}, in propose',
            p + "    hidden_states = self.model(",
            p + f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.96 GiB. GPU {rank} has a total "
                "capacity of 79.19 GiB"]


def test_two_tensor_parallel_ranks_whose_tracebacks_interleave():
    # before: two "traceback without an exception line (truncated output)" records
    lines = [x for pair in zip(_rank_traceback(0, 403, 210), _rank_traceback(1, 404, 211)) for x in pair]
    errors = extract_errors("\n".join(lines) + "\n", exit_code=None, status_known=False)
    assert [(e.kind, e.exception, e.file.rsplit("/", 1)[-1], e.line, e.message.split(". ")[-1][:5]) for e in errors] == [
        ("cuda_oom", "torch.OutOfMemoryError", "eagle.py", 210, "GPU 0"),
        ("cuda_oom", "torch.OutOfMemoryError", "eagle.py", 211, "GPU 1")]


def test_a_prefix_only_the_first_line_has_is_still_no_margin():
    text = ('ERROR: Traceback (most recent call last):\n  File "/app/x.py", line 4, in <module>\n    f()\n'
            "ValueError: bad draft\nERROR: something else\n")
    [error] = extract_errors(text, exit_code=1)
    assert (error.exception, error.message, error.line) == ("ValueError", "bad draft", 4)


def test_nccl_running_out_of_gpu_memory_is_an_oom():
    # NCCL_DEBUG=WARN output when its buffers do not fit (NVIDIA/nccl src/include/checks.h CUDACHECK);
    # before: kind "nccl"
    text = ("gpu01:2419:2419 [0] include/alloc.h:48 NCCL WARN Cuda failure 'out of memory'\n"
            "gpu01:2419:2419 [0] NCCL INFO init.cc:1234 -> 1\n")
    [error] = extract_errors(text, exit_code=1)
    assert error.kind == "cuda_oom" and "Cuda failure 'out of memory'" in error.message


def test_an_nccl_error_names_the_exception_that_carried_it():
    # torch ProcessGroupNCCL's C10D_NCCL_CHECK message, raised as DistBackendError; before: exception None
    text = ("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, "
            "unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5\n"
            "ncclUnhandledCudaError: Call to CUDA function failed.\n")
    [error] = extract_errors(text, exit_code=1)
    assert (error.kind, error.exception) == ("nccl", "torch.distributed.DistBackendError")


# `docker logs -t` of an SGLang container whose tokenizer manager could not bind its ZMQ port
# (the lines as a public deployment report quotes them: RFC 3339 nanosecond stamps on every line).
STAMPED = (
    "2026-09-22T06:50:07.809512345Z Traceback (most recent call last):\n"
    '2026-09-22T06:50:07.809612345Z   File "/sgl-workspace/sglang/python/sglang/srt/managers/tokenizer_manager.py", '
    "line 124, in init_ipc_channels\n"
    "2026-09-22T06:50:07.809712345Z     self.recv_from_detokenizer = get_zmq_socket(\n"
    "2026-09-22T06:50:07.810074780Z zmq.error.ZMQError: Address already in use (addr='tcp://127.0.0.1:29236')\n"
    "2026-09-22T06:50:07.810311167Z [2026-09-22 06:50:07] Received sigquit from a child process. It usually means "
    "the child failed.\n")


def test_a_traceback_with_a_timestamp_on_every_line():
    # before: "traceback without an exception line (truncated output)", no file
    for text in (STAMPED, "".join("sglang-1  | " + line + "\n" for line in STAMPED.splitlines())):
        [error] = extract_errors(text, exit_code=0)
        assert (error.kind, error.exception, error.message, error.file.rsplit("/", 1)[-1], error.line) == (
            "connection", "zmq.error.ZMQError", "Address already in use (addr='tcp://127.0.0.1:29236')",
            "tokenizer_manager.py", 124)


def test_sglang_sigquit_line_in_a_log_tail_read_with_exit_status_0():
    # `tail -n 3 server.log` after the scheduler's traceback scrolled out; before: no error at all
    text = ("[2026-03-13 14:24:20] INFO:     127.0.0.1:51234 - \"GET /health HTTP/1.1\" 200 OK\n"
            "[2026-03-13 14:24:23] Received sigquit from a child process. It usually means the child failed.\n"
            "Killed\n")
    [error] = extract_errors(text, exit_code=0)
    assert (error.kind, error.exception) == ("signal", "SIGQUIT")
    assert error.message.endswith("It usually means the child failed.")
