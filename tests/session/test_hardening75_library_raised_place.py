"""Triton's OutOfResources and torch.testing's assert_close are placed at the caller's frame.

An SGLang EAGLE-3 server on an older GPU dies with "triton.runtime.errors.OutOfResources: out of
resource: shared memory, Required: 131072, Hardware limit: 65536. Reducing block sizes or
`num_stages` may help." (sgl-project/sglang#2384; the frames as triton 3.x prints them,
pytorch/helion#470). Before, the error's place was triton/compiler/compiler.py's _init_handles,
the same line for every kernel that does not fit; now it is the innermost frame outside triton
(SGLang's extend_attention.py, which chose the block sizes). A drafter check with
torch.testing.assert_close was placed at torch/testing/_comparison.py; now at the user's check.
Triton's own frames stay the place when no other frame is shown."""

from __future__ import annotations

from spec_debug.session.failures import extract_errors

_SITE = "/usr/local/lib/python3.10/dist-packages"
TRITON = f'''[2026-03-02 08:00:01 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2412, in run_scheduler_process
    scheduler.event_loop_normal()
  File "/sgl-workspace/sglang/python/sglang/srt/layers/attention/triton_ops/extend_attention.py", line 419, in extend_attention_fwd
    _fwd_kernel[grid](
  File "{_SITE}/triton/runtime/jit.py", line 345, in <lambda>
    return lambda *args, **kwargs: self.run(grid=grid, warmup=False, *args, **kwargs)
  File "{_SITE}/triton/runtime/jit.py", line 691, in run
    kernel.run(grid_0, grid_1, grid_2, stream, kernel.function, kernel.packed_metadata,
  File "{_SITE}/triton/compiler/compiler.py", line 381, in __getattribute__
    self._init_handles()
  File "{_SITE}/triton/compiler/compiler.py", line 374, in _init_handles
    raise OutOfResources(self.metadata.shared, max_shared, "shared memory")
triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 131072, Hardware limit: 65536. Reducing block sizes or `num_stages` may help.
'''

ASSERT_CLOSE = f'''Traceback (most recent call last):
  File "/home/u/check_drafter.py", line 55, in <module>
    torch.testing.assert_close(ours, ref, rtol=1e-3, atol=1e-3)
  File "{_SITE}/torch/testing/_comparison.py", line 1631, in assert_close
    raise error_metas[0].to_error(msg)
AssertionError: Tensor-likes are not close!
'''


def test_out_of_resources_placed_at_the_kernel_caller():
    [error] = extract_errors(TRITON, exit_code=1)
    assert (error.exception, error.file, error.line) == (
        "triton.runtime.errors.OutOfResources",
        "/sgl-workspace/sglang/python/sglang/srt/layers/attention/triton_ops/extend_attention.py", 419)


def test_assert_close_placed_at_the_check():
    [error] = extract_errors(ASSERT_CLOSE, exit_code=1)
    assert (error.file, error.line) == ("/home/u/check_drafter.py", 55)


def test_only_triton_frames_keep_triton_as_the_place():
    out = "Traceback (most recent call last):\n" + "".join(TRITON.splitlines(True)[5:])  # jit.py's frames on
    [error] = extract_errors(out, exit_code=1)
    assert (error.file, error.line) == (f"{_SITE}/triton/compiler/compiler.py", 374)


def test_a_user_folder_named_triton_is_the_users():
    out = ASSERT_CLOSE.replace(f"{_SITE}/torch/testing/_comparison.py", "/home/u/triton/mykern.py")
    [error] = extract_errors(out, exit_code=1)
    assert (error.file, error.line) == ("/home/u/triton/mykern.py", 1631)
