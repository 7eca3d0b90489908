"""Extractors on real engine, torch, pytest and shell texts that a GPU-serving debugging
session holds. Each text is copied from the program that prints it (cited), and each test
asserts the exact readings; the wrong readings these replaced are named in each test."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import traceback

import pytest

from spec_debug.session.failures import extract_errors
from spec_debug.session.metrics import extract_metrics
from spec_debug.session.shell import parse_target

# vLLM V1 server log: LoggingStatLogger (vllm-project/vllm vllm/v1/metrics/loggers.py,
# "Engine %03d: Avg prompt throughput: %.1f tokens/s, Avg generation throughput: %.1f
# tokens/s, Running: %d reqs, ...") and the spec-decode logger (vllm/v1/spec_decode/metrics.py,
# "SpecDecoding metrics: Mean acceptance length: %.2f, Accepted throughput: %.2f tokens/s,
# Drafted throughput: %.2f tokens/s, ..., Avg Draft acceptance rate: %.1f%%"), as a served
# EAGLE/MTP model prints them (the idle 0.0 interval included).
VLLM_LOG = """\
(APIServer pid=1) INFO 05-30 07:49:21 [loggers.py:271] Engine 000: Avg prompt throughput: 1505.3 tokens/s, Avg generation throughput: 20.9 tokens/s, Running: 0 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.0%, Prefix cache hit rate: 0.0%
(APIServer pid=1) INFO 05-30 07:49:21 [metrics.py:101] SpecDecoding metrics: Mean acceptance length: 3.07, Accepted throughput: 1.05 tokens/s, Drafted throughput: 1.51 tokens/s, Accepted: 141 tokens, Drafted: 204 tokens, Per-position acceptance rate: 0.897, 0.676, 0.500, Avg Draft acceptance rate: 69.1%
(APIServer pid=1) INFO 05-30 07:49:31 [loggers.py:271] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s, Running: 0 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.0%, Prefix cache hit rate: 0.0%
(APIServer pid=1) INFO:     172.18.0.3:48374 - "POST /v1/chat/completions HTTP/1.1" 200 OK
(APIServer pid=1) INFO 05-30 07:55:11 [loggers.py:271] Engine 000: Avg prompt throughput: 1914.9 tokens/s, Avg generation throughput: 1.3 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.9%, Prefix cache hit rate: 0.0%
(APIServer pid=1) INFO 05-30 07:55:21 [metrics.py:101] SpecDecoding metrics: Mean acceptance length: 2.77, Accepted throughput: 5.50 tokens/s, Drafted throughput: 6.20 tokens/s, Accepted: 55 tokens, Drafted: 62 tokens, Per-position acceptance rate: 0.903, 0.871, Avg Draft acceptance rate: 88.7%
"""


def _readings(text: str, hint: str = "") -> list[tuple[str, float, str]]:
    return [(m.name, m.value, m.unit) for m in extract_metrics(text, hint)]


def test_vllm_stat_lines_give_generation_throughput_and_acceptance():
    # Before: prompt (prefill) throughput 1505.3 and the accepted/drafted draft-token rates
    # were each read as a decode "throughput", and the first per-position rate 0.897 as the
    # acceptance rate.
    assert _readings(VLLM_LOG) == [
        ("throughput", 11.1, "tok/s"),            # mean of 20.9 and 1.3; the idle 0.0 is no reading
        ("prompt_throughput", 1710.1, "tok/s"),
        # the lines weighted by their drafts, as vLLM's totals: 1 + 196 / (141 / 2.07 + 55 / 1.77)
        # drafts, and 196 of 266 drafted (the plain means of the lines were 2.92 and 78.9)
        ("accept_length", 2.976, "tokens"),
        ("accept_rate", 73.68, "%"),
    ]


def test_vllm_generation_line_alone():
    line = ("INFO 08-17 19:55:36 [loggers.py:123] Engine 000: Avg prompt throughput: 4210.0 tokens/s, "
            "Avg generation throughput: 54.8 tokens/s, Running: 8 reqs, Waiting: 0 reqs, "
            "GPU KV cache usage: 12.5%, Prefix cache hit rate: 0.0%")
    assert _readings(line) == [("throughput", 54.8, "tok/s"), ("prompt_throughput", 4210.0, "tok/s")]


# SGLang scheduler (python/sglang/srt/managers/scheduler_metrics_mixin.py, log_prefill_stats:
# "... cuda graph: {bool}, input throughput (token/s): {:.2f}") between decode lines; a health
# probe of one token logs 0.03.
SGLANG_PREFILL_LOG = """\
[2026-08-14 08:17:30 TP0] Decode batch, #running-req: 4, #full token: 1051, full token usage: 0.20, accept len: 2.10, accept rate: 0.55, cuda graph: True, gen throughput (token/s): 53.12, #queue-req: 0
[2026-08-14 08:17:30 TP0] Prefill batch, #new-seq: 3, #new-token: 256, #cached-token: 576, full token usage: 0.20, #running-req: 1, #queue-req: 2, #pending-token: 64, cuda graph: False, input throughput (token/s): 1075.31
[2026-09-24 09:44:53 TP0] Prefill batch, #new-seq: 1, #new-token: 1, #cached-token: 0, full token usage: 0.00, #running-req: 0, #queue-req: 0, cuda graph: False, input throughput (token/s): 0.03
[2026-08-14 08:17:31 TP0] Prefill batch, #new-seq: 1, #new-token: 8192, #cached-token: 0, input throughput (token/s): 5210.40
[2026-08-14 08:17:32 TP0] Decode batch, #running-req: 4, #full token: 1100, full token usage: 0.21, accept len: 2.30, accept rate: 0.60, cuda graph: True, gen throughput (token/s): 56.88, #queue-req: 0
"""


def test_sglang_prefill_lines_are_prefill_throughput_not_decode():
    # Before: the prefill lines gave nothing, and an output of prefill lines alone no reading.
    assert _readings(SGLANG_PREFILL_LOG) == [
        ("throughput", 55.0, "tok/s"), ("accept_length", 2.2, "tokens"), ("accept_rate", 0.575, "ratio"),
        ("prefill_throughput", 3142.85, "tok/s"),  # mean of 1075.31 and 5210.40; the 0.03 probe is no reading
    ]
    prefill_only = "\n".join(line for line in SGLANG_PREFILL_LOG.splitlines() if "Prefill" in line)
    assert _readings(prefill_only) == [("prefill_throughput", 3142.85, "tok/s")]


# SGLang python/sglang/bench_one_batch.py, latency_test_run_once: the stage lines it prints
# (format strings "Prefill. latency: {:6.5f} s, throughput: {:9.2f} token/s", "Decode {i}.
# Batch size: ...", "Decode.  median latency: ..., median throughput: ...", "Total. ...").
ONE_BATCH = """\
Prefill. latency: 0.05123 s, throughput:  19989.45 token/s
Decode 0. Batch size: 1, latency: 0.01234 s, throughput:     81.04 token/s
Decode 1. Batch size: 1, latency: 0.01221 s, throughput:     81.90 token/s
Decode.  median latency: 0.01225 s, median throughput:     81.63 token/s
Total. latency:  1.612 s, throughput:    714.55 token/s
"""


def test_bench_one_batch_decode_is_the_median_line():
    # Before: five "throughput" readings, the prefill 19989.45 and total 714.55 among them.
    assert _readings(ONE_BATCH) == [
        ("prefill_throughput", 19989.45, "tok/s"),
        ("throughput", 81.63, "tok/s"),
        ("total_throughput", 714.55, "tok/s"),
    ]


# vllm bench serve / SGLang bench_serving summary (vllm/benchmarks/serve.py; the median ITL
# line is printed by both).
BENCH_SERVE = """\
============ Serving Benchmark Result ============
Successful requests:                     100
Benchmark duration (s):                  30.12
Request throughput (req/s):              3.32
Output token throughput (tok/s):         425.00
Peak output token throughput (tok/s):    600.00
Total Token throughput (tok/s):          850.00
---------------Inter-token Latency----------------
Mean ITL (ms):                           9.90
Median ITL (ms):                         9.00
P99 ITL (ms):                            30.00
==================================================
"""


def test_bench_serve_median_itl():
    got = _readings(BENCH_SERVE)
    assert ("itl_median", 9.0, "ms") in got  # before: missing
    assert [r for r in got if r[0] == "throughput"] == [("throughput", 425.0, "tok/s")]


def _errors(text: str, code: int | None = 1):
    return [(e.kind, e.exception, e.message, e.file, e.line) for e in extract_errors(text, code)]


def _real_group_traceback() -> str:
    """A TaskGroup failure as this CPython formats it (Lib/traceback.py draws the box)."""
    async def probe():
        raise ConnectionRefusedError(111, "Connect call failed ('10.0.0.5', 30000)")

    async def main():
        async with asyncio.TaskGroup() as tg:
            tg.create_task(probe())
    try:
        asyncio.run(main())
    except BaseException as exc:  # noqa: BLE001 - the group is what we want to format
        return "".join(traceback.format_exception(exc))
    raise AssertionError("no exception")


def test_exception_group_traceback_gives_the_sub_exception():
    # Before: one "traceback without an exception line (truncated output)". The group itself
    # ("unhandled errors in a TaskGroup", at asyncio's taskgroups.py) was reported too, first,
    # until round 74: it only says its sub-exceptions happened (test_hardening74_exception_group).
    text = _real_group_traceback()
    assert "  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)" in text
    got = _errors(text)
    assert [g[:3] for g in got] == [
        ("connection", "ConnectionRefusedError", "[Errno 111] Connect call failed ('10.0.0.5', 30000)"),
    ]
    assert got[0][3] == __file__


def test_docker_compose_prefixed_traceback():
    # `docker compose logs sglang`: every line behind "sglang-1  | " (docker/compose
    # cmd/formatter/logs.go); before, a truncated traceback with no exception.
    text = ("sglang-1  | Traceback (most recent call last):\n"
            'sglang-1  |   File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2500, in run_scheduler_process\n'
            "sglang-1  |     scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, moe_ep_rank, pp_rank, dp_rank)\n"
            "sglang-1  | torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 310.00 MiB is free.\n")
    assert _errors(text) == [(
        "cuda_oom", "torch.OutOfMemoryError",
        "CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 310.00 MiB is free.",
        "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", 2500)]


def test_prefix_on_the_first_line_only_is_no_margin():
    text = 'ERROR: Traceback (most recent call last):\n  File "a.py", line 3, in f\nValueError: x\n'
    assert _errors(text) == [("traceback", "ValueError", "x", "a.py", 3)]


def test_nccl_watchdog_timeout_is_nccl():
    # pytorch torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp: the watchdog's report of a
    # hung collective. Before: "exit_code" (exit 1) or nothing (exit status unknown to the log).
    text = ("[rank1]:[E1127 10:11:12.123456 12345 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective "
            "operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1048576, NumelOut=1048576, "
            "Timeout(ms)=600000) ran for 600012 milliseconds before timing out.\n"
            "terminate called after throwing an instance of 'c10::DistBackendError'\n")
    # the abort names what the watchdog threw (test_hardening46_nccl_watchdog.py)
    assert [e[:2] for e in _errors(text)] == [("nccl", "c10::DistBackendError")]
    assert _errors(text, 0)[0][2].endswith("ran for 600012 milliseconds before timing out.")


def test_pytest_failure_names_the_test(tmp_path):
    # A real pytest run of a failing test; before: "exit_code" with the message
    # "=== test session starts ===".
    (tmp_path / "test_eagle.py").write_text("def test_concat_order():\n    acc = 0.12\n    assert acc > 0.7\n")
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly",
                          "test_eagle.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1
    assert _errors(run.stdout, run.returncode) == [
        ("test_failure", "AssertionError", "test_eagle.py::test_concat_order: assert 0.12 > 0.7", "test_eagle.py", 3)]


@pytest.mark.parametrize("command, host, user, port, jump, container, inner", [
    # OpenSSH takes options after the destination too, and "--" ends them (before: inner
    # "-- nvidia-smi"; port None).
    ("ssh gpu04 -- nvidia-smi", "gpu04", None, None, None, None, "nvidia-smi"),
    ("ssh gpu04 -p 2222 nvidia-smi", "gpu04", None, 2222, None, None, "nvidia-smi"),
    # ssh_config(5) "Keyword Argument" form inside -o (before: no jump)
    ("ssh -o 'ProxyJump bastion' gpu21 ls", "gpu21", None, None, "bastion", None, "ls"),
    ("ssh -J a,b root@gpu02 nvidia-smi", "gpu02", "root", None, "a,b", None, "nvidia-smi"),
    ("ssh root@[fe80::1] ls", "fe80::1", "root", None, None, None, "ls"),
    # kubectl global flags before the verb (before: no container)
    ("kubectl -n sglang exec -it sglang-0 -c server -- nvidia-smi", None, None, None, None, "pod:sglang-0", "nvidia-smi"),
    # gcloud compute ssh (before: no host)
    ("gcloud compute ssh ubuntu@gpu-vm --zone=us-central1-a --command 'nvidia-smi'",
     "gpu-vm", "ubuntu", None, None, None, "nvidia-smi"),
    ("gcloud compute ssh gpu-vm --zone us-central1-a -- docker exec sglang nvidia-smi",
     "gpu-vm", None, None, None, "docker:sglang", "nvidia-smi"),
    ("gcloud compute tpus tpu-vm ssh tpu-1 --zone=us-central2-b --worker=all --command='python3 -c 1'",
     "tpu-1", None, None, None, None, "python3 -c 1"),
    # Slurm: the node the command runs on (before: no host)
    ("srun --nodelist=gpu07 --gres=gpu:1 nvidia-smi", "gpu07", None, None, None, None, "nvidia-smi"),
    ("srun -w gpu07 -p gpu python -m sglang.launch_server --model-path /m", "gpu07", None, None, None, None,
     "python -m sglang.launch_server --model-path /m"),
    ("srun -N1 -p gpu --pty bash", None, None, None, None, None, "srun -N1 -p gpu --pty bash"),
    # mosh, sshpass, autossh (before: no host)
    ("mosh ubuntu@gpu08 -- tmux attach", "gpu08", "ubuntu", None, None, None, "tmux attach"),
    ("sshpass -p hunter2 ssh root@gpu16 nvidia-smi", "gpu16", "root", None, None, None, "nvidia-smi"),
    ("autossh -M 0 -f -N -L 30000:localhost:30000 gpu17", "gpu17", None, None, None, None, ""),
    ("time -p ssh gpu1 ls", "gpu1", None, None, None, None, "ls"),
])
def test_targets_of_real_command_lines(command, host, user, port, jump, container, inner):
    t = parse_target(command)
    assert (t.host, t.user, t.port, t.jump, t.container, t.inner) == (host, user, port, jump, container, inner)


def test_vllm_bench_throughput_line():
    # `vllm bench throughput` (benchmarks/benchmark_throughput.py before it) prints
    # f"Throughput: {..:.2f} requests/s, {..:.2f} total tokens/s, {..:.2f} output tokens/s";
    # the run below is from a vLLM user's report. Before: no reading at all ("total" and
    # "output" stand between the number and the unit).
    text = ("Throughput: 70.77 requests/s, 54350.30 total tokens/s, 18116.77 output tokens/s\n"
            "Total num prompt tokens:  262144\nTotal num output tokens:  131072\n")
    assert _readings(text) == [("throughput", 18116.77, "tok/s"), ("total_throughput", 54350.3, "tok/s"),
                               ("request_throughput", 70.77, "req/s")]


def test_offline_progress_bar_input_speed_is_not_decode_throughput():
    # vllm/entrypoints/llm.py sets the tqdm postfix "est. speed input: X toks/s, output: Y
    # toks/s"; before, the input (prefill) speed 1505.07 was a "throughput" reading.
    bar = ("Processed prompts: 100%|##########| 100/100 [00:36<00:00, 2.77it/s, "
           "est. speed input: 1505.07 toks/s, output: 415.57 toks/s]")
    assert _readings(bar) == [("throughput", 415.57, "tok/s")]


@pytest.mark.parametrize("command", [
    # vLLM JSON inside an ssh command's double quotes: the quotes arrive escaped
    '''ssh gpu1 "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\\"method\\": \\"eagle3\\", '''
    '''\\"model\\": \\"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\\", \\"num_speculative_tokens\\": 1}'"''',
    # vLLM <= 0.7 flag, and the dotted form of --speculative-config
    "python -m vllm.entrypoints.openai.api_server --model m --speculative-model d --num-speculative-tokens 1",
    "vllm serve m --speculative-config.method eagle3 --speculative-config.num_speculative_tokens 1",
    # the SGLang docs' launch commands are written over lines with backslashes
    "python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct \\\n"
    "  --speculative-algorithm EAGLE3 --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B \\\n"
    "  --speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 2",
])
def test_one_step_launches_are_sd101(command):
    from spec_debug.session.spec_facts import launch_observations
    assert [o.code for o in launch_observations(command)] == ["SD101"]  # before: none


@pytest.mark.parametrize("command", [
    "vllm serve m --speculative-config '{\"method\": \"eagle3\", \"num_speculative_tokens\": 10}'",
    "vllm serve m --num-speculative-tokens 3",
])
def test_more_steps_are_not_sd101(command):
    from spec_debug.session.spec_facts import launch_observations
    assert launch_observations(command) == []


@pytest.mark.parametrize("output", [
    # OpenSSH client texts (openssh-portable packet.c, sshconnect.c, sshconnect2.c,
    # clientloop.c) as ssh prints them on exit 255; before: "exit_code".
    "Connection closed by 10.0.0.5 port 22\r\n",
    "Connection reset by 10.0.0.5 port 22\n",
    "kex_exchange_identification: Connection closed by remote host\nConnection closed by 10.0.0.5 port 22\n",
    "Received disconnect from 10.0.0.5 port 22:2: Too many authentication failures\nDisconnected from 10.0.0.5 port 22\n",
    "root@gpu1: Permission denied (password).\n",
    "client_loop: send disconnect: Broken pipe\n",
])
def test_openssh_failures_are_connection_errors(output):
    got = _errors(output, 255)
    assert [(g[0], g[2]) for g in got] == [("connection", output.splitlines()[0].strip())]


def test_curl_empty_reply_is_a_connection_error():
    # curl exit 52: the server closed the connection without a reply (it crashed mid-request)
    assert _errors("curl: (52) Empty reply from server\n", 52) == [
        ("connection", None, "curl: (52) Empty reply from server", None, None)]


def test_vllm_prefixed_traceback():
    # vLLM's NewLineFormatter (vllm/logging_utils/formatter.py) repeats the record's prefix
    # after every newline ("\r\n" + prefix), and the engine-core process's output carries
    # "(EngineCore_DP0 pid=N) "; before: a truncated traceback with no exception.
    prefix = "(EngineCore_DP0 pid=1234) ERROR 05-30 07:49:21 [core.py:700] "
    record = ["EngineCore failed to start.", "Traceback (most recent call last):",
              '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 691, in run_engine_core',
              "    engine_core = EngineCoreProc(*args, **kwargs)",
              "                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
              '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_worker.py", line 226, '
              "in determine_available_memory",
              "    self.model_runner.profile_run()",
              "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.83 GiB. GPU 0 has a total capacity "
              "of 79.19 GiB of which 3.12 GiB is free."]
    text = prefix + ("\r\n" + prefix).join(record) + "\n"
    assert _errors(text) == [(
        "cuda_oom", "torch.OutOfMemoryError",
        "CUDA out of memory. Tried to allocate 7.83 GiB. GPU 0 has a total capacity of 79.19 GiB of which 3.12 GiB is free.",
        "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_worker.py", 226)]


def test_prefixed_chained_traceback_reports_what_propagated():
    # The same chain CPython prints (Lib/traceback.py), behind docker compose's prefix;
    # before: no exception at all, and with the prefix handled but not the chain, both.
    lines = ["Traceback (most recent call last):", '  File "/a.py", line 3, in <module>', "    x = d['d2t']",
             "        ~^^^^^^^", "KeyError: 'd2t'", "",
             "During handling of the above exception, another exception occurred:", "",
             "Traceback (most recent call last):", '  File "/a.py", line 5, in <module>',
             '    raise ValueError("draft checkpoint has no d2t")', "ValueError: draft checkpoint has no d2t"]
    text = "".join(f"sglang-1  | {line}\n" for line in lines)
    assert _errors(text) == [("traceback", "ValueError", "draft checkpoint has no d2t", "/a.py", 5)]


@pytest.mark.parametrize("command, host, user, port, jump, container, inner", [
    # Codex CLI runs every command as `bash -lc "<script>"` (openai/codex shell tool);
    # before: no host or container
    ("bash -lc 'ssh gpu1 nvidia-smi'", "gpu1", None, None, None, None, "nvidia-smi"),
    ('sh -c "ssh -p 2222 root@gpu2 uptime"', "gpu2", "root", 2222, None, None, "uptime"),
    ("ssh gpu1 'bash -lc \"docker exec sglang nvidia-smi\"'", "gpu1", None, None, None, "docker:sglang", "nvidia-smi"),
    ("bash -lc 'cd /x && python run.py'", None, None, None, None, None, "bash -lc 'cd /x && python run.py'"),
    # scp takes -o like ssh (before: no jump, no port)
    ("scp -o ProxyJump=bastion -o Port=2222 a.py gpu3:/tmp/", "gpu3", None, 2222, "bastion", None,
     "scp a.py gpu3:/tmp/"),
])
def test_targets_inside_shells_and_scp_options(command, host, user, port, jump, container, inner):
    t = parse_target(command)
    assert (t.host, t.user, t.port, t.jump, t.container, t.inner) == (host, user, port, jump, container, inner)


def test_vllm_bench_serve_speculative_block():
    # `vllm bench serve` against an EAGLE-3 server prints a "Speculative Decoding" block
    # (vllm/benchmarks/serve.py; values from a published run). Before: neither the
    # acceptance rate nor the acceptance length was read.
    text = """\
============ Serving Benchmark Result ============
Successful requests:                     50        
Output token throughput (tok/s):         412.10    
---------------Inter-token Latency----------------
Mean ITL (ms):                           50.97     
Median ITL (ms):                         47.40     
P99 ITL (ms):                            157.48    
---------------Speculative Decoding---------------
Acceptance rate (%):                     74.14
Acceptance length:                       3.22
Drafts:                                  1976
Draft tokens:                            5928
Accepted tokens:                         4395
Per-position acceptance (%):
  Position 0:                            86.49
  Position 1:                            72.47
  Position 2:                            63.46
==================================================
"""
    assert _readings(text) == [("throughput", 412.1, "tok/s"), ("itl_mean", 50.97, "ms"), ("itl_median", 47.4, "ms"),
                               ("accept_rate", 74.14, "%"), ("accept_length", 3.22, "tokens")]


@pytest.mark.parametrize("command, codes", [
    # vLLM's "method": "eagle" with an EAGLE-3 draft is SD103 as SGLang's EAGLE is (before: none)
    ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": \"eagle\", "
     "\"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", \"num_speculative_tokens\": 3}'", ["SD103"]),
    ("vllm serve m --speculative-config.method eagle "
     "--speculative-config.model RedHatAI/Llama-3.1-8B-Instruct-speculator.eagle3", ["SD103"]),
    ("ssh g \"vllm serve m --speculative-config '{\\\"method\\\":\\\"eagle\\\",\\\"model\\\":\\\"x/EAGLE3-8B\\\","
     "\\\"num_speculative_tokens\\\":3}'\"", ["SD103"]),
    # the right method, and an EAGLE-1 draft with eagle: nothing
    ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": \"eagle3\", "
     "\"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", \"num_speculative_tokens\": 3}'", []),
    ("vllm serve m --speculative-config '{\"method\": \"eagle\", \"model\": \"yuhuili/EAGLE-LLaMA3.1-Instruct-8B\"}'", []),
])
def test_vllm_method_eagle_with_an_eagle3_draft(command, codes):
    from spec_debug.session.spec_facts import launch_observations
    assert [o.code for o in launch_observations(command)] == codes


def test_redrawn_progress_bar_is_one_reading():
    # tqdm redraws the bar with "\r"; before: one "throughput" per redraw (100 here) and the
    # input speeds among them.
    bar = "\r".join(f"Processed prompts:  {i}%|##| {i}/100 [00:{i:02d}<00:36, 2.77it/s, "
                    f"est. speed input: {1500 + i}.07 toks/s, output: {400 + i}.57 toks/s]" for i in range(1, 101))
    assert _readings(bar) == [("throughput", 500.57, "tok/s")]


def test_pytest_collection_error_names_the_import(tmp_path):
    # A real pytest run whose test module cannot be imported (exit 2); before: "exit_code"
    # with the message "=== test session starts ===".
    (tmp_path / "test_imp.py").write_text("import sglang_not_installed_here\n")
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "test_imp.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert _errors(run.stdout, run.returncode) == [
        ("test_failure", "ModuleNotFoundError", "test_imp.py: No module named 'sglang_not_installed_here'",
         "test_imp.py", 1)]


def test_vllm_v0_speculative_metrics_next_to_the_generation_line():
    # vLLM V0 (vllm/engine/metrics.py): the stat line and "Speculative metrics: Draft
    # acceptance rate: %.3f, ..."; before, the stat line made the output structured and the
    # acceptance rate was lost.
    text = ("INFO 10-01 12:00:00 metrics.py:351] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: "
            "120.5 tokens/s, Running: 1 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 0.5%, "
            "CPU KV cache usage: 0.0%.\n"
            "INFO 10-01 12:00:00 metrics.py:477] Speculative metrics: Draft acceptance rate: 0.650, System efficiency: "
            "0.540, Number of speculative tokens: 5, Number of accepted tokens: 1234, Number of draft tokens: 1900, "
            "Number of emitted tokens: 1500.\n")
    # and the accept length its counters give: emitted / (drafted / k) = 1500 / (1900 / 5)
    assert _readings(text) == [("throughput", 120.5, "tok/s"), ("accept_length", 3.947, "tokens"),
                               ("accept_rate", 0.65, "ratio")]
    assert _readings(text.splitlines()[1]) == [("accept_length", 3.947, "tokens"), ("accept_rate", 0.65, "ratio")]
