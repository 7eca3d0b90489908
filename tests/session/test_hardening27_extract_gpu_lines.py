"""nvidia-smi with a GPU gone: a line per lost GPU ("Unable to determine the device handle for
GPU 0000:02:00.0: GPU is lost. Reboot the system to recover this GPU", JosephKJ/OWOD#81), then
"No devices were found" when none is left. The first line says which GPU and why; the error
was the last line, which says neither. A device-side assert NCCL's watchdog reports, with no
traceback, names the kernel's assertion as a traceback's does."""

import pytest

from spec_debug.session.failures import extract_errors

_LOST = "Unable to determine the device handle for GPU 0000:02:00.0: GPU is lost.  Reboot the system to recover this GPU"
_UNKNOWN = "Unable to determine the device handle for GPU0000:17:00.0: Unknown Error"


@pytest.mark.parametrize("first", [_LOST, _UNKNOWN])
def test_the_lost_gpu_s_line_is_the_error(first):
    errors = extract_errors(f"{first}\nNo devices were found\n", exit_code=6)
    assert [(e.kind, e.message) for e in errors] == [("cuda_error", first)]  # was "No devices were found"


def test_no_devices_alone_is_still_the_error():
    assert [e.message for e in extract_errors("No devices were found\n", exit_code=6)] == ["No devices were found"]


def test_a_watchdog_s_device_assert_names_the_kernel_s_assertion():
    # NCCL's watchdog reports the fault with no traceback; the kernel's assertion follows it
    out = ("[rank0]:[E1201 10:11:12.000000000 ProcessGroupNCCL.cpp:2057] [PG ID 0 PG GUID 0(default_pg) Rank 0] "
           "Process group watchdog thread terminated with exception: CUDA error: device-side assert triggered\n"
           "Search for `cudaErrorAssert' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html"
           " for more information.\nDevice-side assertion tracking was not enabled by user.\n"
           "/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1553: indexSelectLargeIndex: block: [12,0,0], thread: "
           "[0,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\n")
    [error] = extract_errors(out, exit_code=1)
    assert error.kind == "cuda_error"
    # was "CUDA error: device-side assert triggered" alone
    assert error.message.endswith("| Assertion `srcIndex < srcSelectDimSize` failed (Indexing.cu:1553 indexSelectLargeIndex)")
