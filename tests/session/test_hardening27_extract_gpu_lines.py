"""nvidia-smi with a GPU gone: a line per lost GPU ("Unable to determine the device handle for
GPU 0000:02:00.0: GPU is lost. Reboot the system to recover this GPU", JosephKJ/OWOD#81), then
"No devices were found" when none is left. The first line says which GPU and why; the error
was the last line, which says neither."""

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
