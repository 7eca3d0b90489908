"""A traceback whose header `tail` cut off, under a log prefix on every line, is read.

``tail -n 8 /var/log/sglang.log`` of a tensor-parallel server that died gives the last frames of
torchrun's ``[rank0]: `` lines and the exception; a vLLM worker's log has ``(VllmWorker rank=0
pid=7) ERROR ... [multiproc_executor.py:470] `` before each. A cut traceback without a prefix was
read as a whole one's, but with the prefix its frames were not seen: the failed call's error was
the output's first line (a source line, ``self.model_runner = ModelRunner(``), and a terminal log
with no exit status had no error at all. Now the prefix the frames carry is the traceback's, and
the exception is read with the line its message introduces ("Error(s) in loading state_dict for
...:" then the size mismatch), as a whole traceback's is.
"""

from spec_debug.session.failures import extract_errors

RANK_TAIL = """\
[rank0]:     self.model_runner = ModelRunner(
[rank0]:   File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 240, in __init__
[rank0]:     self.initialize(min_per_gpu_memory)
[rank0]:   File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 300, in initialize
[rank0]:     self.load_model()
[rank0]: RuntimeError: Error(s) in loading state_dict for LlamaForCausalLMEagle3:
[rank0]: \tsize mismatch for fc.weight: copying a param with shape torch.Size([4096, 12288]) from checkpoint, the shape in current model is torch.Size([4096, 15360]).
"""

MESSAGE = ("Error(s) in loading state_dict for LlamaForCausalLMEagle3: size mismatch for fc.weight: copying a param "
           "with shape torch.Size([4096, 12288]) from checkpoint, the shape in current model is "
           "torch.Size([4096, 15360]).")

P = "(VllmWorker rank=0 pid=1234) ERROR 06-01 10:00:00 [multiproc_executor.py:470] "
WORKER_TAIL = "".join(P + line + "\n" for line in [
    "    output = func(*args, **kwargs)",
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/spec_decode/eagle.py", line 200, in propose',
    "    logits = self.model.compute_logits(h)",
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.95 GiB. GPU 0 has a total capacity of "
    "79.19 GiB of which 1.01 GiB is free.",
])


def _said(errors):
    return [(e.kind, e.exception, e.message, e.file, e.line) for e in errors]


def test_rank_prefixed_tail_reads_the_exception():
    want = [("traceback", "RuntimeError", MESSAGE,
             "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", 300)]
    assert _said(extract_errors(RANK_TAIL, exit_code=1)) == want
    assert _said(extract_errors(RANK_TAIL, exit_code=None, status_known=False)) == want
    # (tail exits 0 on a dead server's log: the cut traceback still counts, as one without a prefix)
    assert _said(extract_errors(RANK_TAIL, exit_code=0)) == want


def test_unprefixed_tail_reads_the_same_message():
    plain = RANK_TAIL.replace("[rank0]: ", "")
    assert _said(extract_errors(plain, exit_code=1)) == [
        ("traceback", "RuntimeError", MESSAGE, "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py",
         300)]


def test_vllm_worker_prefixed_tail():
    assert _said(extract_errors(WORKER_TAIL, exit_code=1)) == [
        ("cuda_oom", "torch.OutOfMemoryError", "CUDA out of memory. Tried to allocate 1.95 GiB. GPU 0 has a total "
         "capacity of 79.19 GiB of which 1.01 GiB is free.",
         "/usr/local/lib/python3.12/dist-packages/vllm/v1/spec_decode/eagle.py", 200)]


def test_a_prefixed_file_mention_in_a_log_is_no_traceback():
    log = ('[2025-06-01 10:00:00 TP0] Load weight begin.\n'
           '[2025-06-01 10:00:01 TP0]   File "/models/eagle3/config.json", line 3 read\n'
           '[2025-06-01 10:00:02 TP0] Load weight end.\n')
    assert extract_errors(log, exit_code=0) == []
