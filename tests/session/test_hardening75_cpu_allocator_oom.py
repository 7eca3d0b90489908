"""torch's CPU allocator running out of host memory is a host out-of-memory error.

A user dumping EAGLE-3 hidden states into one CPU tensor (or converting a checkpoint in RAM)
gets "RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't
allocate memory: you tried to allocate N bytes. Error code 12 (Cannot allocate memory)". Before,
its kind was a plain ``traceback`` (``exception`` without one): nothing said it was memory. Now
it is ``host_oom``, as the kernel's OOM killer is: the fix is host RAM or a smaller dump, not the
GPU's memory share. The first output is torch 2.13's, from ``torch.empty(2**46, dtype=torch.uint8)``."""

from __future__ import annotations

from spec_debug.session.failures import extract_errors

REAL = '''Traceback (most recent call last):
  File "/home/u/dump_hidden.py", line 2, in <module>
    buf = torch.empty(2**46, dtype=torch.uint8)
          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate 70368744177664 bytes. Error code 12 (Cannot allocate memory)
'''
MALLOC = ("RuntimeError: [enforce fail at alloc_cpu.cpp:117] data. DefaultCPUAllocator: not enough memory: "
          "you tried to allocate 68719476736 bytes.")


def test_traceback_of_the_cpu_allocator_is_host_oom():
    [error] = extract_errors(REAL, exit_code=1)
    assert (error.kind, error.exception, error.file, error.line) == (
        "host_oom", "RuntimeError", "/home/u/dump_hidden.py", 2)
    assert error.message.endswith("you tried to allocate 70368744177664 bytes. Error code 12 (Cannot allocate memory)")


def test_bare_exception_line_is_host_oom():
    [error] = extract_errors(f"converting layer 31\n{MALLOC}\n", exit_code=1)
    assert (error.kind, error.exception) == ("host_oom", "RuntimeError")
    assert error.message.startswith("[enforce fail at alloc_cpu.cpp:117] data. DefaultCPUAllocator: not enough memory")


def test_cuda_oom_stays_cuda_oom():
    out = REAL.replace(REAL.splitlines()[-1], "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.")
    [error] = extract_errors(out, exit_code=1)
    assert error.kind == "cuda_oom"
