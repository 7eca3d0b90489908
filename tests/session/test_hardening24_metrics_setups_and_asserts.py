"""Real outputs read wrong before round 24.

- A notes file of RTX setups to benchmark (a public GitHub repository, as posted): "| RTX card |
  num | $/h | VRAM | MTP | tok/s | KV | quant |". Its MTP column (tokens a step) was read as
  three runs at 3 tok/s, taking the unit of the bare "tok/s" column beside it, and its "65?" and
  "110?" (guesses for setups not run yet) as readings.
- SGLang's scheduler traceback "RuntimeError: CUDA error: device-side assert triggered" under the
  kernel's own "Indexing.cu:1422: indexSelectLargeIndex: ... Assertion `srcIndex <
  srcSelectDimSize` failed." lost the assertion: the error read as every other device assert.
"""

from spec_debug.session.failures import extract_errors
from spec_debug.session.metrics import extract_metrics

SETUPS = """# setups to benchmark

| RTX card    | num | $/h       | VRAM  | MTP | tok/s | KV    | quant |
| ----------- | --- | --------- | ----- | --- | ----- | ----- | ----- |
| 4090 48 GB  | 1   | 0.39-0.59 | 48 GB | 3?  | 65?   | 165K? | fp8   |
| PRO 4000 BW | 2   | 0.49      | 48 GB | 3   | 66.2  | 165K  | fp8   |
| 5090 BW     | 2   | 0.76      | 64 GB | 3?  | 110?  | 800K? | fp8   |
"""


def _table(text):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=True) if m.context.startswith("table:"))


def test_a_setting_column_beside_a_bare_tok_s_column_is_no_run():
    assert _table(SETUPS) == [("throughput", 66.2)]


def test_a_run_column_beside_a_runs_tok_s_column_still_takes_its_unit():
    text = ("| Batch | Baseline (tok/s) | EAGLE-3 Before Fix | EAGLE-3 After Fix |\n|---|---|---|---|\n"
            "| 1 | 95.0 | 80.1 | 160.4 |\n")
    assert _table(text) == [("baseline_throughput", 95.0), ("throughput", 80.1), ("throughput", 160.4)]


ASSERT_LOG = """../aten/src/ATen/native/cuda/Indexing.cu:1422: indexSelectLargeIndex: block: [113,0,0], thread: [0,0,0] Assertion `srcIndex < srcSelectDimSize` failed.
../aten/src/ATen/native/cuda/Indexing.cu:1422: indexSelectLargeIndex: block: [113,0,0], thread: [1,0,0] Assertion `srcIndex < srcSelectDimSize` failed.
[2026-11-30 10:01:02 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2830, in run_scheduler_process
    scheduler.event_loop_overlap()
  File "/sgl-workspace/sglang/python/sglang/srt/speculative/eagle_worker.py", line 601, in draft_forward
    topk_p, topk_index = fast_topk(probs, self.topk, dim=-1)
RuntimeError: CUDA error: device-side assert triggered
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
For debugging consider passing CUDA_LAUNCH_BLOCKING=1

[2026-11-30 10:01:02] Received sigquit from a child process. It usually means the child failed.
"""


def test_a_device_assert_traceback_says_which_assertion_failed():
    err = extract_errors(ASSERT_LOG, exit_code=1)[0]
    assert (err.kind, err.exception) == ("cuda_error", "RuntimeError")
    assert err.message == ("CUDA error: device-side assert triggered | Assertion `srcIndex < srcSelectDimSize` "
                           "failed (Indexing.cu:1422 indexSelectLargeIndex)")
    assert (err.file, err.line) == ("/sgl-workspace/sglang/python/sglang/srt/speculative/eagle_worker.py", 601)


def test_a_device_assert_without_the_kernels_line_stays_as_it_was():
    log = ASSERT_LOG.split("\n", 2)[2]
    assert extract_errors(log, exit_code=1)[0].message == "CUDA error: device-side assert triggered"
