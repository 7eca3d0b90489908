"""An NCCL error carries the reason NCCL gave under "Last error:".

torch's c10d reports a failed NCCL call as "NCCL error in: <file>:<line>, <result>
(run with NCCL_DEBUG=INFO for details), NCCL version X", then the result's name and, under
"Last error:", what NCCL found (ncclGetLastError). The error kept only the first line: two ranks
on one GPU ("Duplicate GPU detected"), a peer that could not be reached ("socketStartConnect:
Connect to ... failed") and an InfiniBand fault all read "unhandled system error" or "invalid
usage", the one fact to act on lost.
"""

from spec_debug.session.failures import extract_errors

DUPLICATE = """\
Traceback (most recent call last):
  File "/x/train.py", line 20, in <module>
    dist.barrier()
torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.21.5
ncclInvalidUsage: This usually reflects invalid usage of NCCL library.
Last error:
Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1000
"""

P = "(VllmWorker rank=1 pid=7) ERROR 06-01 10:00:00 [multiproc_executor.py:470] "
UNREACHABLE = "".join(P + line + "\n" for line in [
    "WorkerProc failed to start.",
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/distributed/parallel_state.py", line 1000, in init_distributed_environment',
    "    torch.distributed.all_reduce(data)",
    "torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3356, "
    "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.2",
    "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. ",
    "Last error:",
    "socketStartConnect: Connect to 10.0.0.2<46789> failed : Software caused connection abort",
])


def test_the_reason_under_last_error_is_kept():
    [err] = extract_errors(DUPLICATE, exit_code=1)
    assert err.kind == "nccl"
    assert err.message.endswith("| Last error: Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1000")
    assert err.message.startswith("NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, invalid usage")


def test_the_reason_behind_a_log_prefix_is_kept():
    [err] = extract_errors(UNREACHABLE, exit_code=1)
    assert err.kind == "nccl"
    assert err.message.endswith(
        "| Last error: socketStartConnect: Connect to 10.0.0.2<46789> failed : Software caused connection abort")
    assert len(err.message) <= 300


def test_the_reason_without_a_traceback_is_kept():
    text = ("[rank0]: RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details), "
            "NCCL version 2.20.5\n[rank0]: ncclSystemError: System call failed.\nLast error:\n"
            "NET/IB : Got completion from peer 10.0.0.3<5923> with status=12 opcode=0 len=0 vendor err 129 (Recv)\n")
    [err] = extract_errors(text, exit_code=1)
    assert err.kind == "nccl" and err.message.endswith("vendor err 129 (Recv)")


def test_an_nccl_error_without_one_is_as_before():
    text = DUPLICATE.split("ncclInvalidUsage")[0]
    [err] = extract_errors(text, exit_code=1)
    assert err.message == ("NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, invalid usage "
                           "(run with NCCL_DEBUG=WARN for details), NCCL version 2.21.5")
