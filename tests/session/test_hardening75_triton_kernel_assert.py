"""A Triton (torch inductor) kernel's device-side assertion says which bound was crossed.

vLLM serving past the model's max_position_embeddings (or a draft token past the vocabulary)
trips a bounds check in an inductor-generated Triton kernel: the device prints
"/root/.cache/vllm/torch_compile_cache/.../cxyz.py:53: unknown: block: [129,0,0], thread:
[224,0,0] Assertion `index out of bounds: 0 <= tmp16 < 40960` failed." and the process dies with
"CUDA error: device-side assert triggered". Before, only CUDA kernels' asserts (".cu:N:") were
read: the error said "device-side assert triggered" and nothing of the 40960. Now the assertion
and the kernel's file:line follow it, as for a CUDA kernel's; a kernel Triton has no source of
("unknown:0: unknown: ...") gives the assertion alone; "unknown" is no kernel's name."""

from __future__ import annotations

from spec_debug.session.failures import extract_errors

_KERNEL = "/root/.cache/vllm/torch_compile_cache/torch_aot_compile/3f9a/rank_0_0/inductor_cache/xy/cxyz.py:53"
ABORT = f"""(EngineCore_DP0 pid=311) {_KERNEL}: unknown: block: [129,0,0], thread: [224,0,0] Assertion `index out of bounds: 0 <= tmp16 < 40960` failed.
(EngineCore_DP0 pid=311) {_KERNEL}: unknown: block: [129,0,0], thread: [225,0,0] Assertion `index out of bounds: 0 <= tmp16 < 40960` failed.
(EngineCore_DP0 pid=311) terminate called after throwing an instance of 'c10::AcceleratorError'
(EngineCore_DP0 pid=311)   what():  CUDA error: device-side assert triggered
(EngineCore_DP0 pid=311) Search for `cudaErrorAssert' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information.
"""
TRACEBACK = """unknown:0: unknown: block: [0,0,0], thread: [32,0,0] Assertion `index out of bounds: 0 <= tmp42 < 1024` failed.
Traceback (most recent call last):
  File "/w/eagle_draft.py", line 77, in <module>
    logits = model(ids)
torch.AcceleratorError: CUDA error: device-side assert triggered
Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.
"""


def test_inductor_kernel_assert_read_with_its_file():
    [error] = extract_errors(ABORT, exit_code=134)
    assert (error.kind, error.message) == (
        "cuda_error", "CUDA error: device-side assert triggered | Assertion `index out of bounds: 0 <= tmp16 < 40960` "
                      "failed (cxyz.py:53)")


def test_kernel_without_source_gives_the_assertion_alone():
    [error] = extract_errors(TRACEBACK, exit_code=1)
    assert (error.exception, error.file, error.line) == ("torch.AcceleratorError", "/w/eagle_draft.py", 77)
    assert error.message == ("CUDA error: device-side assert triggered | "
                             "Assertion `index out of bounds: 0 <= tmp42 < 1024` failed")


def test_assert_line_alone_is_the_error():
    out = f"{_KERNEL}: unknown: block: [0,0,0], thread: [1,0,0] Assertion `index out of bounds: 0 <= tmp3 < 32000` failed.\n"
    [error] = extract_errors(out, exit_code=134)
    assert (error.kind, error.message) == ("cuda_error", out.strip())


def test_cuda_kernel_assert_unchanged():
    out = ("/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1500: indexSelectSmallIndex: block: [32,0,0], thread: [63,0,0] "
           "Assertion `srcIndex < srcSelectDimSize` failed.\nRuntimeError: CUDA error: device-side assert triggered\n")
    [error] = extract_errors(out, exit_code=1)
    assert error.message.endswith("| Assertion `srcIndex < srcSelectDimSize` failed (Indexing.cu:1500 indexSelectSmallIndex)")
