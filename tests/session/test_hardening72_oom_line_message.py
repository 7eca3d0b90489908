"""An OOM read from a line of its own, with no traceback around it, keeps its exception's name
in ``exception`` only, as a traceback's OOM does: the message is what follows "Name: ".

Before, the message was the whole line: "RuntimeError: CUDA driver error: out of memory" where the
same OOM in its traceback read "CUDA driver error: out of memory", and a logger's prefix stayed
in front ("(EngineCore_0 pid=41) ERROR 10-14 09:20:05 [core.py:700] torch.OutOfMemoryError: ..."),
so the report said the name twice ("torch.OutOfMemoryError: (EngineCore_0 ...) torch.OutOfMemoryError:
CUDA out of memory. ...").
"""

from __future__ import annotations

import pytest

from spec_debug.session.failures import error_said, extract_errors

OOM = ("CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which "
       "1.06 GiB is free.")
TRACEBACK = ('Traceback (most recent call last):\n  File "/srv/bench.py", line 9, in <module>\n'
             "    x = torch.empty(n, device='cuda')\n")


@pytest.mark.parametrize("line", [
    f"torch.OutOfMemoryError: {OOM}",
    f"(EngineCore_0 pid=41) ERROR 10-14 09:20:05 [core.py:700] torch.OutOfMemoryError: {OOM}",
    f"[2026-03-02 08:10:00 TP0] Scheduler hit an exception: torch.OutOfMemoryError: {OOM}",
])
def test_the_line_reads_as_its_traceback_does(line: str):
    (alone,) = extract_errors(line + "\n", 1, True)
    (traced,) = extract_errors(TRACEBACK + f"torch.OutOfMemoryError: {OOM}\n", 1, True)
    assert (alone.kind, alone.exception, alone.message) == ("cuda_oom", "torch.OutOfMemoryError", OOM)
    assert (traced.kind, traced.exception, traced.message) == ("cuda_oom", "torch.OutOfMemoryError", OOM)
    assert error_said(alone.exception, alone.kind, alone.message) == f"torch.OutOfMemoryError: {OOM}"


def test_older_torch_runtime_error():
    line = "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total capacity)"
    assert [(e.kind, e.exception, e.message) for e in extract_errors(line, 1, True)] == [
        ("cuda_oom", "RuntimeError", "CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total capacity)")]


def test_a_line_that_names_no_exception_is_kept_whole():
    line = "misc/alloc.h:143 NCCL WARN Cuda failure 'out of memory'"
    assert [(e.kind, e.exception, e.message) for e in extract_errors(line, 1, True)] == [
        ("cuda_oom", None, line)]
