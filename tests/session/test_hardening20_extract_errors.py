"""A traceback whose header was cut off is still a traceback.

Found by running the error extractor over real tracebacks pasted into issues: SGLang's
scheduler crash in sgl-project/sglang#1498 (https://github.com/sgl-project/sglang/pull/1498)
starts at its frames, the "Traceback (most recent call last):" line cut away, as ``tail -n 20
server.log`` cuts a dead server's log. The OOM was found without its frame; a RuntimeError
(sgl-project/sglang#13352, https://github.com/sgl-project/sglang/issues/13352) was not found at
all, since ``tail`` exits 0.
"""

from spec_debug.session.failures import extract_errors

# sgl-project/sglang#1498, as pasted (its first frame line has one space of indent)
OOM_TAIL = '''\
 File "/opt/tiger/sglang/python/sglang/srt/managers/scheduler.py", line 143, in __init__
    self.tp_worker = TpModelWorker(
                     ^^^^^^^^^^^^^^
  File "/opt/tiger/sglang/python/sglang/srt/managers/tp_worker.py", line 62, in __init__
    self.model_runner = ModelRunner(
                        ^^^^^^^^^^^^
  File "/opt/tiger/sglang/python/sglang/srt/model_executor/model_runner.py", line 504, in init_cuda_graphs
    self.cuda_graph_runner = CudaGraphRunner(self)
                             ^^^^^^^^^^^^^^^^^^^^^
  File "/opt/tiger/sglang/python/sglang/srt/layers/attention/triton_backend.py", line 72, in init_cuda_graph_state
    self.cuda_graph_attn_logits = torch.empty(
                                  ^^^^^^^^^^^^
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.00 GiB. GPU 0 has a total capacity of 95.00 GiB
'''
# sgl-project/sglang#13352's frame and exception, as the tail of the server's log
CONCAT_TAIL = '''\
[2025-11-15 10:02:11] Scheduler hit an exception:
  File "/homes/alexh/code/sglang_main/python/sglang/srt/models/llama_eagle3.py", line 88, in forward
    hidden_states = torch.cat([embeds, hidden_states], dim=-1)
                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
RuntimeError: Sizes of tensors must match except in dimension 1. Expected size 6 but got size 8 for tensor number 1 in the list.
'''


def test_a_cut_traceback_keeps_its_innermost_frame():
    [err] = extract_errors(OOM_TAIL, exit_code=0)
    assert err.kind == "cuda_oom"
    assert err.exception == "torch.OutOfMemoryError"
    assert err.file == "/opt/tiger/sglang/python/sglang/srt/layers/attention/triton_backend.py"
    assert err.line == 72


def test_a_cut_traceback_read_by_a_clean_tail_is_an_error():
    [err] = extract_errors(CONCAT_TAIL, exit_code=0)
    assert err.kind == "traceback"
    assert err.exception == "RuntimeError"
    assert err.message.startswith("Sizes of tensors must match")
    assert err.file.endswith("models/llama_eagle3.py") and err.line == 88


def test_frames_without_an_exception_line_are_no_error():
    # a logger's stack (logging's stack_info) or a cut in the middle: no exception was raised
    stack = 'Stack (most recent call last):\n  File "/app/serve.py", line 12, in <module>\n    main()\n'
    assert extract_errors(stack, exit_code=0) == []
    assert extract_errors('see  File "x.py", line 3 in the docs', exit_code=0) == []


# RCCL's warning on a ROCm node booted without iommu=pt (rccl src/init.cc; ROCm's troubleshooting
# docs quote it, and ROCm/rccl#1129), logged on every rank of runs that go on to serve
RCCL_IOMMU = (
    "macpro2019-01:254561:254561 [3] NCCL INFO DMA_BUF Support Enabled\n"
    "[2026-09-06 18:39:07] macpro2019-01:254561:254561 [3] /root/rocm/code/TheRock/build/comm-libs/rccl/build/"
    "hipify/src/init.cc:303 NCCL WARN Missing \"iommu=pt\" from kernel command line which can lead to system "
    "instablity or hang!\n"
    "macpro2019-01:254561:254561 [3] NCCL INFO Hipruntime version: 71460850, firmware version: 0\n"
    "[2026-09-06 18:40:12] The server is fired up and ready to roll!\n")


def test_an_nccl_warning_in_a_clean_output_is_no_error():
    # before: an "nccl" error read from a healthy server log's tail (exit 0)
    assert extract_errors(RCCL_IOMMU, exit_code=0) == []


def test_an_nccl_warning_still_counts_when_the_command_failed():
    [err] = extract_errors(RCCL_IOMMU, exit_code=1)
    assert err.kind == "nccl"
    # and an NCCL error after a clean exit (a log tail) still does
    text = RCCL_IOMMU + ("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
                         "NCCLUtils.cpp:76, unhandled system error (run with NCCL_DEBUG=INFO for details)\n")
    [err] = extract_errors(text, exit_code=0)
    assert err.kind == "nccl" and "unhandled system error" in err.message
