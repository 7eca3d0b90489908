"""The cause a chain of exceptions reports keeps the lines printed under its own exception.

A script that wraps NCCL's failure (``raise RuntimeError("distributed init failed") from e``)
or fails again in its handler prints the DistBackendError's traceback, NCCL's "Last error:"
under it, then "The above exception was the direct cause ..." and its own traceback. The chain
is reported as the NCCL error, but its message lost the "Last error:" reason (a peer that could
not be reached, two ranks on one GPU) that the same error printed alone keeps: those lines were
looked for after the chain's last traceback, not after the cause's exception. Now the cause's
own lines are read, as for the error printed alone.
"""

from spec_debug.session.failures import extract_errors

NCCL = """\
Traceback (most recent call last):
  File "/work/launch_eagle.py", line 31, in init_dist
    dist.all_reduce(torch.ones(1, device="cuda"))
torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3356, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.2
ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. 
Last error:
socketStartConnect: Connect to 10.0.0.2<46789> failed : Software caused connection abort
"""

WRAPPED = NCCL + """
The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/work/launch_eagle.py", line 60, in <module>
    init_dist()
  File "/work/launch_eagle.py", line 34, in init_dist
    raise RuntimeError("distributed init failed") from e
RuntimeError: distributed init failed
"""

HANDLED = NCCL + """
During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/work/launch_eagle.py", line 60, in <module>
    init_dist()
  File "/work/launch_eagle.py", line 36, in init_dist
    dist.destroy_process_group(group)
AttributeError: 'NoneType' object has no attribute 'group_name'
"""

REASON = ("NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3356, unhandled system error "
          "(run with NCCL_DEBUG=INFO for details), NCCL version 2.26.2 | Last error: socketStartConnect: Connect to "
          "10.0.0.2<46789> failed : Software caused connection abort")


def test_alone_keeps_the_reason():
    [err] = extract_errors(NCCL, exit_code=1)
    assert (err.kind, err.exception, err.message) == ("nccl", "torch.distributed.DistBackendError", REASON)


def test_raised_from_keeps_the_causes_reason():
    [err] = extract_errors(WRAPPED, exit_code=1)
    assert (err.kind, err.exception, err.file, err.line) == \
        ("nccl", "torch.distributed.DistBackendError", "/work/launch_eagle.py", 31)
    assert err.message == REASON


def test_handlers_slip_keeps_the_causes_reason():
    [err] = extract_errors(HANDLED, exit_code=1)
    assert (err.kind, err.exception, err.file, err.line) == \
        ("nccl", "torch.distributed.DistBackendError", "/work/launch_eagle.py", 31)
    assert err.message == REASON


def test_no_status_log_reads_the_same():
    [err] = extract_errors(WRAPPED, exit_code=None, status_known=False)
    assert (err.kind, err.message) == ("nccl", REASON)
