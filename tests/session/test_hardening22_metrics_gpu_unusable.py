"""torch finding no usable GPU, and ROCm's runtime errors, are GPU errors (kind cuda_error).

"RuntimeError: No CUDA GPUs are available" (CUDA_VISIBLE_DEVICES empty, a container without
--gpus), "Found no NVIDIA driver on your system", "The NVIDIA driver on your system is too old",
"CUDA driver initialization failed" and "Torch not compiled with CUDA enabled" were plain
exceptions, though nvidia-smi's own "couldn't communicate with the NVIDIA driver" is a
cuda_error: the same fault read two ways. ROCm's torch says "HIP error: invalid device function"
where CUDA's says "CUDA error: ...": it was a plain RuntimeError.
"""

import pytest

from spec_debug.session.failures import extract_errors

TRACEBACK = '''\
Traceback (most recent call last):
  File "/x/serve.py", line 3, in <module>
    torch.zeros(1).cuda()
  File "/usr/lib/python3/dist-packages/torch/cuda/__init__.py", line 319, in _lazy_init
    torch._C._cuda_init()
{line}
'''


@pytest.mark.parametrize("line", [
    "RuntimeError: No CUDA GPUs are available",
    "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a "
    "driver from http://www.nvidia.com/Download/index.aspx",
    "RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver",
    "RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu.",
    "AssertionError: Torch not compiled with CUDA enabled",
])
def test_no_usable_gpu_is_a_gpu_error(line):
    [err] = extract_errors(TRACEBACK.format(line=line), exit_code=1)
    assert err.kind == "cuda_error" and err.file.endswith("torch/cuda/__init__.py")
    [bare] = extract_errors(line + "\n", exit_code=1)
    assert bare.kind == "cuda_error"


def test_rocms_hip_error_is_a_gpu_error():
    text = ("RuntimeError: HIP error: invalid device function\nHIP kernel errors might be asynchronously reported at "
            "some other API call, so the stacktrace below might be incorrect.\n")
    [err] = extract_errors(text, exit_code=1)
    assert (err.kind, err.message) == ("cuda_error", "HIP error: invalid device function")


def test_the_words_in_a_clean_output_are_no_error():
    assert extract_errors("INFO: HIP error handling enabled\nready\n", exit_code=0) == []
