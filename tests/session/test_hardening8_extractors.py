"""What `spec-debug analyze` reports for real failures of GPU serving, copied from GitHub issues
(each cited where it is used), and for session state a real EAGLE-3 debugging session builds:
each test names the wrong answer it replaced."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors
from tests.session.incident_story import _Writer

GPU = "10.1.230.174"
SESSION = "7e1a0000-0000-4000-8000-00000000aa08"
START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)


def _fields(errors):
    return [(e.kind, e.exception, e.message, e.file, e.line) for e in errors]


def _analyze(tmp_path: Path, writer: _Writer, *agents: tuple[_Writer, str, str]):
    """The trunk, and each sub-agent as ``subagents/agent-<id>.jsonl`` with its meta.json."""
    folder = tmp_path / "-root-work"
    (folder / SESSION / "subagents").mkdir(parents=True)
    (folder / f"{SESSION}.jsonl").write_text("\n".join(writer.lines) + "\n", encoding="utf-8")
    for sub, agent_id, tool_use_id in agents:
        (folder / SESSION / "subagents" / f"agent-{agent_id}.jsonl").write_text(
            "\n".join(sub.lines) + "\n", encoding="utf-8")
        (folder / SESSION / "subagents" / f"agent-{agent_id}.meta.json").write_text(
            json.dumps({"agentType": "general-purpose", "description": "", "toolUseId": tool_use_id}), encoding="utf-8")
    return analyze_path(folder / f"{SESSION}.jsonl")


# -- out of memory in the other wordings --------------------------------------------------------

# noonghunna/club-3090#60: a vLLM EngineCore dying at startup; torch's driver-API check
# (c10/cuda/driver_api.h) words the OOM "CUDA driver error: out of memory". The excerpt as
# pasted starts inside the logged traceback; the process's own traceback after it is cut.
CLUB3090_60 = """\
(EngineCore pid=74) ERROR 05-07 00:37:03 [core.py:1136]   File "/usr/local/lib/python3.12/dist-packages/vllm/_custom_ops.py", line 1279, in gptq_marlin_repack
(EngineCore pid=74) ERROR 05-07 00:37:03 [core.py:1136]     return torch.ops._C.gptq_marlin_repack(
(EngineCore pid=74) ERROR 05-07 00:37:03 [core.py:1136]            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
(EngineCore pid=74) ERROR 05-07 00:37:03 [core.py:1136]   File "/usr/local/lib/python3.12/dist-packages/torch/_ops.py", line 1269, in __call__
(EngineCore pid=74) ERROR 05-07 00:37:03 [core.py:1136]     return self._op(*args, **kwargs)
(EngineCore pid=74) ERROR 05-07 00:37:03 [core.py:1136]            ^^^^^^^^^^^^^^^^^^^^^^^^^
(EngineCore pid=74) ERROR 05-07 00:37:03 [core.py:1136] RuntimeError: CUDA driver error: out of memory
(EngineCore pid=74) Process EngineCore:
(EngineCore pid=74) Traceback (most recent call last):
(EngineCore pid=74)   File "/usr/lib/python3.12/multiprocessing/process.py", line 314, in _bootstrap
(EngineCore pid=74)     self.run()
(EngineCore pid=74)   File "/usr/lib/python3.12/multiprocessing/process.py", line 108, in run
(EngineCore pid=74)     self._target(*self._args, **self._kwargs)
(EngineCore pid=74)   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 1140, in run_engine_core
(EngineCore pid=74)     raise e
"""


def test_a_cuda_driver_out_of_memory_is_cuda_oom():
    # before: [("traceback", None, "traceback without an exception line ...")]: the OOM unnamed
    errors = extract_errors(CLUB3090_60, 1, True)
    assert [(e.kind, e.exception) for e in errors] == [("cuda_oom", "RuntimeError"), ("traceback", None)]
    assert errors[0].message == "CUDA driver error: out of memory"  # (hardening 72: as a traceback reads it)
    # the whole traceback: the innermost frame is kept too
    whole = "(EngineCore pid=74) ERROR 05-07 00:37:03 [core.py:1136] Traceback (most recent call last):\n" + \
        CLUB3090_60.split("(EngineCore pid=74) Process EngineCore:")[0]
    assert _fields(extract_errors(whole, 1, True)) == [
        ("cuda_oom", "RuntimeError", "CUDA driver error: out of memory",
         "/usr/local/lib/python3.12/dist-packages/torch/_ops.py", 1269)]
    # without a traceback, and with a fault rather than an OOM
    assert _fields(extract_errors("RuntimeError: CUDA driver error: out of memory\n", 1, True)) == [
        ("cuda_oom", "RuntimeError", "CUDA driver error: out of memory", None, None)]
    assert _fields(extract_errors("RuntimeError: CUDA driver error: an illegal memory access was encountered\n",
                                  1, True)) == [
        ("cuda_error", "RuntimeError", "CUDA driver error: an illegal memory access was encountered", None, None)]


def test_triton_out_of_memory_is_cuda_oom():
    # Triton's launcher (python/triton/backends/nvidia/driver.c) words cuGetErrorString's
    # "out of memory" so; fla's autotuner allocating outside torch's allocator hits it.
    # before: no error at all (the CUDA-error pattern leaves every "out of memory" to the OOM
    # pattern, which did not know this wording)
    assert _fields(extract_errors("RuntimeError: Triton Error [CUDA]: out of memory\n", 1, True)) == [
        ("cuda_oom", "RuntimeError", "Triton Error [CUDA]: out of memory", None, None)]


# sgl-project/sglang#1116, as pasted: `launch_server --tp 4 --mem-fraction-static 0.95` on
# 4x A100 40G left NCCL no memory for its buffers; the DistBackendError's message goes on over
# three more lines, the last one NCCL's failed allocation (NVIDIA/nccl src/include/alloc.h).
SGLANG_1116 = """\
torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.cpp:76, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5
ncclUnhandledCudaError: Call to CUDA function failed.
Last error:
Failed to CUDA calloc 67108864 bytes
"""


def test_an_nccl_error_whose_last_error_is_a_failed_allocation_is_cuda_oom():
    # before: [("nccl", "torch.distributed.DistBackendError", "torch.distributed.DistBackendError: NCCL error in: ...")]
    assert _fields(extract_errors(SGLANG_1116, 1, True)) == [
        ("cuda_oom", "torch.distributed.DistBackendError", "Failed to CUDA calloc 67108864 bytes", None, None)]
    # the same lines under the traceback that raised them: the allocation failure first, the
    # NCCL error with its frame after it
    traceback = ("Traceback (most recent call last):\n"
                 '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 275, in init_torch_distributed\n'
                 "    initialize_model_parallel(tensor_model_parallel_size=self.tp_size)\n" + SGLANG_1116)
    assert [(e.kind, e.message[:26]) for e in extract_errors(traceback, 1, True)] == [
        ("cuda_oom", "Failed to CUDA calloc 6710"), ("nccl", "NCCL error in: ../torch/cs")]


# An API server's EngineDeadError, verbatim from vllm-project/vllm#27194 (its log prefix
# "[async_llm.py:485[]" as pasted), then the EngineCore process's own traceback: frames as
# noonghunna/club-3090#58 shows them, its exception line the one that issue is titled with.
ENGINE_DEAD = """\
(APIServer pid=1) ERROR 10-20 03:20:50 [async_llm.py:485[] AsyncLLM output_handler failed.
(APIServer pid=1) ERROR 10-20 03:20:50 [async_llm.py:485[] Traceback (most recent call last):
(APIServer pid=1) ERROR 10-20 03:20:50 [async_llm.py:485[]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/async_llm.py", line 444, in output_handler
(APIServer pid=1) ERROR 10-20 03:20:50 [async_llm.py:485[]     outputs = await engine_core.get_output_async()
(APIServer pid=1) ERROR 10-20 03:20:50 [async_llm.py:485[]               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
(APIServer pid=1) ERROR 10-20 03:20:50 [async_llm.py:485[]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core_client.py", line 845, in get_output_async
(APIServer pid=1) ERROR 10-20 03:20:50 [async_llm.py:485[]     raise self._format_exception(outputs) from None
(APIServer pid=1) ERROR 10-20 03:20:50 [async_llm.py:485[] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.
(EngineCore pid=104) Process EngineCore:
(EngineCore pid=104) Traceback (most recent call last):
(EngineCore pid=104)   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 1140, in run_engine_core
(EngineCore pid=104)     raise e
(EngineCore pid=104)   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 1170, in run_busy_loop
(EngineCore pid=104)     self._process_engine_step()
(EngineCore pid=104)   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/executor/uniproc_executor.py", line 114, in execute_model
(EngineCore pid=104)     output.result()
(EngineCore pid=104) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 50.00 MiB. GPU 0 has a total capacity of 23.56 GiB of which 56.88 MiB is free
"""


def test_the_engine_fault_comes_before_the_messengers_that_report_it(tmp_path):
    # before: EngineDeadError first, so the error that triggered the next pivot (and the loop's
    # message) was "EngineCore encountered an issue. See stack trace (above)..."
    errors = extract_errors(ENGINE_DEAD, 0)
    assert [(e.kind, e.exception) for e in errors] == [
        ("cuda_oom", "torch.OutOfMemoryError"), ("traceback", "vllm.v1.engine.exceptions.EngineDeadError")]
    m = _Writer(SESSION, None, START)
    m.prompt(f"EAGLE-3 on vLLM died under load on {GPU}; find out why.")
    m.bash(f"ssh root@{GPU} 'docker logs vllm 2>&1 | tail -n 40'", ENGINE_DEAD)
    m.bash(f"ssh root@{GPU} nvidia-smi --query-gpu=memory.used,memory.total --format=csv", "23010 MiB, 24576 MiB")
    a = _analyze(tmp_path, m)
    assert [(e.kind, e.host) for e in a.errors] == [("cuda_oom", GPU), ("traceback", GPU)]


# -- chained exceptions ------------------------------------------------------------------------

# lucaslingle/transformer_vq#2, the first lines as pasted (a host without internet
# access loading a model from the Hub); the excerpt ends inside the second exception's message.
TRANSFORMER_VQ_2 = """\
Traceback (most recent call last):
  File "/home/lzm/.local/lib/python3.8/site-packages/urllib3/connection.py", line 159, in _new_conn
    conn = connection.create_connection(
  File "/home/lzm/.local/lib/python3.8/site-packages/urllib3/util/connection.py", line 84, in create_connection
    raise err
  File "/home/lzm/.local/lib/python3.8/site-packages/urllib3/util/connection.py", line 74, in create_connection
    sock.connect(sa)
OSError: [Errno 101] Network is unreachable

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/home/lzm/.local/lib/python3.8/site-packages/urllib3/connectionpool.py", line 670, in urlopen
    httplib_response = self._make_request(
  File "/home/lzm/.local/lib/python3.8/site-packages/urllib3/connectionpool.py", line 381, in _make_request
    self._validate_conn(conn)
  File "/home/lzm/.local/lib/python3.8/site-packages/urllib3/connectionpool.py", line 978, in _validate_conn
    conn.connect()
  File "/home/lzm/.local/lib/python3.8/site-packages/urllib3/connection.py", line 309, in connect
    conn = self._new_conn()
  File "/home/lzm/.local/lib/python3.8/site-packages/urllib3/connection.py", line 171, in _new_conn
    raise NewConnectionError(
urllib3.exceptions.NewConnectionError: <urllib3.connection.HTTPSConnection object at 0x7ffab9ab7880>: Failed
"""

# The end of the same failure in transformers' words: the first exception as
# yuruotong1/autoMate#104 pasted it, the one it caused as facebookresearch/bitsandbytes#34 did.
AUTOMATE_104 = """\
Traceback (most recent call last):
  File "D:\\Users\\admin\\anaconda3\\envs\\automate\\Lib\\site-packages\\huggingface_hub\\file_download.py", line 1489, in _raise_on_head_call_error
    raise LocalEntryNotFoundError(
huggingface_hub.errors.LocalEntryNotFoundError: An error happened while trying to locate the file on the Hub and we cannot find the requested files in the local cache. Please check your connection and try again or make sure your Internet connection is on.

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "D:\\Users\\admin\\anaconda3\\envs\\automate\\Lib\\site-packages\\transformers\\utils\\hub.py", line 342, in cached_file
    resolved_file = hf_hub_download(
OSError: We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached files and it looks like decapoda-research/llama-7b-hf is not the path to a directory containing a file named config.json.
Checkout your internet connection or see how to run the library in offline mode at 'https://huggingface.co/docs/transformers/installation#offline-mode'.
"""


def test_a_chain_that_only_wraps_a_fault_reports_the_fault():
    # before: ("traceback", "urllib3.exceptions.NewConnectionError", "<urllib3...>: Failed", connectionpool frame):
    # the exception that propagated names no cause; the one it was raised from does
    assert _fields(extract_errors(TRANSFORMER_VQ_2, 1, True)) == [
        ("connection", "OSError", "[Errno 101] Network is unreachable",
         "/home/lzm/.local/lib/python3.8/site-packages/urllib3/util/connection.py", 74)]


def test_a_chain_whose_last_exception_names_the_fault_reports_that_one():
    # before: ("traceback", "OSError", ...): transformers' "couldn't connect" was no connection error
    assert _fields(extract_errors(AUTOMATE_104, 1, True)) == [
        ("connection", "OSError",
         ("We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached files "
          "and it looks like decapoda-research/llama-7b-hf is not the path to a directory containing a file named "
          "config.json."),
         "D:\\Users\\admin\\anaconda3\\envs\\automate\\Lib\\site-packages\\transformers\\utils\\hub.py", 342)]


def test_a_chain_of_generic_exceptions_still_reports_the_one_that_propagated():
    # the gated-repo chain of huggingface_hub: HTTPError -> GatedRepoError -> OSError, none a
    # connection failure (huggingface/transformers src/transformers/utils/hub.py cached_file)
    text = ("Traceback (most recent call last):\n  File \"/x/requests/models.py\", line 1021, in raise_for_status\n"
            "    raise HTTPError(http_error_msg, response=self)\n"
            "requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: "
            "https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/resolve/main/config.json\n\n"
            "The above exception was the direct cause of the following exception:\n\n"
            "Traceback (most recent call last):\n  File \"/x/transformers/utils/hub.py\", line 403, in cached_file\n"
            "    resolved_file = hf_hub_download(\n"
            "OSError: You are trying to access a gated repo.\n")
    assert _fields(extract_errors(text, 1, True)) == [
        ("traceback", "OSError", "You are trying to access a gated repo.", "/x/transformers/utils/hub.py", 403)]


# -- hypotheses: which one an outcome settles ------------------------------------------------------

def test_an_outcome_settles_the_hypothesis_it_names_not_the_newest(tmp_path):
    m = _Writer(SESSION, None, START)
    m.prompt(f"EAGLE-3 accept length is 1.0 on {GPU}.")
    d2t = m.say("I suspect the d2t mapping is wrong: the draft vocab is 32000 and the target 163840.")
    order = m.say("The hidden-state order might be off too, since SGLang captures layers 3, 31 and 59.")
    m.bash(f"ssh root@{GPU} \"python3 /root/check_d2t.py /models/kimi-k2.5-eagle3\"",
           "d2t: 32000 entries; draft id 31999 -> target id 31999 (expected 163839)")
    # before: this closed the hidden-state-order hypothesis, the newest one
    confirmed = m.say("Confirmed: the d2t mapping is wrong, the draft vocab ids are not offset into the target's.")
    # before: this closed the hidden-state order one as well; it re-states the settled d2t one
    m.say("Verified that the d2t table has 32000 entries and the mapping is an identity.")
    a = _analyze(tmp_path, m)
    assert [(h.seq, h.status, h.outcome_seq) for h in a.hypotheses] == [
        (d2t, "confirmed", confirmed), (order, "open", None)]


def test_an_outcome_in_other_words_still_settles_the_newest(tmp_path):
    m = _Writer(SESSION, None, START)
    m.prompt(f"EAGLE-3 is slower than without speculation on {GPU}.")
    flag = m.say("I suspect the --speculative-num-steps 1 flag is the main bottleneck.")
    order = m.say("The root cause is likely the hidden-state format mismatch between training and serving.")
    fixed = m.say("That fixed it: 96.8 tok/s against the 90 tok/s baseline.")
    a = _analyze(tmp_path, m)
    assert [(h.seq, h.status, h.outcome_seq) for h in a.hypotheses] == [
        (flag, "open", None), (order, "confirmed", fixed)]


# -- a sub-agent's report restates its readings ------------------------------------------------------

# sgl-project/sglang#17098: bench_serving against an EAGLE-3 server.
BENCH = (Path(__file__).parent / "data_h7" / "sglang_17098_bench_serving.txt").read_text(encoding="utf-8")


def _bench_session(report: str) -> tuple[_Writer, _Writer, int]:
    m = _Writer(SESSION, None, START)
    m.prompt(f"EAGLE-3 on {GPU} is slower than the 250 tok/s baseline; measure it.")
    _, report_seq = m.spawn("b1bench", "toolu_spawn_b1bench", "Benchmark the EAGLE-3 server",
                                "Run bench_serving against the server and report the readings.", report, trunk=True)
    sub = _Writer(SESSION, "b1bench", START)
    sub.prompt("Run bench_serving against the server and report the readings.")
    sub.bash(f"ssh root@{GPU} 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 50'", BENCH)
    sub.say(report)
    return m, sub, report_seq


def test_a_reading_a_sub_agent_reports_is_counted_once(tmp_path):
    report = "Output token throughput is 183.8 tok/s with an accept length of 2.14, below the baseline."
    m, sub, report_seq = _bench_session(report)
    a = _analyze(tmp_path, m, (sub, "b1bench", "toolu_spawn_b1bench"))
    got = [(x.agent, x.name, x.value, x.source, x.host) for x in a.metrics if x.name in ("throughput", "accept_length")]
    # before: also ("main", "throughput", 183.8, "output", None) and ("main", "accept_length", 2.14, "output", None)
    # from the report at report_seq: every reading of the sub-agent twice
    assert got == [("b1bench", "throughput", 183.8, "output", GPU), ("b1bench", "accept_length", 2.14, "output", GPU),
                   ("b1bench", "throughput", 183.8, "prose", None), ("b1bench", "accept_length", 2.14, "prose", None)]
    assert all(x.seq != report_seq for x in a.metrics)
    # the baseline stated in the prompt still makes the reading SD501
    assert [f.code for f in a.findings] == ["SD501"]


def test_a_report_rounds_the_reading_it_restates(tmp_path):
    m, sub, report_seq = _bench_session("Throughput: about 184 tok/s, accept length 2.1.")
    a = _analyze(tmp_path, m, (sub, "b1bench", "toolu_spawn_b1bench"))
    assert [x for x in a.metrics if x.seq == report_seq] == []


def test_a_report_whose_sub_agent_transcript_is_missing_keeps_its_readings(tmp_path):
    m, _, report_seq = _bench_session("Output token throughput is 183.8 tok/s with an accept length of 2.14.")
    a = _analyze(tmp_path, m)
    assert [(x.seq, x.agent, x.name, x.value) for x in a.metrics if x.seq == report_seq] == [
        (report_seq, "main", "throughput", 183.8), (report_seq, "main", "accept_length", 2.14)]


# -- SGLang's scheduler crash under Ray --------------------------------------------------------------

# verl-project/verl#1049, as pasted (SGLang as verl's rollout engine): Ray puts "(WorkerDict
# pid=N) " before every line, and SGLang's "[time TP0] Scheduler hit an exception: " stands
# between it and the header only. The excerpt ends inside the traceback.
VERL_1049 = """\
(WorkerDict pid=2199833) [2025-04-12 21:11:01 TP0] Scheduler hit an exception: Traceback (most recent call last):
(WorkerDict pid=2199833)   File "/proj/long-multi/midi/miniforge3/envs/exp_t/lib/python3.10/site-packages/sglang/srt/managers/scheduler.py", line 1999, in run_scheduler_process
(WorkerDict pid=2199833)     scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)
(WorkerDict pid=2199833)   File "/proj/long-multi/midi/miniforge3/envs/exp_t/lib/python3.10/site-packages/sglang/srt/managers/scheduler.py", line 249, in __init__
(WorkerDict pid=2199833)     self.tp_worker = TpWorkerClass(
(WorkerDict pid=2199833)   File "/proj/long-multi/midi/miniforge3/envs/exp_t/lib/python3.10/site-packages/sglang/srt/managers/tp_worker_overlap_thread.py", line 63, in __init__
(WorkerDict pid=2199833)     self.worker = TpModelWorker(server_args, gpu_id, tp_rank, dp_rank, nccl_port)
(WorkerDict pid=2199833)   File "/proj/long-multi/midi/miniforge3/envs/exp_t/lib/python3.10/site-packages/sglang/srt/managers/tp_worker.py", line 74, in __init__
(WorkerDict pid=2199833)     self.model_runner = ModelRunner(
(WorkerDict pid=2199833)   File "/proj/long-multi/midi/miniforge3/envs/exp_t/lib/python3.10/site-packages/sglang/srt/model_executor/model_runner.py", line 174, in __init__
"""
SITE = "/proj/long-multi/midi/miniforge3/envs/exp_t/lib/python3.10/site-packages"


def test_a_scheduler_crash_behind_a_ray_prefix_keeps_its_frames():
    # before: ("traceback", None, "...truncated output", None, None): no line after the
    # header carried its whole prefix, so not one frame was read
    assert _fields(extract_errors(VERL_1049, 1, True)) == [
        ("traceback", None, "traceback without an exception line (truncated output)",
         f"{SITE}/sglang/srt/model_executor/model_runner.py", 174)]
    # and the exception line when the log goes on to it (the same lines, one more frame and the
    # exception SGLang's model runner raises when the KV cache does not fit: model_runner.py
    # init_memory_pool)
    whole = VERL_1049 + ("(WorkerDict pid=2199833)     self.initialize(min_per_gpu_memory)\n"
                         "(WorkerDict pid=2199833) RuntimeError: Not enough memory. Please try to increase "
                         "--mem-fraction-static.\n")
    assert _fields(extract_errors(whole, 1, True)) == [
        ("kv_cache_memory", "RuntimeError", "Not enough memory. Please try to increase --mem-fraction-static.",
         f"{SITE}/sglang/srt/model_executor/model_runner.py", 174)]


# -- an error the server answers with, printed by a command that succeeded ---------------------------

# vllm-project/vllm#3486: the body vLLM's OpenAI server answers a request for a model name it
# does not serve with; curl without --fail prints it and exits 0.
VLLM_3486 = ('{"object":"error","message":"The model `Qwen1.5-14B-Chat-GPTQ-Int8` does not exist.",'
             '"type":"NotFoundError","param":null,"code":404}')


def test_an_error_body_from_the_server_is_an_error_with_exit_status_zero(tmp_path):
    m = _Writer(SESSION, None, START)
    m.prompt(f"Check that the EAGLE-3 server on {GPU} answers.")
    _, result = m.bash(f"ssh root@{GPU} \"curl -s localhost:8000/v1/chat/completions -H 'Content-Type: application/json' "
                       "-d '{\\\"model\\\": \\\"Qwen1.5-14B-Chat-GPTQ-Int8\\\", \\\"messages\\\": [{\\\"role\\\": \\\"user\\\", "
                       "\\\"content\\\": \\\"hello\\\"}]}'\"", VLLM_3486)
    a = _analyze(tmp_path, m)
    # before: no error at all
    assert [(e.seq, e.kind, e.exception, e.message, e.host) for e in a.errors] == [
        (result, "http_error", "NotFoundError", "The model `Qwen1.5-14B-Chat-GPTQ-Int8` does not exist. (HTTP 404)", GPU)]
    # newer vLLM nests the same fields under "error"
    nested = '{"error":{"message":"The model `x` does not exist.","type":"NotFoundError","param":null,"code":404}}'
    assert _fields(extract_errors(nested, 0)) == [
        ("http_error", "NotFoundError", "The model `x` does not exist. (HTTP 404)", None, None)]
    # a completion whose text says "error" is none
    assert extract_errors('{"id":"cmpl-1","object":"text_completion","choices":[{"text":"\\"error\\""}]}', 0) == []


# -- a process killed by a signal ---------------------------------------------------------------------

# sgl-project/sglang#3451, as pasted: the end of a faulthandler dump of other threads, then the
# crash itself (the scheduler segfaulting in NCCL's communicator init).
SGLANG_3451 = """\
  File "/home/tiger/.pyenv/versions/3.11.2/lib/python3.11/multiprocessing/spawn.py", line 120 in spawn_main
  File "<string>", line 1 in <module>
Fatal Python error: Segmentation fault

Current thread 0x00007f4858f86740 (most recent call first):
  File "/home/tiger/.pyenv/versions/3.11.2/lib/python3.11/site-packages/sglang/srt/distributed/device_communicators/pynccl_wrapper.py", line 351 in ncclCommInitRank
  File "/home/tiger/.pyenv/versions/3.11.2/lib/python3.11/site-packages/sglang/srt/distributed/device_communicators/pynccl.py", line 108 in __init__
  File "/home/tiger/.pyenv/versions/3.11.2/lib/python3.11/site-packages/sglang/srt/distributed/parallel_state.py", line 233 in __init__
"""
PYNCCL = "/home/tiger/.pyenv/versions/3.11.2/lib/python3.11/site-packages/sglang/srt/distributed/device_communicators/pynccl_wrapper.py"


def test_a_segfault_names_the_fault_and_the_crashing_frame():
    # before (exit 139): ("signal", "SIGSEGV", '  File ".../spawn.py", line 120 in spawn_main'):
    # the output's first line, another thread's frame
    expected = [("signal", "SIGSEGV", "Fatal Python error: Segmentation fault", PYNCCL, 351)]
    assert _fields(extract_errors(SGLANG_3451, 139, True)) == expected
    # before: nothing: read through `2>&1 | tail`, whose status is 0
    assert _fields(extract_errors(SGLANG_3451, 0)) == expected


def test_a_process_killed_without_a_word_is_named_by_its_last_line():
    # Claude Code's result of `vllm serve` killed by the OOM killer while loading weights:
    # bash printed no job line (the command was the shell's last), the log just stops.
    output = ("Exit code 137\n"
              "INFO 05-07 00:36:10 [__init__.py:239] Automatically detected platform cuda.\n"
              "Loading safetensors checkpoint shards:  25% Completed | 1/4 [00:05<00:15,  5.01s/it]\r"
              "Loading safetensors checkpoint shards:  50% Completed | 2/4 [00:10<00:10,  5.01s/it]\n")
    # before: "INFO 05-07 00:36:10 [__init__.py:239] Automatically detected platform cuda."
    assert _fields(extract_errors(output, 137, True)) == [
        ("signal", "SIGKILL", "Loading safetensors checkpoint shards:  50% Completed | 2/4 [00:10<00:10,  5.01s/it]",
         None, None)]
    # bash's job line names the signal when there is one
    killed = output + "bash: line 1:  4242 Killed                  vllm serve /models/Qwen3-32B\n"
    assert extract_errors(killed, 137, True)[0].message == \
        "bash: line 1:  4242 Killed                  vllm serve /models/Qwen3-32B"


# -- a sub-agent that died of an API error -------------------------------------------------------------

def test_a_sub_agent_whose_last_word_is_an_api_error_failed(tmp_path):
    m = _Writer(SESSION, None, START)
    m.prompt(f"EAGLE-3 on {GPU} is slow; have a sub-agent check the server flags.")
    m.spawn("f1flags", "toolu_spawn_f1flags", "Audit the speculative flags", "List the server's --speculative-* flags.",
            "", trunk=False)
    sub = _Writer(SESSION, "f1flags", START)
    sub.prompt("List the server's --speculative-* flags.")
    sub.bash(f"ssh root@{GPU} 'ps -eo args | grep [l]aunch_server'",
             "python3 -m sglang.launch_server --speculative-algorithm EAGLE3 --speculative-num-steps 3")
    # the line Claude Code writes in the model's place when a request fails for good
    # (isApiErrorMessage, model "<synthetic>"; spec_debug/session/formats/claude_code.py)
    sub.assistant({"type": "text", "text": 'API Error: 529 {"type":"error","error":{"type":"overloaded_error",'
                                           '"message":"Overloaded"}}'})
    line = json.loads(sub.lines[-1])
    line["isApiErrorMessage"], line["message"]["model"] = True, "<synthetic>"
    sub.lines[-1] = json.dumps(line)
    a = _analyze(tmp_path, m, (sub, "f1flags", "toolu_spawn_f1flags"))
    # before: "completed" (its one command succeeded)
    assert {ag["id"]: ag["status"] for ag in a.agents} == {"main": "completed", "f1flags": "failed"}
    # an agent that goes on after an API error (the CLI retried) completed
    sub.say("The server runs --speculative-num-steps 3.")
    b = _analyze(tmp_path / "again", m, (sub, "f1flags", "toolu_spawn_f1flags"))
    assert {ag["id"]: ag["status"] for ag in b.agents} == {"main": "completed", "f1flags": "completed"}


# -- installs that fail --------------------------------------------------------------------------------

# kaistAI/SelFee#6, as pasted: pip builds flash-attn, whose setup.py imports torch; the build
# script's traceback sits indented in pip's box.
SELFEE_6 = """\
Collecting flash-attn==0.2.8 (from -r requirements.txt (line 5))
  Using cached flash_attn-0.2.8.tar.gz (1.8 MB)
  Preparing metadata (setup.py) ... error
  error: subprocess-exited-with-error
  
  × python setup.py egg_info did not run successfully.
  │ exit code: 1
  ╰─> [6 lines of output]
      Traceback (most recent call last):
        File "<string>", line 2, in <module>
        File "<pip-setuptools-caller>", line 34, in <module>
        File "/tmp/pip-install-tjhjvhnh/flash-attn_d4c66fc1204a49cf9a44de9ebbba6e8d/setup.py", line 10, in <module>
          import torch
      ModuleNotFoundError: No module named 'torch'
      [end of output]
  
  note: This error originates from a subprocess, and is likely not a problem with pip.
error: metadata-generation-failed

× Encountered error while generating package metadata.
╰─> See above for output.

note: This is an issue with the package mentioned above, not pip.
hint: See above for details
"""

# sgl-project/sglang#4879, as pasted: installing SGLang from source with a pinned sgl-kernel.
SGLANG_4879 = """\
INFO: pip is looking at multiple versions of sglang[srt] to determine which version is compatible with other requirements. This could take a while.
ERROR: Could not find a version that satisfies the requirement sgl-kernel==0.0.5.post4; extra == "srt" (from sglang[srt]) (from versions: 0.0.1)
ERROR: No matching distribution found for sgl-kernel==0.0.5.post4; extra == "srt"
"""


def test_a_build_scripts_traceback_inside_pips_box_is_read():
    # before: ("traceback", "error", "metadata-generation-failed", ...): pip's next unindented
    # line read as the exception of the indented traceback
    assert _fields(extract_errors(SELFEE_6, 1, True)) == [
        ("traceback", "ModuleNotFoundError", "No module named 'torch'",
         "/tmp/pip-install-tjhjvhnh/flash-attn_d4c66fc1204a49cf9a44de9ebbba6e8d/setup.py", 10)]


def test_a_failed_command_is_named_by_its_error_line_not_its_first_line():
    # before: "INFO: pip is looking at multiple versions of sglang[srt] ..."
    assert _fields(extract_errors(SGLANG_4879, 1, True)) == [
        ("exit_code", None, ('ERROR: Could not find a version that satisfies the requirement sgl-kernel==0.0.5.post4; '
                             'extra == "srt" (from sglang[srt]) (from versions: 0.0.1)'), None, None)]
    # Claude Code's own "Error: Exit code 1" first line is no error line
    assert extract_errors("Error: Exit code 1\n" + SGLANG_4879, 1, True)[0].message.startswith("ERROR: Could not find")


def test_a_command_timeout_killed_is_named_by_where_it_had_got_to():
    # `timeout 120 python -m sglang.bench_serving ...`: the token counts it prints first, then
    # tqdm's bar redrawn with carriage returns until timeout(1) kills it (exit 124)
    output = ("#Input tokens: 13000\n#Output tokens: 12000\n"
              " 45%|████▌     | 29/64 [01:58<02:20,  4.02s/it]\r 47%|████▋     | 30/64 [02:00<02:16,  4.01s/it]")
    # before: "timed out (exit 124): #Input tokens: 13000"
    assert _fields(extract_errors(output, 124, True)) == [
        ("timeout", None, "timed out (exit 124): 47%|████▋     | 30/64 [02:00<02:16,  4.01s/it]", None, None)]


def test_an_error_a_log_shows_with_exit_status_zero_can_trigger_a_pivot(tmp_path):
    m = _Writer(SESSION, None, START)
    m.prompt(f"EAGLE-3 on vLLM died under load on {GPU}; find out why.")
    _, shown = m.bash(f"ssh root@{GPU} 'docker logs vllm 2>&1 | tail -n 40'", ENGINE_DEAD)
    probe, _ = m.bash(f"ssh root@{GPU} 'nvidia-smi --query-gpu=memory.used,memory.total --format=csv'",
                      "memory.used [MiB], memory.total [MiB]\n23010 MiB, 24576 MiB")
    a = _analyze(tmp_path, m)
    # before: no pivot (the log was read with status 0, so its OOM triggered nothing)
    assert [(p.seq, p.trigger_seq, p.kind) for p in a.pivots] == [(probe, shown, "error")]
    assert a.pivots[0].summary.startswith("After torch.OutOfMemoryError: ")


def test_http_clients_that_cannot_reach_the_server_are_connection_errors():
    # Integration-Automation/ReEdgeGPT#50's title (aiohttp, the client of sglang.bench_serving)
    line = ("http.client_exceptions.ClientConnectorError: Cannot connect to host sydney.bing.com:443 "
            "ssl:<ssl.SSLContext object at 0x000002A5431C7BC0> [getaddrinfo failed]")
    # before: ("exception", "http.client_exceptions.ClientConnectorError", ...)
    assert [(e.kind, e.exception) for e in extract_errors(line + "\n", 1, True)] == [
        ("connection", "http.client_exceptions.ClientConnectorError")]
    # the OpenAI client a benchmark script uses, its server gone (openai/_exceptions.py)
    tb = ("Traceback (most recent call last):\n  File \"/root/bench.py\", line 12, in <module>\n"
          "    client.completions.create(model=\"default\", prompt=\"hi\")\n"
          "openai.APIConnectionError: Connection error.\n")
    # before: ("traceback", "openai.APIConnectionError", "Connection error.", ...)
    assert _fields(extract_errors(tb, 1, True)) == [
        ("connection", "openai.APIConnectionError", "Connection error.", "/root/bench.py", 12)]


def test_a_failed_codex_command_is_named_by_its_output_not_the_result_header(tmp_path):
    # A Codex rollout (openai/codex): exec_command's result starts with its header ("Chunk ID",
    # "Wall time", "Process exited with code N", "Original token count", "Output:";
    # codex-rs/core/src/tools/handlers/unified_exec.rs), which the reader keeps in the text.
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/work",
                          "originator": "codex_cli_rs", "cli_version": "0.63.0"}}]
    for n, payload in enumerate((
            {"type": "function_call", "name": "exec_command", "call_id": "c1",
             "arguments": json.dumps({"cmd": f"ssh root@{GPU} 'ls /models/kimi-k2.5-eagle3'"})},
            {"type": "function_call_output", "call_id": "c1",
             "output": "Chunk ID: 4f1a\nWall time: 0.0521 seconds\nProcess exited with code 2\n"
                       "Original token count: 20\nOutput:\n"
                       "ls: cannot access '/models/kimi-k2.5-eagle3': No such file or directory\n"}), 1):
        lines.append({"timestamp": f"2026-01-02T03:05:{n:02d}.000Z", "type": "response_item", "payload": payload})
    path = tmp_path / "rollout-2026-01-02T03-04-05-0199a1b2.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    # before: "Chunk ID: 4f1a"
    assert [(e.kind, e.message, e.host) for e in a.errors] == [
        ("exit_code", "ls: cannot access '/models/kimi-k2.5-eagle3': No such file or directory", GPU)]


def test_cublas_failing_to_allocate_is_cuda_oom():
    # QwenLM/Qwen3#873, as pasted (fixed by running on a GPU with room); vllm-project/vllm#8180
    # hit the same serving a w8a8 model
    text = ('File "lib/python3.9/site-packages/torch/nn/modules/linear.py", line 116, in forward\n'
            "    return F.linear(input, self.weight, self.bias)\n"
            "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`\n")
    # before: "cuda_error"
    assert _fields(extract_errors(text, 1, True)) == [
        ("cuda_oom", "RuntimeError", "CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`",
         None, None)]
    traceback = "Traceback (most recent call last):\n  " + text
    assert _fields(extract_errors(traceback, 1, True)) == [
        ("cuda_oom", "RuntimeError", "CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`",
         "lib/python3.9/site-packages/torch/nn/modules/linear.py", 116)]


def test_an_ssh_session_dropped_under_a_command_is_a_connection_error():
    # OpenSSH's clientloop.c: "Connection to %s closed by remote host." when the host goes away
    # under a running command, "Timeout, server %s not responding." when ServerAliveInterval
    # gives up; ssh exits 255 either way
    dropped = f"Loading safetensors checkpoint shards:  50% Completed | 2/4\nConnection to {GPU} closed by remote host.\n"
    # before: ("exit_code", None, "Loading safetensors checkpoint shards: ...")
    assert _fields(extract_errors(dropped, 255, True)) == [
        ("connection", None, f"Connection to {GPU} closed by remote host.", None, None)]
    assert extract_errors(f"Timeout, server {GPU} not responding.\n", 255, True)[0].kind == "connection"


# -- a fact asked about is no finding -------------------------------------------------------------------

def test_a_question_or_a_plan_about_d2t_or_a_norm_flag_is_no_finding(tmp_path):
    m = _Writer(SESSION, None, START)
    m.prompt(f"EAGLE-3 accept length is 1.0 on {GPU}.")
    m.say("Let me check whether the d2t tensor is missing from the draft checkpoint, and if norm_before_residual "
          "is ignored by this SGLang version.")
    m.bash(f"ssh root@{GPU} \"python3 -c 'from safetensors import safe_open; "
           "f = safe_open(\\\"/models/kimi-k2.5-eagle3/model.safetensors\\\", \\\"pt\\\"); print(list(f.keys()))'\"",
           "['d2t', 'fc.weight', 'midlayer.hidden_norm.weight', 't2d']")
    m.say("Is the d2t wrong then? If d2t is missing, SGLang would use draft ids as target ids, but it is there.")
    a = _analyze(tmp_path, m)
    # before: SD301 (twice over) and SD701, both error-severity root causes in the postmortem
    assert [f.code for f in a.findings] == []
    # stated as fact, they still count
    m.say("The d2t tensor is missing from model.safetensors in the second checkpoint.")
    b = _analyze(tmp_path / "again", m)
    assert [f.code for f in b.findings] == ["SD301"]
