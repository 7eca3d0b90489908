"""Errors in tool output: Python tracebacks, ``Exit code N``, timeouts and signals, CUDA OOM,
NCCL and connection failures.

Traceback shape: CPython ``Lib/traceback.py`` (``Traceback (most recent call last):``, then
``File "...", line N, in f`` frames, then an unindented ``Type: message`` line). Exit codes
124/137/139 are ``timeout(1)``'s timeout, SIGKILL (often the OOM killer) and SIGSEGV.
Categories follow chiphuyen/sniffly ``sniffly/core/constants.py`` ERROR_PATTERNS, plus the
GPU-serving ones in TRANSCRIPTS.md section 5.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from itertools import islice

from spec_debug.session.ansi import without_colours
from spec_debug.session.failure_places import (
    JVM_FRAME, VERDICT_WORDS, VITEST_POINTER, better_said, build_failed, build_said, failure_place, thrown_at,
)
from spec_debug.session.shell_words import status_pipeline

# A frame's path in plain quotes, or in quotes a JSON logger escaped while the newlines stayed
# real (``File \\"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\\", line 2708``,
# as SGLang's "Scheduler hit an exception" reached sgl-project/sglang#15050).
_FRAME = re.compile(r'^\s+File (?:"(?P<file>[^"]+)"|\\"(?P<escaped>[^"]+?)\\"), line (?P<line>\d+)')
# _FRAME over a run of indented lines: a quoted path never spans a line, as it never did line by line.
_FRAME_LINES = re.compile(r'^\s+File (?:"(?P<file>[^"\n]+)"|\\"(?P<escaped>[^"\n]+?)\\"), line (?P<line>\d+)', re.M)
_INDENTED_RUN = re.compile(r"(?:[ \t][^\n]*\n)+")
# A frame at the line's start: a log that strips leading whitespace (journald's and some log
# shippers' "message" field, a chat paste, `sed 's/^ *//'`) prints CPython's frames as
# 'File "/x.py", line 88, in f' with the source line after it, flush left too.
_FLUSH_FRAME = re.compile(r'File (?:"(?P<file>[^"\n]+)"|\\"(?P<escaped>[^"\n]+?)\\"), line (?P<line>\d+)')
# What ends such a traceback rather than being a frame's source line: an exception as Python
# prints it, a class name (dotted or not, "...Error", "...Exception", CamelCase) alone or before
# ": message". A source line flush left ("return _run_code(code, ...)", "main()") is none.
_FLUSH_EXC_LINE = re.compile(r"(?:[a-z_]\w*\.)*(?:[A-Z]\w*|[a-z]\w*(?:Error|Exception|Interrupt|Exit))(?::|$)")
_EXC_LINE = re.compile(r"^(?P<type>[A-Za-z_][\w.]*)(?::\s?(?P<msg>.*))?$")
# A class named ...Error/...Exception, or any class under a dotted module path before a colon:
# triton.runtime.errors.OutOfResources, torch._dynamo.exc.Unsupported (no suffix to go by).
_BARE_EXC = re.compile(r"^(?P<type>(?:[a-z_][\w]*\.)*[A-Z]\w*(?:Error|Exception)|(?:[a-z_]\w*\.)+[A-Z]\w*(?=:))"
                       r"(?::\s?(?P<msg>.*))?$", re.M)
_CHAINED = ("During handling of the above exception", "The above exception was the direct cause")
# An exception vLLM's logger wrote on an ERROR line of its own, its traceback above it or not
# printed (vllm/logger.py's format "%(levelname)s %(asctime)s [%(fileinfo)s:%(lineno)d] %(message)s",
# behind the process's "(APIServer pid=2100) " in V1): "(APIServer pid=2100) ERROR 10-14 09:20:05
# [serving_chat.py:1145] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an
# issue. See stack trace (above) for the root cause." (before 0.6 without the "[": "ERROR 08-01
# 10:00:00 async_llm_engine.py:61] ..."). The failed run's error named no type.
_LOGGED_EXC = re.compile(r"^(?:\([^()\n]{1,80}\) )?ERROR \d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \[?[\w./-]+:\d+\] "
                         r"(?P<type>(?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)): ?(?P<msg>[^\n]*)$", re.M)
# NCCL's own CUDA checks warn "Cuda failure 'out of memory'" (newer: "Cuda failure 2 'out of
# memory'"; NVIDIA/nccl src/include/checks.h CUDACHECK): its buffers did not fit in what the
# engine left free, the same fault as torch's OOM.
# torch's driver-API checks say "CUDA driver error: out of memory" (c10/cuda/driver_api.h
# C10_CUDA_DRIVER_CHECK; a vLLM EngineCore dying so at startup: noonghunna/club-3090#60), and
# Triton's launcher "Triton Error [CUDA]: out of memory" (python/triton/backends/nvidia/driver.c,
# allocations outside torch's caching allocator, as fla's autotuner makes): both are the OOM.
# cuBLAS's CUBLAS_STATUS_ALLOC_FAILED ("usually caused by a cudaMalloc() failure", cuBLAS docs,
# cublasStatus_t), as torch reports it: "CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling
# `cublasCreate(handle)`" (vllm-project/vllm#8180 serving w8a8, QwenLM/Qwen3#873: fixed by a
# GPU with room).
# vLLM's check at start that the GPU has the memory --gpu-memory-utilization asks for: "ValueError:
# Free memory on device [cuda:0 ](4.04/119.63 GiB) on startup is less than desired GPU memory
# utilization (0.15, 17.94 GiB). Decrease GPU memory utilization or reduce GPU memory used by other
# processes." (vllm/v1/worker/gpu_worker.py, init_device): another process holds the GPU (often a
# server an earlier attempt left running), the same fault as an OOM.
# Ray's OutOfMemoryError is the host's memory, not the GPU's: its memory monitor kills a worker
# when the node's RAM passes RAY_memory_usage_threshold ("ray.exceptions.OutOfMemoryError: Task
# was killed due to the node running low on memory.", python/ray/exceptions.py; vLLM's Ray
# workers so, vllm-project/vllm#15102). Lowering the GPU's memory share does not help it.
_CUDA_OOM = re.compile(r"CUDA out of memory|(?<!ray\.exceptions\.)OutOfMemoryError(?!: Task was killed due to the node)"
                       r"|CUDA (?:driver )?error: out of memory"
                       r"|Triton Error \[CUDA\]: out of memory|Cuda failure (?:\d+ )?'out of memory'"
                       r"|CUBLAS_STATUS_ALLOC_FAILED"
                       r"|Free memory on device [^()\n]*\([\d.]+/[\d.]+ GiB\) on startup is less than desired GPU memory")
# NCCL's own allocation failing (NVIDIA/nccl src/include/alloc.h ncclCudaCalloc: "Failed to CUDA
# calloc N bytes", after the cudaMalloc's "Cuda failure 'out of memory'" when that was logged):
# the last line of a DistBackendError's "unhandled cuda error ... Last error:" message
# (sgl-project/sglang#1116, --mem-fraction-static 0.95 leaving NCCL no room; NVIDIA/nccl#1235).
_NCCL_CALLOC = re.compile(r"Failed to CUDA calloc \d+ bytes")
# Any other CUDA runtime error, as torch words it (c10/cuda/CUDAException.cpp: "CUDA error: %s")
# or Triton does ("Triton Error [CUDA]: %s"). When torch's NCCL watchdog finds one it dies with
# "c10::DistBackendError ... Process group watchdog thread terminated with exception: CUDA error:
# an illegal memory access was encountered" (vllm-project/vllm#9308, #17098,
# sgl-project/sglang#8296): the CUDA error is the cause, the NCCL wording only the messenger.
# FlashInfer's kernels check their launches with FLASHINFER_CUDA_CALL, which prints "CUDA
# Error: <cudaGetErrorString> (<code>) <file>: line N at function ..." (flashinfer-ai/flashinfer
# include/flashinfer/utils.cuh; an EAGLE verify step crashing so: sgl-project/sglang#5491).
# ROCm's torch words its runtime's the same way: "HIP error: invalid device function" (c10/hip,
# hipified from CUDAException.cpp), SGLang's and vLLM's AMD images print it.
_CUDA_ERROR = re.compile(r"(?:(?:CUDA|HIP) (?:[Dd]river )?[Ee]rror|Triton Error \[CUDA\]): (?!out of memory)[^\n]*")
# torch finding no GPU it can use: none visible ("No CUDA GPUs are available": CUDA_VISIBLE_DEVICES
# empty or wrong, a container started without --gpus), no driver or one too old ("Found no NVIDIA
# driver on your system", "The NVIDIA driver on your system is too old", "CUDA driver
# initialization failed"; torch/csrc/cuda and c10/cuda), or a CPU-only wheel ("Torch not compiled
# with CUDA enabled", torch/cuda/__init__.py). The GPU is unreachable, as nvidia-smi's failures
# (_GPU_UNREACHABLE) say.
# The search command itself, echoed at a shell prompt in a terminal log ("$ grep -rn
# "OutOfMemoryError" sglang/python/"): the pattern it looks for is no error either, nor where the
# search ends a pipeline ("$ cat server.log | grep -n "CUDA out of memory"").
_SEARCH_COMMAND = re.compile(r"[ \t]*(?:[^\n]{0,80}?[$#%>][ \t]+(?:[^\n|]*\|[ \t]*)*)?(?:sudo[ \t]+)?"
                             r"(?:grep|egrep|fgrep|zgrep|rg|ag|ack|git[ \t]+grep)[ \t]")


_NO_GPU = re.compile(r"No CUDA GPUs are available|Found no NVIDIA driver on your system|CUDA driver initialization failed"
                     r"|The NVIDIA driver on your system is too old|Torch not compiled with CUDA enabled")
# cudaGetErrorString's texts of the sticky kernel faults (CUDA Runtime API, cudaError_t:
# cudaErrorIllegalAddress, cudaErrorAssert, cudaErrorLaunchFailure, cudaErrorMisalignedAddress,
# cudaErrorIllegalInstruction), as a library's own exception carries them ("RuntimeError: Error
# in function 'BatchPrefillWithPagedKVCacheSM80Run' at ...: an illegal memory access was
# encountered", sglang#5491) without torch's "CUDA error: " in front.
_CUDA_FAULT = re.compile(r"an illegal memory access was encountered|device-side assert triggered"
                         r"|unspecified launch failure|misaligned address|an illegal instruction was encountered")
# A Triton kernel's (tl.device_assert; torch inductor's bounds checks, "index out of bounds: 0 <=
# tmp16 < 40960", the bound a RoPE table's or a vocabulary's size) names its generated .py file,
# or "unknown:0" / "<frozen runpy>:198" where Triton had no source line: "/root/.cache/vllm/
# torch_compile_cache/.../inductor_cache/xy/cxyz.py:53: unknown: block: [129,0,0], thread:
# [224,0,0] Assertion `index out of bounds: 0 <= tmp16 < 40960` failed." (vLLM served past the
# model's max_position_embeddings; pytorch/pytorch benchmarks' nanogpt skip).
_KERNEL_ASSERT = re.compile(r"(?:\.cuh?|\.py|(?<![\w.])unknown|<frozen [\w.]+>):\d+: [^\n]*block: \[\d+,\d+,\d+\], "
                            r"thread: \[\d+,\d+,\d+\] Assertion `[^`\n]*` failed")
# A C++ exception nobody caught: libstdc++'s verbose terminate handler prints "terminate called
# after throwing an instance of 'T'" then "  what():  <e.what()>" (gcc libstdc++-v3/libsupc++/
# vterminate.cc) and the process aborts, whatever exit status the log was read with.
_TERMINATE = re.compile(r"terminate called after throwing an instance of '(?P<type>[^'\n]+)'"
                        r"(?:\s*\n[^\n]*?what\(\):\s+(?P<msg>[^\n]*))?")
# A Rust panic (sgl-model-gateway, tokenizers): "thread 'main' panicked at src/main.rs:2:5:"
# then the message on the next line (Rust >= 1.73, library/std/src/panicking.rs), or
# "thread 'main' panicked at 'message', src/main.rs:2:5" before.
_PANIC = re.compile(r"thread '[^'\n]*' panicked at (?:'(?P<old>[^\n]*)', (?P<ofile>[^\s:]+):(?P<oline>\d+)"
                    r"|(?P<file>[^\s:]+):(?P<line>\d+):\d+:\n(?P<msg>[^\n]*))")
# The watchdog line and c10::DistBackendError are how torch reports a hung collective
# (pytorch/pytorch ``torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp``: "Watchdog caught
# collective operation timeout: WorkNCCL(...) ran for N milliseconds before timing out.").
_NCCL = re.compile(r"NCCL (?:error|WARN)|nccl\w*Error|ncclInternalError|ncclSystemError|NCCL communicator"
                   r"|Watchdog caught collective operation timeout|DistBackendError")
# After a clean exit an "NCCL WARN" alone is no failure: NCCL and RCCL warn in runs that end well
# ("NCCL WARN Missing "iommu=pt" from kernel command line which can lead to system instablity or
# hang!" on every rank of a working ROCm node; "NCCL WARN LL cutoff points not detected"). A
# collective that failed says so in an error (an NCCL error, a DistBackendError, the watchdog).
# A WARN that says something failed is one too: a log tail with "NCCL WARN Cuda failure 'out of
# memory'" and "NCCL WARN Failed to CUDA calloc 2097152 bytes" (NCCL src/include/alloc.h), "NCCL WARN
# socketProgress: Connection closed by remote peer" or "NET/IB : Got completion from peer ... with
# error 12" shows the collective's fault though the tail itself exited 0. Not an optional library
# it did without ("misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]" on hosts with no
# InfiniBand, older NCCL; a net plugin not found).
_NCCL_FAILED = re.compile(r"NCCL error|nccl\w*Error|ncclInternalError|ncclSystemError|NCCL communicator"
                          r"|Watchdog caught collective operation timeout|DistBackendError"
                          r"|NCCL WARN(?![^\n]*(?:libibverbs|libnccl-net|[Pp]lugin))"
                          r"[^\n]*?(?:[Ff]ail|[Ee]rror|refused|reset by peer|[Cc]losed|[Tt]imeout|timed out|[Aa]bort)")
# OpenSSH client texts (openssh-portable): packet.c sshpkt_fatal ("Connection closed by %s
# port %d", "Connection reset by %s port %d"), sshconnect.c kex_exchange_identification,
# sshconnect2.c ("Permission denied (%s)." for any method list), clientloop.c ("client_loop:
# send disconnect: Broken pipe"), and the server's "Received disconnect from ...".
# curl exit 52 "Empty reply from server": the server died mid-request.
# A host without internet access fetching weights: urllib3's NewConnectionError ("Failed to
# establish a new connection: [Errno 101] Network is unreachable", "[Errno -3] Temporary
# failure in name resolution"), which transformers re-raises as "OSError: We couldn't connect
# to 'https://huggingface.co' to load this file" (src/transformers/utils/hub.py cached_file;
# lucaslingle/transformer_vq#2, Alpha-VLLM/Lumina-mGPT-2.0#4) and pip retries behind "WARNING:
# Retrying ... after connection broken by 'NewConnectionError(...)'".
_CONNECTION = re.compile(
    r"Connection refused|Connection reset by |Connection closed by |Connection timed out|No route to host|"
    r"Failed to establish a new connection|Network is unreachable|Temporary failure in name resolution|"
    r"couldn't connect to '|"
    # aiohttp's ClientConnectorError (aiohttp/client_exceptions.py: "Cannot connect to host
    # {host}:{port} ssl:{ssl} [{reason}]", what sglang.bench_serving raises against a dead
    # server) and the OpenAI client's "APIConnectionError: Connection error." (openai/_exceptions.py)
    r"Cannot connect to host |APIConnectionError|"
    # ssh's "Could not resolve hostname gpu01" and curl's "curl: (6) Could not resolve host: gpu01"
    r"Could not resolve host|Name or service not known|Host key verification failed|"
    # asyncio lower-cases the strerror in its bind error, which uvicorn logs when an SGLang or vLLM
    # server's port is taken: "ERROR:    [Errno 98] error while attempting to bind on address
    # ('0.0.0.0', 30000): address already in use" (cpython Lib/asyncio/base_events.py create_server)
    r"Permission denied \((?:publickey|password|keyboard-interactive|gssapi)|[Aa]ddress already in use|"
    r"ConnectionRefusedError|ssh: connect to host|Failed to connect to|kex_exchange_identification: |"
    r"Received disconnect from |client_loop: send disconnect|Empty reply from server|"
    # clientloop.c again: the session dropped under a running command (the host rebooted, the
    # sshd was killed, an OOM took the machine) and the ServerAliveInterval check giving up
    r"closed by remote host|Timeout, server \S+ not responding")
# An OpenAI-compatible server's error body, which curl prints with exit status 0 unless told
# --fail: vLLM's and SGLang's ErrorResponse ({"object": "error", "message", "type", "param",
# "code"}: vllm/entrypoints/openai/protocol.py, sglang python/sglang/srt/entrypoints/openai/
# protocol.py; newer vLLM nests it as {"error": {"message", "type", "param", "code"}}).
_HTTP_ERROR = re.compile(r'(?:"object":\s*"error",\s*|\{"error":\s*\{\s*)"message":\s*"(?P<msg>(?:[^"\\\n]|\\.)*)",'
                         r'\s*"type":\s*"(?P<type>[^"\n]*)"(?:,\s*"param":\s*(?:null|"[^"\n]*"))?'
                         r'(?:,\s*"code":\s*"?(?P<code>\d+))?')
# The agents' own notes count too: Kimi CLI's Shell tool "Command killed by timeout (60s)"
# (MoonshotAI/kimi-cli src/kimi_cli/tools/shell/__init__.py) and OpenCode's "bash tool terminated
# command after exceeding timeout 120000 ms" (sst/opencode packages/opencode/src/tool/bash.ts).
_TIMEOUT = re.compile(r"timed out|TimeoutError|Timeout expired|deadline exceeded|killed by timeout"
                      r"|terminated command after exceeding timeout", re.I)
# bash reports a job killed by a signal as "bash: line 1:  4242 Killed   python3 x.py" (jobs.c,
# the pid right-aligned in 5 columns, then the signal's text, then the command); the
# non-job form is the text alone. bash pads the text to 24 columns (jobs.c LONGEST_SIGNAL_DESC),
# so the 24 characters of "Floating point exception" run into the command: "sig.sh: line 2:  8554
# Floating point exceptionpython3 -c ..." (bash 5.2, recorded in hardening 72, failures6), as
# job_ends reads a job's line. SIGILL's "Illegal instruction" is a wheel built for a CPU the host
# lacks (an AVX-512 build on an older CPU), SIGFPE an integer division by zero in native code.
_SIGNAL_TEXT = re.compile(r"^(?:.*: )?(?:\s*\d+ )?(Killed|Segmentation fault|Aborted|Bus error|Illegal instruction"
                          r"|Floating point exception)(?: \(core dumped\))?"
                          r"(?:\s*$| {2,}\S.*$|(?<=\d Floating point exception)\S.*$)", re.M)
_TOOL_TIMED_OUT = "Command timed out after "
"""What an agent's shell tool appends when it killed a command at its time limit: Pi's bash, the
output so far, a blank line, then ``Command timed out after N seconds`` (badlogic/pi-mono
packages/coding-agent/src/core/tools/bash.ts, its ``timeout:`` rejection)."""
_SIGNAL_EXIT = {130: "SIGINT", 132: "SIGILL", 134: "SIGABRT", 135: "SIGBUS", 136: "SIGFPE", 137: "SIGKILL",
                139: "SIGSEGV", 143: "SIGTERM"}
# Python's faulthandler (on in SGLang's and vLLM's processes) writes "Fatal Python error:
# Segmentation fault", then each thread's stack, the crashing one under "Current thread 0x...
# (most recent call first):" with its innermost frame first (CPython Modules/faulthandler.c,
# faulthandler_handlers and dump_traceback). The process died of that signal even when the log
# was read through a pipe whose status is 0 (`... 2>&1 | tail`): sgl-project/sglang#3451,
# #3745 (NCCL and all_reduce segfaults).
_FAULTHANDLER = re.compile(r"Fatal Python error: (Segmentation fault|Bus error|Aborted|Floating point exception"
                           r"|Illegal instruction)")
_FAULT_SIGNALS = {"Segmentation fault": "SIGSEGV", "Bus error": "SIGBUS", "Aborted": "SIGABRT",
                  "Floating point exception": "SIGFPE", "Illegal instruction": "SIGILL"}
_CURRENT_THREAD = re.compile(r'Current thread 0x[0-9a-fA-F]+ \(most recent call first\):\s*\n\s*'
                             r'File "(?P<file>[^"\n]+)", line (?P<line>\d+)')
# pytest's short test summary (``FAILED path::test - message``, src/_pytest/terminal.py
# ``_get_line_with_reprcrash_message``) and the crash location of the long report
# (``path.py:LINE: ExceptionType``, src/_pytest/_code/code.py ``ReprFileLocation``).
# A collection error is "ERROR path.py" in the summary, its exception on an "E   Type: msg"
# line after "path.py:LINE: in <module>" entries (the short traceback pytest prints).
# A parametrized test's id keeps the spaces of its string parameters ("test_accept[eagle3 llama
# 8b]", _pytest/python.py _idval: a str is used as is): inside its brackets the node id has spaces.
# Possessive (*+): a "[" read as a bracket's start or as a lone character are two ways to read
# the same text, and a line that does not match ("FAILED x.py::t[a][b]...[t] and more") was
# tried every way, 2**n for n brackets (20: 1.7 s a line).
_PYTEST_FAILED = re.compile(r"^(?P<what>FAILED|ERROR) (?P<node>\S+\.py(?:::(?:[^\s\[]|\[[^\]\n]*\]|\[)*+)?)"
                            r"(?: - (?P<msg>.*))?\s*$", re.M)
_PYTEST_LOCATION = re.compile(r"^(?P<file>[^\s:]+\.py):(?P<line>\d+): (?P<type>[A-Za-z_][\w.]*)\s*$", re.M)
_PYTEST_E_LINE = re.compile(r"^E\s+(?P<type>[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)):\s?(?P<msg>.*)$", re.M)
_PYTEST_ENTRY = re.compile(r"^(?P<file>[^\s:]+\.py):(?P<line>\d+): in \S+\s*$", re.M)
MAX_PER_OUTPUT = 5
# What Claude Code returns for a command the person stopped (chiphuyen/sniffly
# sniffly/core/constants.py, "User Interruption"): no failure of the command.
_INTERRUPTED = "[Request interrupted by user"
# What Claude Code's Bash tool appends when the command was stopped before it ended (its abort
# signal: the person's Esc, a message sent while it ran), with ``is_error`` set to ``interrupted``
# (the CLI's BashTool ``mapToolResultToToolResultBlockParam``: stdout, stderr, then this tag; a
# command moved to the background has a line after it). A timeout says so in words of its own.
_ABORTED_TAG = "<error>Command was aborted before completion</error>"
_PI_ABORTED = "Command aborted"
"""What Pi's bash tool fails with when the run was stopped (the person's Esc aborts the turn's
signal): the output so far, a blank line, then these words (badlogic/pi-mono
packages/coding-agent/src/core/tools/bash.ts, ``appendStatus(text, "Command aborted")``)."""
# What Codex returns for a call the person stopped with Esc (openai/codex
# codex-rs/core/src/tools/parallel.rs, ToolCallRuntime::abort_message): "Wall time: 9.5
# seconds\naborted by user" for a shell tool, "aborted by user after 5.0s" for any other.
_CODEX_ABORTED = "aborted by user"
# What Claude Code returns for a call it never ran: a PreToolUse hook blocked it
# ("PreToolUse:Bash hook error: [~/.claude/hooks/x.sh]: reason", is_error: true; the text
# transcript readers test against, CLI 2.1.x, see tests/session/test_hardening12b_hook_attachments.py),
# or the person refused permission (the CLI's "The user doesn't want to proceed with this tool
# use. The tool use was rejected ..." prompt text, kmcquade/cc-mvp-prompts
# system-prompts/system-prompt-stop-after-rejection.md), or the permission system denied it
# ("Permission for this action was denied by the Claude Code auto mode classifier. ...",
# "Permission for this command was denied by a built-in Claude Code safety check, ...", "This
# command requires approval" in a -p run: the texts an independent transcript checker's tests
# list as Claude Code's denials). No command ran, so nothing failed.
_TOOL_USE_ERROR, _TOOL_USE_ERROR_END = "<tool_use_error>", "</tool_use_error>"
_HOOK_BLOCKED = "PreToolUse:"
_HOOK_ERROR = " hook error: "
_REJECTED = "The user doesn't want to proceed with this tool use"
_DENIED = ("Permission for this action was denied by", "Permission for this command was denied by",
           "This command requires approval", "Permission for this action has been denied",
           "Claude requested permissions to ", "Claude Code denied this call (toolDenialKind ")
# The last two, and "Permission to use WebSearch has been denied." (_DENIED_RULE): the auto mode
# classifier's refusal with its reason ("Permission for this action has been denied. Reason: …"),
# and what a headless run (`claude -p`, CI) answers for a call it would have asked about, with no
# one to ask ("Claude requested permissions to use Bash, but you haven't granted it yet.", also
# "… to write to PATH …", "… to read from PATH …"; the texts published session reports quote and
# re-implementations of the CLI's permission checks return). The call never ran.
_DENIED_RULE = ("Permission to use ", " has been denied")
_DENIED_PART = "This Bash command contains multiple operations. The following part"
# What Claude Code answers for the calls of a parallel batch it cancelled because a sibling call
# failed: "<tool_use_error>Sibling tool call errored</tool_use_error>" (CLI 2.1.x; anthropics/
# claude-code issues #22264, #23332), "<tool_use_error>Cancelled: parallel tool call Bash(<the
# failing command>) errored</tool_use_error>" from 2.1.156 (issues #64346, #64254: a `pwd` or an
# `echo hello` so answered). The command never ran or was cut off; the failure is the sibling's.
_CANCELLED = ("Sibling tool call errored", "Cancelled: parallel tool call ")
NOT_RUN = frozenset({"hook_blocked", "rejected", "denied", "cancelled"})
"""Error kinds of a call that never ran (blocked or refused before it started, or cancelled
with its batch)."""


def error_said(exception: str | None, kind: str, message: str) -> str:
    """An error as one line, ``Exception: message``: a message that already starts with its
    exception's name (an OOM or CUDA line read whole, "torch.OutOfMemoryError: CUDA out of
    memory.") is not named twice (was "torch.OutOfMemoryError: torch.OutOfMemoryError: ...")."""
    name = exception or kind
    if exception and (message.startswith(exception + ":") or message.startswith(exception.rsplit(".", 1)[-1] + ":")):
        return message
    return f"{name}: {message}"


_NOTHING_SAID = {"exit_code": "a failed command", "connection": "a failed connection",
                 "tool_error": "a failed tool call", "timeout": "timed out"}
_SAID_AS = {
    # kind: (its words, what a message that already says them holds). A GPU, memory, NCCL,
    # HTTP or test failure no exception names was said behind the JSON's kind ("First error:
    # host_oom: [1234.5] Out of memory: Killed process 48213 (python3)", "After cuda_error: CUDA
    # error: an illegal memory access ..."): its line says what failed, or these words do.
    "cuda_error": ("GPU error", ("CUDA", "HIP", "GPU")),  # a kernel assertion's line names none
    "cuda_oom": ("GPU out of memory", ("out of memory", "Out of memory", "OOM", "OutOfMemory")),
    "kv_cache_memory": ("not enough KV cache memory", ("memory",)),
    "host_oom": ("host out of memory", ("out of memory", "Out of memory", "OOM")),
    "nccl": ("NCCL error", ("NCCL", "nccl")),
    "http_error": ("HTTP error", ("HTTP",)),
    "test_failure": ("test failed", ("FAILED", "ERROR")),
    # a call that never ran (NOT_RUN): the agent's or the user's refusal says so itself
    "denied": ("permission denied", ("ermission", "approval", "denied")),
    "rejected": ("refused", ("user", "ejected", "efused")),
    "hook_blocked": ("blocked by a hook", ("hook", "Hook")),
    "cancelled": ("cancelled", ("ancel", "errored")),
}
WORDED_KINDS = frozenset({*_NOTHING_SAID, *_SAID_AS})
"""Error kinds :func:`failure_said` says in words where no exception names the error: what the
command or the tool printed is the failure ("ssh: connect to host gpu01 port 2222: No route to
host"), and the kind is the JSON's identifier, not a word of it. (An ``agent_error``, the agent's
own API failing, keeps its name: it is no failure of the work, and the postmortem says so.)"""


def failure_said(exception: str | None, kind: str, message: str, status: int | None = None) -> str:
    """:func:`error_said` for people to read: a failure of one of :data:`WORDED_KINDS` with no
    exception's name says what was printed, not the JSON's identifier ("connection: ssh: ...",
    "tool_error: launch_server.py: error: ..."); one known by its command's exit status (kind
    ``exit_code``) says the status in words, "exit status 22: curl: (22) The requested URL
    returned error: 401", and a timeout that its line does not call one says so ("timed out:
    Running benchmark ..."). ``status``: the command's exit status, None where it is not known
    (the message is said alone)."""
    if exception or kind not in WORDED_KINDS:
        return error_said(exception, kind, message)
    if kind in _SAID_AS:
        words, says = _SAID_AS[kind]
        return (message if any(w in message for w in says) else f"{words}: {message}") if message else words
    if not message:
        return f"exit status {status}" if kind == "exit_code" and status is not None else _NOTHING_SAID[kind]
    if kind == "timeout":
        low = message.lower()
        return message if "timed out" in low or "timeout" in low or "time out" in low else f"timed out: {message}"
    if kind != "exit_code" or status is None or message.startswith(
            ("exit code", "exit status", "Exit code", "Exit status")):
        return message  # (an "exit code 1" says it already)
    return f"exit status {status}: {message}"


def summary_said(said: str, status: int | None = None) -> str:
    """A summary's error as :func:`error_said` wrote it ("connection: ssh: ..." in a pivot's
    "After connection: ssh: ... [msg 8]") in words (:func:`failure_said`); any other as it is.
    A sub-agent's failure its parent turned from ("sub-agent abc123's exit_code: ...",
    analysis._spawn_pivots) keeps whose it was: "sub-agent abc123's launch_server.py: ..."."""
    whose = ""
    if said.startswith("sub-agent "):
        cut = said.find("'s ", 10)
        if cut > 0:
            whose, said = said[:cut + 3], said[cut + 3:]
    kind, colon, message = said.partition(": ")
    return whose + (failure_said(None, kind, message, status) if colon and kind in WORDED_KINDS else said)

# A compiled literal finds a short needle about twice as fast as ``in`` does (measured on
# 10 KB server logs, CPython 3.11); gates that scan every output use it, after a test for
# one letter every match must hold (a one-character ``in`` is a memchr: ~0.1 us for 10 KB).
_HAS_MEMORY = re.compile("memory").search
_HAS_NCCL = re.compile("NCCL").search
_HAS_NCCL_LOWER = re.compile("nccl").search
_HAS_TERMINATE = re.compile("terminate called").search
_HAS_PANIC = re.compile("' panicked at ").search
_HAS_ERROR_KEY = re.compile('"error"').search


@dataclass(slots=True)
class ErrorInfo:
    kind: str
    """traceback | cuda_oom | kv_cache_memory (:data:`_KV_CACHE_MEMORY`) | host_oom (:data:`_HOST_OOM`) | gpu_xid
    (:data:`_XID`, its number the exception) | cuda_error | nccl | connection |
    timeout | signal | exception | test_failure | http_error | exit_code | tool_error | interrupted (the
    analysis counts it in stats, as no error) | hook_blocked | rejected | denied | cancelled (the call never
    ran: :data:`NOT_RUN`)"""
    exception: str | None = None
    message: str = ""
    file: str | None = None
    line: int | None = None


def extract_errors(output: str, exit_code: int | None = None, is_error: bool = False,
                   status_known: bool = True) -> list[ErrorInfo]:
    """Every error an output shows, most specific first; nothing for a clean output.

    ``status_known=False`` (a plain-text log, where no exit status was recorded) lets the
    text alone say that a command failed."""
    errors: list[ErrorInfo] = []
    output = without_colours(output)  # Python 3.13's coloured tracebacks (Lib/_colorize.py, FORCE_COLOR)
    failed = is_error or (exit_code not in (None, 0)) or (exit_code is None and not status_known)
    if is_error and output.startswith(_TOOL_USE_ERROR):
        # Claude Code's refusal of a call before it ran (a tool input it could not validate, a file
        # not read before its edit, an old_string not found): the words inside the markup, whole
        # ("InputValidationError: Bash failed due to the following issue:" says what only on the
        # line after); the message was the first line with its tag
        output = output[len(_TOOL_USE_ERROR):].replace(_TOOL_USE_ERROR_END, "\n", 1)
        if output.startswith(_CANCELLED):
            return [ErrorInfo("cancelled", None, _first_meaningful_line(output)[:300])]
        if not output.startswith((_HOOK_BLOCKED, _REJECTED, *_DENIED, _DENIED_PART, _DENIED_RULE[0])):
            said = " ".join(line.strip() for line in output[:600].splitlines() if line.strip())
            return [ErrorInfo("tool_error", None, said[:300])]
    if is_error and output[:1] in "PTC":  # before the traceback scan: a hook's own stderr may hold one
        if output.startswith(_HOOK_BLOCKED) and _HOOK_ERROR in output[:200]:
            return [ErrorInfo("hook_blocked", None, _first_meaningful_line(output)[:300])]
        if output.startswith(_REJECTED):
            return [ErrorInfo("rejected", None, _first_meaningful_line(output)[:300])]
        if output.startswith(_DENIED) or (output.startswith(_DENIED_PART) and "approval" in output[:300]) \
                or (output.startswith(_DENIED_RULE[0]) and _DENIED_RULE[1] in output[:300]):
            return [ErrorInfo("denied", None, _first_meaningful_line(output)[:300])]
    # "T" first: a memchr, which stops at the first T of a log that has one; a listing or a
    # progress bar has none, and the 33-character search costs 2x a memchr's full pass.
    # The quote's memchr is done once for the two gates below that need one.
    has_quote = '"' in output
    if "T" in output and "Traceback (most recent call last)" in output:
        errors.extend(parse_tracebacks(output))
    elif has_quote and 'File "' in output and (cut := _headless_traceback(output)) is not None:
        # the quote first: a memchr, where the six characters cost 2 ns each over a server log
        errors.append(cut)
    if errors:
        if exit_code == 124:
            errors = [_stopped_by_timeout(e, output) if e.exception == "KeyboardInterrupt" else e for e in errors]
        return _with_stated_cause(errors, output, failed)[:MAX_PER_OUTPUT]
    if is_error and (output.startswith(_INTERRUPTED) or (output[:1] in "aW" and _codex_aborted(output))):
        return [ErrorInfo("interrupted", None, output[:200].strip())]
    if is_error and output.endswith(_PI_ABORTED) and (len(output) == len(_PI_ABORTED)
                                                      or output.endswith("\n\n" + _PI_ABORTED)):
        return [ErrorInfo("interrupted", None, _PI_ABORTED)]
    if is_error and output.endswith(_ABORTED_TAG) and "timed out" not in output:
        # (was a failed call whose error was the output's first line: a `tail -f` of a server's
        # log stopped three times was "the same failing command", its error a log line)
        return [ErrorInfo("interrupted", None, "Command was aborted before completion")]
    cause = _stated_cause(output, failed)
    if cause is not None:
        # a watchdog's "CUDA error: device-side assert triggered" with no traceback: the
        # kernel's assertion, printed before or after it, says which (as for a traceback's)
        return [_with_kernel_assert(cause, output) if "Assertion `" in output else cause]
    if has_quote and _HAS_ERROR_KEY(output) and _error_body(output) and (m := _reported(_HTTP_ERROR, output, failed)):
        return [_http_error(m)]
    if exit_code in (None, 0) and not is_error and output.find("ERROR: ", max(0, len(output) - _PIP_TAIL)) >= 0 \
            and (said := _pip_last_line(output)).startswith(_PIP_GAVE_UP):
        # `pip install sglang==9.9 | tail -1`: the pipeline's status is tail's 0, pip's last
        # words say the install did not happen (bounded find: no scan of a long output's head)
        return [ErrorInfo("tool_error", None, said[:300])]
    if exit_code in (None, 0) and not is_error and output.find(_PIP_BOX_ARROW, max(0, len(output) - _PIP_TAIL)) >= 0 \
            and (said := _pip_box_at_end(output)) is not None:
        # `pip install flash-attn 2>&1 | tail -4` of pip 25.2 on: its last box says it gave up
        return [ErrorInfo("tool_error", None, said)]
    if not failed and _may_end_in_build_failure(output) \
            and (said := build_gave_up_line(output)) is not None:
        # `make 2>&1 | tail -5`, `pytest -q | tail -3`: tail's 0 is the pipeline's status, the
        # tool's last line says it failed; read as a failed call's output (the compiler's line)
        return extract_errors(output, is_error=True) or [ErrorInfo("tool_error", None, said)]
    if not failed:
        return []  # the costlier patterns below only run on outputs known (or allowed) to be failures
    if (gpu := _gpu_unreachable(output)) is not None:
        return [gpu]
    if ("python" in output and ": " in output and (m := _PYTHON_REFUSED.search(output))):
        return [_python_refused(m)]
    if ("FAILED " in output or "ERROR " in output) and (m := _PYTEST_FAILED.search(output)):
        return [_pytest_failure(output, m)]
    head = _first_meaningful_line(output)
    if head[:1] == "+" and _XTRACE_LINE.match(head):
        head = _last_untraced_line(output) or head  # what the script printed, not a `set -x` trace of it
    if exit_code == 124 or (t := _timed_out_at(output)):
        if exit_code != 124 and (note := _last_meaningful_line(output)).startswith(_TOOL_TIMED_OUT):
            # the agent's tool stopped it and said so after the output (Pi's bash): its note is
            # what happened; the output's first line (was the message) is how the command began
            return [ErrorInfo("timeout", None, note)]
        # ssh's "connect to host h port 22: Connection timed out" is a connection failure
        if exit_code != 124 and (m := _CONNECTION.search(_line_at(output, t.start()))):
            return [ErrorInfo("connection", None, _line_at(output, t.start()))]
        if exit_code != 124 and t.group(0).lower().startswith(("killed", "terminated")):
            # an agent's note ("killed by timeout", "terminated command after exceeding timeout")
            # says what happened; the output's first line ("(no output)") says nothing
            return [ErrorInfo("timeout", None, _line_at(output, t.start()))]
        if exit_code != 124:
            # the line that said it timed out ("RuntimeError: deadline exceeded ...", "curl: (28)
            # Operation timed out ..."), not the output's first line (was: "Polling ...", how
            # the command began)
            return [ErrorInfo("timeout", None, _line_at(output, t.start()))]
        # timeout(1) killed it: where it had got to is its last line (a benchmark's progress
        # bar), not its first (the arguments it printed at start)
        return [ErrorInfo("timeout", None, f"timed out (exit 124): {_last_meaningful_line(output)}".strip(": "))]
    status = exit_code
    if exit_code is not None and exit_code < 0 and 128 - exit_code in _SIGNAL_EXIT:
        # Python's subprocess gives -N for a child signal N killed ("A negative value -N indicates
        # that the child was terminated by signal N", CPython Doc/library/subprocess.rst,
        # Popen.returncode): an agent loop built on it hands the model -9 where a shell says 137
        exit_code = 128 - exit_code
    if exit_code in _SIGNAL_EXIT:
        # The signal's own line ("Killed", bash's job line) when printed, else what the process
        # printed last: its first line is how it started, not what it was doing when it died.
        m = _SIGNAL_TEXT.search(output)
        said = _line_at(output, m.start()) if m else _last_meaningful_line(output)
        # (a bare "Exit code 137" says nothing more: the status is the message, not "")
        return [ErrorInfo("signal", _SIGNAL_EXIT[exit_code], said or f"exit code {status}")]
    if m := _SIGNAL_TEXT.search(output):
        return [ErrorInfo("signal", m.group(1), _line_at(output, m.start()))]
    if m := _untraced_search(_CONNECTION, output):
        return [ErrorInfo("connection", _exception_near(output, m.start()), _line_at(output, m.start()))]
    if (m := _BARE_EXC.search(output)) or ("ERROR" in output and (m := _LOGGED_EXC.search(output))):
        msg = (m.group("msg") or "").strip()
        kind = KV_CACHE_MEMORY if _KV_CACHE_MEMORY.search(msg) else "cuda_error" if _NO_GPU.search(msg) \
            else "host_oom" if _host_memory(msg) else "exception"
        file, line = thrown_at(output, m.end()) if "    at " in output or VITEST_POINTER in output \
            or JVM_FRAME in output else (None, None)  # a JS stack's, a vitest stack's, a JVM stack's
        return [ErrorInfo(kind, m.group("type"), msg, file, line)]
    if exit_code not in (None, 0) or is_error:
        said_at = place = None
        if (said := _ERROR_SAID.search(output)) or (said := _ERROR_SAID_INDENTED.search(output)):
            head = said.group(0).strip()[:300]  # what the tool said went wrong, not how it started
            said_at = said.start()
            if head.startswith("error: ") and _PIP_BOX_ARROW in output and (box := _pip_box(output, said.end())):
                head = box[0]  # pip's box under its reference ("error: failed-wheel-build-for-install") says what
        elif "** (" in output and (raised := _ELIXIR_RAISED.search(output)):
            return [ErrorInfo("exception", raised.group("type"), raised.group("msg")[:300])]
        elif "llama" in output and (said := _llama_cpp_said(output)):
            head = said[:300]
        elif (built := build_said(output)) is not None:
            head, *place = built  # a Maven, Gradle or eslint report's first error, not the build's banner
        elif ("fail" in output or "FAIL" in output) and (said := _TEST_SUMMARY.search(output)):
            head = (said.group("said") or said.group("said2")).strip()[:300]  # the runner's verdict, not its banner
        if head[:1] in "#c*" and (better := better_said(output, head)) is not None:
            head = better  # the line that names the failure, not a Go package's, collect2's or pylint's banner
        if head[:1] == "+" and _XTRACE_LINE.match(head):
            head = _last_untraced_line(output) or head  # (as above, for the head a said line gave)
        # a compiler's or test runner's source line
        file, line = place if place else failure_place(output, head, said_at)
        if exit_code not in (None, 0):
            return [ErrorInfo("exit_code", None, head or f"exit code {exit_code}", file, line)]
        return [ErrorInfo("tool_error", None, head, file, line)]
    if _NODE_FATAL_TRAILER in output and (node := _node_fatal(output)) is not None:
        return [node]
    if any(word in output for word in VERDICT_WORDS) and build_failed(output):
        # a build's, a test run's or a linter's own "it failed" (Maven, Gradle, eslint, jest,
        # vitest, go test, tsc): read as a failed call's output (its compiler's or test's line,
        # the place), no status beside it
        return extract_errors(output, is_error=True)
    if _may_end_in_build_failure(output) and (said := build_gave_up_line(output)) is not None:
        # make's, pytest's, cargo's or ninja's last words that the run failed, as above
        return extract_errors(output, is_error=True) or [ErrorInfo("tool_error", None, said)]
    # No status recorded (a terminal log, an OpenAI chat "tool" message): the shell saying it could
    # not run the command is the whole failure (exit 127/126 unseen). It writes that line before
    # anything runs, or after the commands before it in a list: the output's first or last line,
    # not a line in the middle of a log the command printed.
    if (said := _shell_refused(head)) or (said := _shell_refused(_last_meaningful_line(output))):
        return [ErrorInfo("tool_error", None, said)]
    if "+" in output and _PS_NORMAL_VIEW_ID in output and (said := _powershell_normal_view(output)):
        return [ErrorInfo("tool_error", None, said)]
    if "|" in output and _PS_CONCISE_LINE in output and (said := _powershell_concise_view(output)):
        return [ErrorInfo("tool_error", None, said)]
    return []


def _stopped_by_timeout(error: ErrorInfo, output: str) -> ErrorInfo:
    """A KeyboardInterrupt under exit status 124: timeout(1) sent SIGINT at its limit (``timeout
    -s INT 600 python3 bench.py``, chosen to get that traceback) and reported 124 itself (GNU
    coreutils 9.x ``timeout --help``: "124 if COMMAND times out, and --preserve-status is not
    specified"). No key was pressed: the command timed out where the traceback stopped it;
    what it printed last before the traceback says how far it got."""
    said = _last_meaningful_line(split_tracebacks(output)[1])
    return ErrorInfo("timeout", None, f"timed out (exit 124): {said}".strip(": "), error.file, error.line)


# Node.js killed by an exception nothing caught: it prints where it was thrown, the error's stack
# ("Error: Cannot find module 'sql.js'", "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'x'",
# then "    at ..." frames) and, last, "\nNode.js v24.13.1\n" (nodejs/node src/node_errors.cc,
# TriggerUncaughtException's report, the extra_info_on_fatal_exception line). A bare "Error: ..."
# is no exception name to the Python-shaped patterns above; where no status is recorded (a real
# agent log on Windows, rocketvish/bearing-research transcript.jsonl, `npm test` dying on a module
# npm had not installed) that trailer is what says the process died.
_NODE_FATAL_TRAILER = "\nNode.js v"
_NODE_FATAL_VERSION = re.compile(r"^Node\.js v\d+\.\d+\.\d+\s*$", re.M)
_NODE_ERROR_LINE = re.compile(r"^(?:Uncaught )?(?P<type>(?:[A-Z]\w*)?Error)(?: \[(?P<code>[A-Z][A-Z0-9_]*)\])?: "
                              r"(?P<msg>[^\n]*)\n(?=(?:[^\n]*\n){0,12}?    at )", re.M)


def _node_fatal(output: str) -> ErrorInfo | None:
    """The error a Node.js process died of (:data:`_NODE_FATAL_TRAILER`): the head line of the
    last stack before the first "Node.js vX.Y.Z" line; None where no such stack precedes it."""
    trailer = _NODE_FATAL_VERSION.search(output)
    if trailer is None:
        return None
    heads = list(_NODE_ERROR_LINE.finditer(output, 0, trailer.start()))
    if not heads:
        return None
    m = heads[-1]
    message = m.group("msg").strip()
    if m.group("code"):
        message = f"[{m.group('code')}] {message}"
    return ErrorInfo("exception", m.group("type"), message[:300])


# PowerShell's error records as its console shows them, where no status is recorded. Windows
# PowerShell 5.1's NormalView: the message after the command's name and " : " ("dir : Cannot find
# path 'C:\x' because it does not exist."), the position ("At line:1 char:1", "At C:\s.ps1:3
# char:1"), the line with "+ ~~~" under it, then "    + CategoryInfo          : ..." and
# "    + FullyQualifiedErrorId : ..." (PowerShell/PowerShell
# src/System.Management.Automation/FormatAndOutput/DefaultFormatters/PowerShellCore_format_ps1xml.cs,
# the ErrorRecord view's NormalView branch; InvocationInfo.PositionMessage). PowerShell 7's
# ConciseView (its default, RFC0052 "Update $ErrorView with simplified views"): one line
# "Get-ChildItem: Cannot find path ...", which a program's own "name: message" reading takes,
# or, for an error in a script or a multi-line command, "Get-Item: C:\s.ps1:3", "Line |",
# "   3 |  Get-Item C:\x", "     |  ~~~~", "     | Cannot find path ..." (same file,
# Get-ConciseViewPositionMessage). The category lines and the "Line |" row are PowerShell's alone.
_PS_NORMAL_VIEW_ID = "+ FullyQualifiedErrorId "
_PS_NORMAL_VIEW_AT = re.compile(r"^At (?:line:\d+|.+:\d+) char:\d+$")
_PS_CONCISE_LINE = "\nLine |"


def _powershell_normal_view(output: str) -> str | None:
    """The message of the first NormalView error record in ``output`` (:data:`_PS_NORMAL_VIEW_ID`):
    the line before its position; None where none is."""
    lines = output.splitlines()
    for k, line in enumerate(lines):
        if not k or not line.startswith("At ") or not _PS_NORMAL_VIEW_AT.match(line.rstrip()):
            continue
        ids = [after for after in lines[k + 1:k + 12] if _PS_NORMAL_VIEW_ID in after]
        if ids and _PS_NATIVE_STDERR not in ids[0]:
            said = lines[k - 1].strip()
            return said[:300] if said else None
    return None


_PS_NATIVE_STDERR = ": NativeCommandError"
"""The id Windows PowerShell 5.1 gives each line a program wrote to stderr under ``2>&1`` (``git
clone ... 2>&1``: ``git : Cloning into 'sglang'...`` and the same position and category lines,
``RemoteException``): a program's stderr, its logging included, not a failure by itself (the
PowerShell committee's word in PowerShell/PowerShell pull #13361: stderr "does not signify an
error", many programs write progress and verbose output there)."""


def _powershell_concise_view(output: str) -> str | None:
    """The message of the first ConciseView error record with a position in ``output``: the
    command's name from the header, then the ``     | `` rows after the ``~`` underline."""
    lines = output.splitlines()
    for k, line in enumerate(lines):
        if line.rstrip() != "Line |" or not k:
            continue
        header = lines[k - 1].strip()
        name = header.split(":", 1)[0] if ":" in header else ""  # "Get-Item: C:\\s.ps1:3", "Get-Item:"
        said, underlined = [], False
        for row in lines[k + 1:k + 40]:
            bar = row.find("|")
            if bar < 0 or row[:bar].strip() and not row[:bar].strip().isdigit():
                break
            text = row[bar + 1:].strip()
            if underlined and not row[:bar].strip():
                said.append(text)
            elif text and set(text) <= {"~", " "}:
                underlined = True
        if said:
            return (f"{name}: " if name else "") + " ".join(said)[:300]
    return None


# nvidia-smi when no GPU can be reached at all: the driver is not loaded (after a kernel update or
# a reboot), NVML and the driver disagree after a driver upgrade without a reboot, or a GPU fell
# off the bus (Xid 79). Its exit status says little (9, 6, 255) and a text log has none.
_GPU_UNREACHABLE = ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver",
                    "Failed to initialize NVML", "No devices were found",
                    "Unable to determine the device handle for GPU")


# Python refusing to start what it was given, in one line and with no traceback: ``python -m
# sglang.launch_server`` from the wrong virtualenv prints "<python>: Error while finding module
# specification for 'sglang.launch_server' (ModuleNotFoundError: No module named 'sglang')" or
# "<python>: No module named sglang" (cpython Lib/runpy.py, _get_module_details and
# _run_module_as_main), a wrong script path "<python>: can't open file '/x.py': [Errno 2] No such
# file or directory" (cpython Modules/main.c, pymain_run_file).
_PYTHON_REFUSED = re.compile(
    r"^\S*python[\d.]*: (?:Error while finding module specification for '[^'\n]+' \((?P<type>\w+): (?P<msg>[^\n]*)\)"
    r"|(?P<nomod>No module named [^\n]+)|(?P<noopen>can't open file [^\n]+))$", re.M)


# A shell that could not start what it was given, in its own words: bash's "bash: nvcc: command
# not found", "-bash: ..." (a login shell), "bash: line 1: ..." (bash -c), "bash: ./run.sh: No such
# file or directory", "... Permission denied", "bash: ./run.sh: /bin/bash^M: bad interpreter: No
# such file or directory", "bash: cd: /x: No such file or directory" (bash execute_cmd.c and
# builtins/cd.def); dash's "sh: 1: nvcc: not found" and "sh: 1: cd: can't cd to /x"; zsh's "zsh:
# command not found: nvcc", "zsh: no such file or directory: ./run.sh", "cd: no such file or
# directory: /x"; fish's "fish: Unknown command: nvcc"; PowerShell's CommandNotFoundException,
# "rsync : The term 'rsync' is not recognized as the name of a cmdlet, function, script file, or
# operable program. ..." (Windows PowerShell 5.1) and "rg: The term 'rg' is not recognized as a
# name of a cmdlet, function, script file, or executable program." (PowerShell 7); Ubuntu's command-not-found hook "Command
# 'nvcc' not found, but can be installed with:"; sudo's, env's, timeout's and nohup's refusals.
# Whole lines only: "ls" listing error.log, or a file named so, is none.
_SUDO_REFUSED = (
    r"sudo: \d+ incorrect password attempts?|sudo: a password is required|sudo: unknown user:? [^\n]+"
    r"|[\w.-]+ is not in the sudoers file\.[^\n]*|[\w.-]+ is not allowed to run sudo on [^\n]+"
    r"|Sorry, user [\w.-]+ (?:may not run sudo on|is not allowed to execute) [^\n]+")
"""sudo refusing to run the command: a wrong password three times, a password it may not ask for
(``sudo -n``), a user it does not know, a user the sudoers file does not allow (sudo-project/sudo
plugins/sudoers/logging.c, ``log_auth_failure`` and ``log_denial``, and its ``unknown user %s``;
its warnings are prefixed ``sudo: ``). Nothing ran, and no status is in a terminal log to say so."""
_SHELL_REFUSED = re.compile(
    r"-?(?:/(?:usr/)?bin/)?(?:ba|da|k|mk|z)?sh: (?:line \d+: |\d+: )?(?:[^\n:]+: ){1,2}"
    r"(?:command not found|not found|No such file or directory|Permission denied|can't cd to [^\n]+"
    r"|cannot execute[^\n]*|[^\n]*: bad interpreter: [^\n]+)"
    r"|(?:zsh: |cd: )(?:command not found|no such file or directory|permission denied|exec format error"
    r"|not a directory): [^\n]+"
    r"|fish: Unknown command:? [^\n]+|Command '[^'\n]+' not found(?:,[^\n]*)?"
    r"|sudo: [^\n:]+: command not found"
    r"|[^\n:' ]+ ?: The term '[^'\n]+' is not recognized as (?:the|a) name of a cmdlet, function, script file,"
    r" or (?:operable|executable) program\.[^\n]*"
    r"|'[^'\n]+' is not recognized as an internal or external command,?"
    r"|(?:/usr/bin/)?(?:env|timeout|nohup|nice|stdbuf|xargs): (?:failed to run command )?'[^'\n]+'"
    r"(?:: No such file or directory|: Permission denied)"
    r"|" + _SUDO_REFUSED)


_REFUSED_NAME = re.compile(
    r"-?\S*sh: (?:line \d+: |\d+: )?(?P<a>[^\n:]+): (?:command )?not found"
    r"|zsh: command not found: (?P<b>\S+)|fish: Unknown command:? (?P<c>\S+)|Command '(?P<d>[^'\n]+)' not found.*")


def refused_program(message: str) -> str | None:
    """The program a shell's "command not found" (:data:`_SHELL_REFUSED`) names: bash's
    "bash: nvidia-smi: command not found", dash's "sh: 1: x: not found", zsh's "zsh: command not
    found: x", fish's "fish: Unknown command: x" (fish 3.6.0), Ubuntu's "Command 'x' not found,
    ..."; None for any other message."""
    m = _REFUSED_NAME.fullmatch(message) if "not found" in message or "Unknown" in message else None
    if m is None:
        return None
    name = next(g for g in m.groups() if g is not None)
    return name.strip("'`").rsplit("/", 1)[-1]


_CMD_REFUSED = "' is not recognized as an internal or external command"
"""Windows cmd.exe's refusal of a program it cannot find, on the line before "operable program or
batch file." (no status is recorded beside it: seen in a real OpenAI-style messages log of an agent
run on Windows, rocketvish/bearing-research transcript.jsonl at 0513886c, ``ls src -la`` answered
"'ls' is not recognized as an internal or external command,")."""


def _shell_refused(line: str) -> str | None:
    """``line`` (one output line, stripped) when it is a shell's refusal (:data:`_SHELL_REFUSED`)."""
    return line if (": " in line or "Command '" in line or "sudo" in line or _CMD_REFUSED in line) \
        and _SHELL_REFUSED.fullmatch(line) else None


# What a program that failed says on the line it writes under its own name ("cat: /tmp/x: No
# such file or directory", "ls: cannot access ...", "mkdir: cannot create directory ...: File
# exists", "make: *** No rule to make target 'all'.  Stop.", coreutils' error(3) format
# "prog: message"); a notice under the name ("tail: x: file truncated") is none.
_PROGRAM_FAILED = re.compile(r"No such file or directory|[Cc]annot |can't |Permission denied|not found|Is a directory"
                             r"|Not a directory|File exists|[Ee]rror|[Ff]ailed|[Ii]nvalid|unrecognized option"
                             r"|invalid option|missing operand|No rule to make target|Stop\.|[Dd]enied|[Rr]efused")
# The lines some programs write their failure on without their name: git's die() "fatal: ..."
# and error() "error: ..." (git usage.c), pip's logger "ERROR: ..." (pip/_internal/utils/logging.py).
# pip's note after an install that went through (exit 0), under the same "ERROR: " lead
# (pip/_internal/commands/install.py, _warn_about_conflicts).
_PIP_RESOLVER_NOTE = "ERROR: pip's dependency resolver does not currently take into account"
# pip's last line when it gave up, the exception its command ended on logged at CRITICAL under
# the "ERROR: " lead (pip 26.3 pip/_internal/utils/logging.py get_message_start; cli/base_command.py
# logs the InstallationError or DistributionNotFound and returns ERROR): no distribution for the
# requirement (index/package_finder.py, resolution/resolvelib/factory.py "No matching distribution
# found for", "Could not find a version that satisfies the requirement"), no way to satisfy the
# pins ("ResolutionImpossible: for help visit ..."), a wheel that did not build (pip 23's "Could
# not build wheels for X, which is required to install pyproject.toml-based projects",
# commands/install.py), an OSError mid-install ("Could not install packages due to an OSError"),
# a bad requirement or requirements file (req/constructors.py, req/req_file.py). Nothing was
# installed, whatever status the command ended with: `pip install x | tail -1` has tail's 0.
# pip 24.1 to 25.1 end a wheel that did not build with "ERROR: Failed to build installable wheels
# for some pyproject.toml based projects (X)" (24.1 to 24.3 under a second "ERROR: ", their message
# carrying one: pip 24.2 commands/install.py raises InstallationError("ERROR: Failed to build ...")),
# pip 25.2 on with the box below (_PIP_BOX_ARROW).
_PIP_GAVE_UP = ("ERROR: No matching distribution found for ", "ERROR: Could not find a version that satisfies the ",
                "ERROR: ResolutionImpossible: ", "ERROR: Could not build wheels for ",
                "ERROR: Failed to build installable wheels for ", "ERROR: ERROR: Failed to build installable wheels for ",
                "ERROR: Could not install packages due to an ", "ERROR: Invalid requirement: ",
                "ERROR: Could not open requirements file: ", "ERROR: You must give at least one requirement to ")
_PIP_TAIL = 1000  # characters at an output's end that hold its last line, pip's longest included
# (a find from max(0, len - _PIP_TAIL): a negative start counts from the end, as a slice's does)
# pip's diagnostic errors (pip 26.3 pip/_internal/exceptions/_base.py, DiagnosticPipError.
# __rich_console__): "error: <reference>", a blank line, then the message behind "× " (its further
# lines behind "│ "), the context behind "╰─> " (further lines indented 4), and "note: ", "hint: "
# (further lines indented 6) and "Link: " lines. pip logs one and exits with ERROR where its command
# ends on one (cli/base_command.py); since pip 25.2 a wheel that did not build ends the install
# with one (commands/install.py raises InstallWheelBuildError: "error: failed-wheel-build-for-
# install", "× Failed to build installable wheels for some pyproject.toml based projects", "╰─>
# flash-attn"), whose last line names the package, a `| tail -N` of it no "ERROR: " line. Where it
# is nested in a build's log its lines carry the build's indent. The arrow's first character is
# outside Latin-1: a find of it in an ASCII or Latin-1 text returns at once, with no scan.
_PIP_BOX_ARROW = "\u2570\u2500> "
_PIP_BOX_MARK = "\u00d7 "
_PIP_BOX_BAR = "\u2502"
_PIP_BOX_AFTER = ("note: ", "hint: ", "Link: ")
# systemctl's: a unit that did not start, stop or restart, "Job for sglang.service failed because the
# control process exited with error code." (also "... canceled.", "... timed out."; systemd
# src/shared/bus-wait-for-jobs.c), and a request refused, "Failed to restart sglang.service: Unit
# sglang.service not found." (src/systemctl/systemctl-start-unit.c); `service` hands over to it.
# Windows' find.exe, which a `find` typed into cmd.exe (or a tool that runs commands through it)
# reaches before any POSIX find: a string search that takes the POSIX words for file names and
# answers "Access denied - SRC" (the folder), "File not found - -NAME" (each word after), or "FIND:
# Parameter format not correct" / "FIND: Invalid switch" (MSG_FIND_INVALID_FORMAT and
# MSG_FIND_INVALID_SWITCH of the Windows message table, quoted in public copies of it), and finds
# nothing. Seen as the whole answer to `find src -name "*.test.js"` in an agent's messages log
# that records no status (rocketvish/bearing-research transcript.jsonl at 0513886c); GNU find
# writes none of these lines.
_FIND_EXE_LEADS = ("Access denied - ", "File not found - ", "FIND: ")
_OWN_LEADS = {"git": ("fatal: ", "error: "), "pip": ("ERROR: ",), "pip3": ("ERROR: ",), "uv": ("error: ",),
              "cargo": ("error: ",), "systemctl": ("Job for ", "Failed to "), "service": ("Job for ", "Failed to "),
              "find": _FIND_EXE_LEADS, "find.exe": _FIND_EXE_LEADS}


def program_said_failure(output: str, program: str, last: str = "") -> ErrorInfo | None:
    """The failure ``program`` (the one program a command ran, :func:`shell.sole_program`) wrote
    on the first or last line of its ``output``, where no exit status was recorded; else None.
    With several programs, the failure ``last`` (the last of the list, :func:`shell.last_program`,
    whose status is the command's) wrote on the output's last line: the script of ``ssh gpu01
    <<EOF`` whose last line's ``ls`` found no file."""
    last_line_only = not program and bool(last)
    if last_line_only:
        program = last
    if not program or (program == "find" and only_unreadable_folders(output)):
        # (find's "Permission denied" for folders it may not read: what it found is the answer)
        return None
    named, own = program + ": ", _OWN_LEADS.get(program, ())
    output = without_colours(output)
    lines = (_last_meaningful_line(output),) if last_line_only \
        else (_first_meaningful_line(output), _last_meaningful_line(output))
    for line in lines:
        if (line.startswith(named) and _PROGRAM_FAILED.search(line, len(named))) \
                or (own and line.startswith(own) and not line.startswith(_PIP_RESOLVER_NOTE)):
            return ErrorInfo("tool_error", None, line)
    return None


# What the tool that reaches a container writes when it could not run the command there (the
# container is gone or stopped, the pod not found, the daemon or API server out of reach), on a
# line of its own that names no program. Docker's client: "Error response from daemon: ..."
# (moby client/request.go), "Error: No such container: X" (moby client/errors.go,
# objectNotFoundError), "Cannot connect to the Docker daemon at ... Is the docker daemon running?"
# (ErrorConnectionFailed), "permission denied while trying to connect to the Docker daemon
# socket ...", runc's "OCI runtime exec failed: ..."; podman's "Error: no container with name or
# ID ...". kubectl's fatal() (kubernetes/kubectl pkg/cmd/util/helpers.go checkErr,
# StandardErrorMessage): "Error from server (NotFound): ...", "The connection to the server ...
# was refused ...", "Unable to connect to the server: ...", "Error in configuration: ", and its
# exec's "error: unable to upgrade connection: ...", "error: cannot exec into a container in a
# completed pod ..." (oc is kubectl's). Only these leads: a bare "Error: "/"error: " may be the
# last line of a log the command printed (`kubectl exec pod -- cat server.log`), no refusal.
_CONTAINER_REFUSALS = {
    "docker": ("Error response from daemon: ", "Error: No such container: ", "Error: No such object: ",
               "Error: no container with name or ID ", "Error: can only create exec sessions on running containers",
               "Cannot connect to the Docker daemon", "permission denied while trying to connect to the Docker daemon",
               "OCI runtime exec failed: "),
    "pod": ("error: unable to upgrade connection", "error: cannot exec into ", "error: Internal error occurred: ",
            "error: You must be logged in to the server", "Error from server", "The connection to the server ",
            "Unable to connect to the server: ", "Error in configuration: "),
}


def container_refused(output: str, container: str) -> ErrorInfo | None:
    """The failure the tool that reaches ``container`` (``docker:<name>``, ``pod:<name>``, as
    :func:`shell.parse_target` names it) wrote on the first or last line of ``output`` when it
    could not run the command there, where no exit status was recorded; else None. The command
    inside never ran, so its own name (what :func:`program_said_failure` looks for) is not on it:
    read as a success, ``kubectl exec pod -- nvidia-smi`` that found no pod had gone well."""
    leads = _CONTAINER_REFUSALS.get(container.split(":", 1)[0])
    if leads is None or not output:
        return None
    output = without_colours(output)
    for line in (_first_meaningful_line(output), _last_meaningful_line(output)):
        if line.startswith(leads) or (line.startswith("docker: ") and line[8:].startswith(leads)):
            return ErrorInfo("tool_error", None, line)
    return None


_NAMED_LINE = re.compile(r"(?P<name>(?:[./~]|[a-z_])[\w./+-]*): (?:line \d+: )?")
"""A line written under a program's name (``cp: cannot stat ...``), or under a script's with the
line bash was running (``./deploy.sh: line 4: nvcc: command not found``, bash execute_cmd.c).
A command's name is lower case or a path: "Summary: 0 errors" is a report's line."""
_NOT_A_PROGRAM = frozenset({"warning", "note", "hint", "info", "debug", "notice"})
"""Leads of a notice, not a program's name (gcc's and git's "warning: ", "note: ", "hint: ")."""


def last_line_failure(output: str) -> tuple[str, str] | None:
    """``(name, line)`` when the last line of ``output`` is a failure a program wrote under its
    own ``name`` (:data:`_PROGRAM_FAILED`); else None."""
    line = _last_meaningful_line(without_colours(output))
    m = _NAMED_LINE.match(line) if ": " in line else None
    if m is None or m.group("name") in _NOT_A_PROGRAM or not _PROGRAM_FAILED.search(line, m.end()):
        return None
    return m.group("name").rsplit("/", 1)[-1], line


def _python_refused(m: re.Match) -> ErrorInfo:
    if m.group("type"):
        return ErrorInfo("exception", m.group("type"), m.group("msg").strip()[:300])
    if m.group("nomod"):
        return ErrorInfo("exception", "ModuleNotFoundError", m.group("nomod").strip()[:300])
    return ErrorInfo("exception", "FileNotFoundError", m.group("noopen").strip()[:300])


def _gpu_unreachable(output: str) -> ErrorInfo | None:
    """The first of nvidia-smi's lines that says no GPU can be reached: a lost GPU's "Unable to
    determine the device handle for GPU 0000:17:00.0: Unknown Error" says which and why, the
    "No devices were found" after it only that none was left."""
    found = [pos for phrase in _GPU_UNREACHABLE if (pos := output.find(phrase)) >= 0]
    return ErrorInfo("cuda_error", None, _line_at(output, min(found))) if found else None


def _codex_aborted(output: str) -> bool:
    if output.startswith(_CODEX_ABORTED):
        return True
    return output.startswith("Wall time: ") and "\n" + _CODEX_ABORTED in output[:60]


_CAUSE_RANK = {"cuda_oom": 0, "cuda_error": 1, "nccl": 2}
"""A GPU fault is the cause of the NCCL failure and of the generic tracebacks around it."""


def _with_stated_cause(errors: list[ErrorInfo], output: str, failed: bool) -> list[ErrorInfo]:
    """The tracebacks of one output, the cause first. When none of them is a GPU fault, the
    fault may still be stated elsewhere in the output:
    - every traceback cut before its exception line (a log tail, interleaved ranks, an
      excerpt), as vLLM's worker logs the OutOfMemoryError above the traceback that follows
      it (noonghunna/club-3090#138), or a CUDA kernel's failed assertion before SGLang's
      traceback (sgl-project/sglang#7139);
    - an NCCL error or a bare "see the root cause above" whose cause is on the lines after its
      exception line or in a log line: a DistBackendError's "Last error:\nCuda failure 'out
      of memory'" (sgl-project/sglang#1116), vLLM's EngineDeadError "See stack trace (above)
      for the root cause" (noonghunna/club-3090#58).
    With several tracebacks (one per rank or process), the GPU fault goes first: the other
    ranks' NCCL errors and the API server's EngineDeadError only report that it happened."""
    best = min(_CAUSE_RANK.get(e.kind, 3) for e in errors)
    if "Assertion `" in output:
        errors = [_with_kernel_assert(e, output) for e in errors]
    if best > 1:
        cause = _stated_cause(output, failed)
        # A GPU fault stated beside the tracebacks is their cause; an NCCL warning is not (NCCL
        # warns about a missing net plugin or InfiniBand device in logs that end well).
        if cause is not None and (_CAUSE_RANK.get(cause.kind, 3) <= 1 or all(e.exception is None for e in errors)):
            return [cause] + errors
    if best < 3 and len(errors) > 1:
        errors.sort(key=lambda e: _CAUSE_RANK.get(e.kind, 3))  # stable: each kind keeps its order
    return errors


# torch's "CUDA error: device-side assert triggered" says a kernel assertion failed, not which:
# the device printed it above ("Indexing.cu:1422: indexSelectLargeIndex: block: [113,0,0],
# thread: [0,0,0] Assertion `srcIndex < srcSelectDimSize` failed.", an index past a table: a
# draft token id past the target's vocabulary, sgl-project/sglang#7139). The traceback's message
# takes the assertion and the kernel's file:line, so the fault reads as what it is.
_KERNEL_ASSERT_PARTS = re.compile(r"([\w.-]+\.(?:cuh?|py):\d+|(?<![\w.])unknown:\d+|<frozen [\w.]+>:\d+): (\w+)?[^\n]*?"
                                  r"Assertion `([^`\n]*)` failed")


def _with_kernel_assert(info: ErrorInfo, output: str) -> ErrorInfo:
    if info.kind != "cuda_error" or "device-side assert" not in info.message or "Assertion `" in info.message \
            or (m := _KERNEL_ASSERT.search(output)) is None:
        return info
    if (parts := _KERNEL_ASSERT_PARTS.search(_line_at(output, m.start()))) is None:
        return info
    where, kernel = parts.group(1), parts.group(2)
    if kernel == "unknown":
        kernel = None  # (Triton's name for a kernel it has no function name of)
    said = f"Assertion `{parts.group(3)}` failed" + (
        "" if where.startswith("unknown:") else f" ({where}{' ' + kernel if kernel else ''})")
    return ErrorInfo(info.kind, info.exception, f"{info.message} | {said}"[:300], info.file, info.line)


def _says_cuda_error(output: str) -> bool:
    """A literal of every _CUDA_ERROR spelling is in ``output``: plain ``in`` tests, as a
    regex alternation without a common literal scans a 12 KB log 6x slower."""
    return "CUDA error" in output or "CUDA Error" in output or "Error [CUDA]" in output \
        or "CUDA driver error" in output or "CUDA Driver Error" in output or "HIP error" in output


def _error_body(output: str) -> bool:
    """The start of an error body is in ``output`` (literal tests: the full pattern, searched
    over a JSON document with an "error" key, cost 4x the rest of the scan)."""
    return '"object":"error"' in output or '"object": "error"' in output or '{"error":{' in output \
        or '{"error": {' in output


def _http_error(m: re.Match) -> ErrorInfo:
    """The server's refusal of a request: its error type, and its message with the status."""
    try:
        message = json.loads(f'"{m.group("msg")}"')
    except ValueError:
        message = m.group("msg")
    code = f" (HTTP {m.group('code')})" if m.group("code") else ""
    return ErrorInfo("http_error", m.group("type") or None, f"{message[:300]}{code}")


def _stated_cause(output: str, failed: bool) -> ErrorInfo | None:
    """The GPU, NCCL or process failure an output states in so many words, wherever it is."""
    # Every _CUDA_OOM spelling has a "C" (CUDA), an "O" (OutOfMemoryError) or an "F" (Free memory).
    # (Each letter's memchr, a full pass where it is absent, is done once for the gates using it.)
    capital_c = "C" in output
    if (capital_c or "O" in output or "F" in output) and _HAS_MEMORY(output) and (m := _reported(_CUDA_OOM, output, failed)):
        exception = _exception_near(output, m.start())
        return ErrorInfo("cuda_oom", exception, _said_after(_line_at(output, m.start()), exception))
    # literal tests first: "CUDA" alone is in every nvidia-smi output and many server logs
    # ("H" before "HIP error": the 9-character search over every output cost 3x the memchr)
    if ((capital_c and "CUDA" in output) or ("H" in output and "HIP error" in output)) and \
            _says_cuda_error(output) and (m := _reported(_CUDA_ERROR, output, failed)):
        kind = "cuda_oom" if "CUBLAS_STATUS_ALLOC_FAILED" in m.group(0) else "cuda_error"
        return ErrorInfo(kind, _exception_near(output, m.start()), m.group(0).strip()[:300])
    # A CUDA kernel's device-side assertion (torch's CUDA_KERNEL_ASSERT, printed by the device:
    # "/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1500: indexSelectSmallIndex: block:
    # [32,0,0], thread: [63,0,0] Assertion `srcIndex < srcSelectDimSize` failed.",
    # sgl-project/sglang#7139): an out-of-range index, often a draft token id past the
    # target's vocabulary. A backtick (a memchr) gates it. The line starts like a grep hit
    # ("Indexing.cu:1500: "), but its "block: [..], thread: [..]" is never source text.
    if "`" in output and "Assertion `" in output and (m := _KERNEL_ASSERT.search(output)):
        return ErrorInfo("cuda_error", None, _line_at(output, m.start()))
    # Every _NCCL spelling has an "N" (NCCL) or an "E" (ncclSystemError and the like).
    if ("N" in output or "E" in output) and (_HAS_NCCL(output) or _HAS_NCCL_LOWER(output)) and \
            (m := _reported(_NCCL if failed else _NCCL_FAILED, output, failed)):
        if "calloc" in output and (oom := _NCCL_CALLOC.search(output)):
            return ErrorInfo("cuda_oom", _exception_near(output, m.start()), _line_at(output, oom.start()))
        return _nccl_error(output, m)
    # Both name what died in single quotes: one memchr spares most outputs both scans.
    single_quote = "'" in output
    if single_quote and _HAS_TERMINATE(output) and (m := _reported(_TERMINATE, output, failed)):
        return ErrorInfo("exception", m.group("type"), (m.group("msg") or "").strip()[:300])
    if single_quote and _HAS_PANIC(output) and (m := _reported(_PANIC, output, failed)):
        if m.group("file"):
            return ErrorInfo("exception", "panic", m.group("msg").strip()[:300], m.group("file"), int(m.group("line")))
        return ErrorInfo("exception", "panic", m.group("old").strip()[:300], m.group("ofile"), int(m.group("oline")))
    if "F" in output and "Fatal Python error: " in output and (m := _reported(_FAULTHANDLER, output, failed)):
        frame = _CURRENT_THREAD.search(output, m.end())
        return ErrorInfo("signal", _FAULT_SIGNALS[m.group(1)], m.group(0), frame and frame.group("file"),
                         int(frame.group("line")) if frame else None)
    # torchrun's root-cause report, its traceback cut off (see _root_cause_alone).
    capital_r = "R" in output
    if capital_r and "Root Cause (first observed failure):" in output and \
            (root := _root_cause_alone(output)) is not None:
        return root
    # SGLang's launcher logs this when a child (scheduler, detokenizer) died, then kills the
    # whole tree (sglang python/sglang/srt/entrypoints/engine.py sigquit_handler): the server is
    # gone even when the log's tail was read with exit status 0 and the child's traceback
    # scrolled out of it.
    if capital_r and "sigquit" in output and (pos := output.find("Received sigquit from a child process")) >= 0:
        return ErrorInfo("signal", "SIGQUIT", _line_at(output, pos))
    # a capital first (a memchr): Python's and uvicorn's "[Errno 98]", torch's and NCCL's "Address
    # already in use"; then one literal search (2 us over a 4 KB server log, where the memchr is 0.1)
    if ("E" in output or "A" in output) and _HAS_IN_USE(output) and (m := _reported(_PORT_TAKEN, output, failed)):
        return ErrorInfo("connection", _exception_near(output, m.start()), _line_at(output, m.start()))
    if "X" in output and "NVRM: Xid" in output and (m := _reported(_XID, output, failed)):
        return ErrorInfo("gpu_xid", f"Xid {m.group('xid')}", _line_at(output, m.start()))
    # Literal tests before the regex, each after a letter it holds (memchrs): every _HOST_OOM
    # spelling has "Killed process" or "OOM" ("oom-kill" follows systemd's "OOM killer" line)
    if (("K" in output and "Killed process" in output) or ("O" in output and "OOM" in output)) \
            and (m := _reported(_HOST_OOM, output, failed)):
        return ErrorInfo("host_oom", None, _line_at(output, m.start()))
    return None


# A server that could not listen on its port, because another process holds it: often the old
# server, still up and serving the old flags, so what was measured next was not the relaunch.
# uvicorn (SGLang's and vLLM's HTTP server) logs "ERROR:    [Errno 98] error while attempting to
# bind on address ('0.0.0.0', 30000): address already in use" and exits (encode/uvicorn
# uvicorn/server.py, startup); Python's "OSError: [Errno 98] Address already in use"; torch
# distributed's store "(errno: 98 - Address already in use)".
_PORT_TAKEN = re.compile(r"[Aa]ddress already in use")
_HAS_IN_USE = re.compile("ddress already in use").search


def port_taken(err: ErrorInfo) -> bool:
    """The error is a server's failure to bind its port (above): a line of that server's log,
    whoever prints it; no reader of the log (tail, grep) binds a port itself."""
    return err.kind == "connection" and "lready in use" in err.message


# The NVIDIA driver's report of a GPU fault in the kernel log (dmesg, journalctl -k): "NVRM: Xid
# (PCI:0000:3b:00): 79, pid=1234, name=python3, GPU has fallen off the bus." (older drivers print
# the bus id without "PCI:"). The number says what: 79 the GPU left the bus, 48/94/95 ECC errors,
# 31 a page fault (often the application's illegal address), 74 NVLink, 119/120 the GSP stopped
# answering (NVIDIA's "XID Errors" catalog, docs.nvidia.com/deploy/xid-errors). The process on it
# died with a CUDA error or hung; the Xid is why.
_XID = re.compile(r"NVRM: Xid \((?:PCI:)?[0-9A-Fa-f:.]+\): (?P<xid>\d+)\b")


# The host, not the GPU, ran out of memory and its OOM killer ended a process: a server that
# loads the target's weights through CPU memory, a hidden-state dump kept in RAM, dataloader
# workers. The kernel logs "Out of memory: Killed process 4321 (python3) total-vm:..." or "Memory
# cgroup out of memory: Killed process ..." (torvalds/linux mm/oom_kill.c, __oom_kill_process),
# systemd "sglang.service: A process of this unit has been killed by the OOM killer." and "Failed
# with result 'oom-kill'" (systemd src/core/unit.c, service.c), Kubernetes a container's reason
# "OOMKilled" (kubectl describe pod, get pods); docker inspect's "OOMKilled": false is none. The
# process died of SIGKILL with no word of its own: the fix is host memory, not a smaller batch on
# the GPU (cuda_oom).
# torch's CPU allocator failing is the host's memory too, with no kill: "RuntimeError: [enforce
# fail at alloc_cpu.cpp:117] data. DefaultCPUAllocator: not enough memory: you tried to allocate
# 68719476736 bytes." (malloc), "... DefaultCPUAllocator: can't allocate memory: you tried to
# allocate N bytes. Error code 12 (Cannot allocate memory)" (posix_memalign; pytorch/pytorch
# c10/core/impl/alloc_cpu.cpp): a hidden-state dump or a checkpoint conversion held in RAM.
# The system's ENOMEM said as Python says it, "OSError: [Errno 12] Cannot allocate memory" (fork of
# a dataloader worker or a subprocess from a process holding the weights in RAM), or as torch's
# file mapping does, "RuntimeError: unable to mmap 4294967296 bytes from file </data/x.safetensors>:
# Cannot allocate memory (12)" (aten/src/ATen/MapAllocator.cpp) is the host's memory too. (Not
# llama.cpp's "failed to mlock ...: Cannot allocate memory", a warning it goes on from.)
_CPU_ALLOC_FAILED = "DefaultCPUAllocator: "
_ENOMEM = "Cannot allocate memory"


def _host_memory(text: str) -> bool:
    return _CPU_ALLOC_FAILED in text or (_ENOMEM in text and ("[Errno 12] " + _ENOMEM in text or "unable to mmap " in text))

_HOST_OOM = re.compile(r"(?:Out of memory|Memory cgroup out of memory): Killed process \d+"
                       r"|killed by the OOM killer|Failed with result 'oom-kill'"
                       r'|\bOOMKilled\b(?!"?\s*:\s*false)')


# c10 writes where a C++ exception was raised under it: "Exception raised from checkTimeout at
# /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:635 (most recent call first):"
# (pytorch/pytorch c10/util/Exception.cpp, Error::compute_what), then the frames.
_CPP_RAISED = re.compile(r"Exception raised from \S+ at (?P<file>[^\s:]+):(?P<line>\d+)")
_NCCL_ABORT_WINDOW = 6000  # the watchdog's lines, its "Exception raised from" frames and the abort


def _nccl_error(output: str, m: re.Match) -> ErrorInfo:
    """An NCCL failure stated outside a Python traceback. The watchdog that finds a hung
    collective aborts the process: libstdc++ names what it threw ("terminate called after
    throwing an instance of 'c10::DistBackendError'"; 'std::runtime_error' before torch 2.2), its
    what() and c10 where it was raised, so the error has that type, message and place (the type
    and place were None, the message the watchdog's log line behind its glog prefix)."""
    exception = _exception_near(output, m.start())
    message = _line_at(output, m.start())
    file = line = None
    window_end = m.start() + _NCCL_ABORT_WINDOW
    if exception is None and (abort := _TERMINATE.search(output, m.start(), window_end)) is not None:
        exception = abort.group("type")
        message = (abort.group("msg") or "").strip()[:300] or message
        if (raised := _CPP_RAISED.search(output, m.start(), window_end)) is not None:
            file, line = raised.group("file"), int(raised.group("line"))
    return ErrorInfo("nccl", exception, _with_last_error(message, output, m.end()), file, line)


# A grep hit in a source file or a doc: "path.py:1203:        except torch.cuda.OutOfMemoryError:"
# (grep -n/-rn, rg -n; "path-N-" for a context line). Its words are code or prose about an
# error, not one that happened.
_SOURCE_HIT = re.compile(r"[^\s:]+\.(?:py|pyi|pyx|cu|cuh|cc|cpp|cxx|c|h|hpp|rs|go|md|rst)([:-])\d+\1")
# A source listing's line (`sed -n 590,620p eagle_worker.py`, `cat`) that names an error in a
# comment ("        # torch.OutOfMemoryError: CUDA out of memory. is handled by the scheduler")
# or in the string a raise or a log call is given ('raise RuntimeError("CUDA error: ...")',
# 'logger.error(f"CUDA error: an illegal memory access ... {e}")'): code about an error, not one
# that happened. A logged exception's repr ("EngineCore failed: RuntimeError('CUDA error: ...')")
# has neither a raise nor a call before its quote.
_CODE_LINE = re.compile(r"[ \t]*(?:(?:#|//)[ \t]|(?:raise[ \t]+[\w.]+|[\w.]*(?:log(?:ger)?|logging|print|warnings)"
                        r"(?:\.\w+)?)\((?:[rbfuRBFU]{1,2})?[\"'])")


def _reported(pattern: re.Pattern, output: str, failed: bool) -> re.Match | None:
    """The first match of ``pattern`` that reports an error. After a clean exit, a match on a
    line grep found in a source file or a doc (an agent searching the engine's code for the
    message) is skipped; after a failure every match counts."""
    m = pattern.search(output)
    if failed:
        return _past_code_line(pattern, output, m)
    for _ in range(20):
        if m is None:
            return m
        line_start = output.rfind("\n", 0, m.start()) + 1
        if not _SOURCE_HIT.match(output, line_start) and not _SEARCH_COMMAND.match(output, line_start) \
                and not _CODE_LINE.match(output, line_start) and not _traced(output, line_start):
            return m
        nl = output.find("\n", m.end())
        if nl < 0:
            return None
        m = pattern.search(output, nl + 1)
    return None


def _past_code_line(pattern: re.Pattern, output: str, m: re.Match | None) -> re.Match | None:
    """After a failure, the first match not on a line of code ('raise RuntimeError("CUDA out of
    memory ...")', the source line a traceback cut to its last lines by ``tail -n 2`` shows above
    the exception line); the first match where every one is on code. A match on a `set -x` trace
    line (:func:`_traced`) never counts: it is the command, not what happened."""
    first = None
    for _ in range(20):
        if m is None:
            return first
        line_start = output.rfind("\n", 0, m.start()) + 1
        if not _traced(output, line_start):
            if not _CODE_LINE.match(output, line_start):
                return m
            first = first or m
        nl = output.find("\n", m.end())
        if nl < 0:
            return first
        m = pattern.search(output, nl + 1)
    return first


def _pytest_failure(output: str, failed: re.Match) -> ErrorInfo:
    """The first failed test: its node id and message from the summary line, the type and
    innermost location from the long report above it (absent under ``--tb=no``)."""
    if failed.group("what") == "ERROR":
        return _pytest_error(output, failed)
    loc = _PYTEST_LOCATION.search(output, 0, failed.start())
    message = failed.group("node") + (f": {failed.group('msg').strip()}" if failed.group("msg") else "")
    if loc is None:
        return ErrorInfo("test_failure", None, message[:300])
    if message.endswith("...") and (whole := _pytest_whole_message(output, loc.start(), failed.group("msg"))):
        message = f"{failed.group('node')}: {whole}"
    if message.endswith(_NOT_CLOSE):
        message = _pytest_mismatch(output, loc.start(), message)
    elif message.endswith("AssertionError:") and (said := _pytest_numpy_mismatch(output, loc.start())):
        message = f"{message} {said}"
    return ErrorInfo("test_failure", loc.group("type"), message[:300], loc.group("file"), int(loc.group("line")))


def _pytest_whole_message(output: str, at: int, cut: str) -> str | None:
    """The summary's message that pytest cut at the terminal's width ("AssertionError:
    Tensor-likes are n...", _pytest/terminal.py _get_line_with_reprcrash_message) in full: the
    report's ``E`` line of the exception, above its location at ``at``, that it begins."""
    head = cut.strip()[:-3]
    for e_line in reversed(list(_PYTEST_E_LINE.finditer(output, max(0, at - 4000), at))):
        whole = f"{e_line.group('type')}: {e_line.group('msg').strip()}"
        if whole.startswith(head):
            return whole
    return None


def _pytest_mismatch(output: str, at: int, message: str) -> str:
    """The summary's "... Tensor-likes are not close!" with the mismatch's lines from the ``E``
    lines of the report that ends at ``at`` (see _with_mismatch): pytest's summary line keeps
    only the assertion's first line."""
    said = []
    for line in output[max(0, at - 2000):at].splitlines()[-12:]:
        if line.startswith("E ") and (line := line[2:].strip()).startswith(_MISMATCH_LINES):
            said.append(line.rstrip("."))
    return f"{message} {'; '.join(said)}" if said else message


def _pytest_numpy_mismatch(output: str, at: int) -> str | None:
    """What numpy.testing's assertion said on the ``E`` lines of the report that ends at ``at``
    (see _numpy_mismatch): its message opens with a line break, so pytest's summary line ends on
    "AssertionError:" and says nothing of what differed."""
    said: list[str] = []
    for line in output[max(0, at - 3000):at].splitlines()[-40:]:
        if not line.startswith("E ") and line.strip() not in ("", "E"):
            said = []  # (an earlier report's lines, or the source above this one's E lines)
            continue
        line = line[2:].strip()
        if not said:
            if line.startswith(_NUMPY_HEADS):
                said.append(line)
        elif line.startswith(_NUMPY_DETAIL):
            said.append(line)
    return "; ".join(said) or None


def _pytest_error(output: str, failed: re.Match) -> ErrorInfo:
    """A collection (or fixture) error: the exception of its ``E`` line, the last traceback
    entry before it."""
    e_line = _PYTEST_E_LINE.search(output, 0, failed.start())
    message = failed.group("node")
    if e_line is None:
        return ErrorInfo("test_failure", None, (message + (f": {failed.group('msg')}" if failed.group("msg") else ""))[:300])
    file = line = None
    for file, line in _PYTEST_ENTRY.findall(output, 0, e_line.start())[-1:]:
        line = int(line)
    return ErrorInfo("test_failure", e_line.group("type"), f"{message}: {e_line.group('msg').strip()}"[:300], file, line)


def split_tracebacks(output: str) -> tuple[str, str]:
    """``output``'s Python tracebacks (header to exception line, as :func:`parse_tracebacks`
    reads them), and the rest of it: what a program that prints none wrote beside another's."""
    spans: list[tuple[int, int]] = []
    start = output.find("Traceback (most recent call last)")
    while start >= 0 and len(spans) < 50:
        if _heads_a_traceback(output, start):
            end = _one_traceback(output, start)[1]
            spans.append((start, end))
            nl = output.find("\n", end)
            start = output.find("Traceback (most recent call last)", max(end, start + 33) if nl < 0 else nl + 1)
        else:
            start = output.find("Traceback (most recent call last)", start + 33)
    if not spans:
        return "", output
    cut = [0, *(i for span in spans for i in span), len(output)]
    rest = "".join(output[cut[k]:cut[k + 1]] for k in range(0, len(cut), 2))
    return "\n".join(output[a:b] for a, b in spans), rest


def parse_tracebacks(output: str) -> list[ErrorInfo]:
    """Each traceback's exception, message and innermost frame; for a chain
    (``During handling ...``) only the exception that propagated."""
    found: list[tuple[ErrorInfo, int, int]] = []
    start = output.find("Traceback (most recent call last)")
    while start >= 0 and len(found) < 50:
        if not _heads_a_traceback(output, start):
            start = output.find("Traceback (most recent call last)", start + 33)
            continue
        info, end = _one_traceback(output, start)
        found.append((info, start, end))
        # from the line after this header: an interleaved rank's traceback may begin before
        # this one ends (a traceback in a JSON string is one line: it resumes past its end)
        nl = output.find("\n", start)
        start = output.find("Traceback (most recent call last)", end if nl < 0 else min(end, nl + 1))
    kept = []
    chain: list[ErrorInfo] = []
    chain_ends: list[int] = []  # where each link's exception line ends
    wrapped = False  # the last link of the chain is "raise ... from" (not "During handling")
    for i, (info, start, end) in enumerate(found):
        if info.file is not None and "pydantic" in info.file and _VALIDATOR_FRAME.search(info.file):
            info.file, info.line = _caller_of_validator(output, start, end, info.file, info.line)
        elif info.file is not None and ("triton" in info.file or "testing" in info.file) \
                and _RAISED_FOR_CALLER.search(info.file):
            info.file, info.line = _caller_of_validator(output, start, end, info.file, info.line, _RAISED_FOR_CALLER)
        if not info.message and info.exception and info.exception.endswith("ChildFailedError"):
            info = _child_failed(info, output, end)
        elif info.message[:3] == "at " and _TRITON_AT.match(info.message):
            info.message = _with_triton_reason(info, output, end)
        # The chain's message sits between this exception and the next traceback, behind the
        # log prefix when a logger prefixes every line (vLLM, docker compose).
        # A cause's message may run on for many lines (a state_dict's "size mismatch for ..."
        # per layer): Python prints the chain's line right above the next traceback, so it is
        # looked for there (was: a cause with a message over 600 characters left out of the
        # chain, the wrapper's "Failed to load the drafter" reported as a failure of its own).
        between = output[end:found[i + 1][1]] if i + 1 < len(found) else ""
        if not chain and len(between) < 200 and "+-+" in between and (info.exception or "").endswith("ExceptionGroup") \
                and "sub-exception" in info.message:
            # Python 3.11's group ("ExceptionGroup: unhandled errors in a TaskGroup (1
            # sub-exception)", anyio's and asyncio's TaskGroup under starlette, uvicorn, vLLM's
            # and SGLang's servers): the first sub-exception's traceback right after it, in a
            # "+-+---- 1 ----" box, and the others' are the failures; the group says only that
            # they happened (was: the group reported too, first, at anyio's __aexit__)
            continue
        if any(c in between[-600:] for c in _CHAINED):
            chain.append(info)
            chain_ends.append(end)
            wrapped = _CHAINED[1] in between
            continue
        error = _chain_error(chain, _classify(info), wrapped) if chain else _classify(info)
        # the lines after the exception that reports the chain are its own: a cause's ("Last
        # error:" under an NCCL error a handler's SystemExit followed) are under the cause, not
        # under the chain's last traceback (was: a cause reported without them)
        at = end if error is info else next((e for link, e in zip(chain, chain_ends) if link is error), None)
        chain, chain_ends = [], []
        if at is not None:
            _with_detail(error, output, at)
        # The same exception at the same frame again is one failure printed twice: vLLM's
        # EngineCore logs its traceback ("ERROR ... [core.py] EngineCore failed to start.")
        # and multiprocessing then prints it raw ("Process EngineCore_0:"); every rank of a
        # torchrun job prints its own copy.
        if error not in kept:
            kept.append(error)
    return kept


def _with_detail(error: ErrorInfo, output: str, at: int) -> None:
    """``error``'s message with what its exception printed on the lines after its own, which
    end at ``at``: NCCL's "Last error:", a ValidationError's fields, the line a message ending in
    ":" introduces, the reason a weights-only load failed."""
    if error.kind == "nccl":
        error.message = _with_last_error(error.message, output, at)
    elif error.message[:1].isdigit() and (error.exception or "").endswith("ValidationError"):
        error.message = _with_validation_detail(error, output, at)
    elif error.message.endswith(":") and error.exception:
        error.message = _with_next_line(error, output, at)
    elif error.message.startswith(_WO_FAILED) and (error.exception or "").endswith("UnpicklingError"):
        error.message = _with_weights_only_reason(error, output, at)
    elif error.message.endswith(_NOT_CLOSE) and error.exception == "AssertionError":
        error.message = _with_mismatch(error, output, at)
    elif not error.message and error.exception == "AssertionError":
        error.message = _numpy_mismatch(error, output, at)


# pydantic raises its ValidationError from its own frame, the validator's call: "pydantic/main.py",
# line 250, in __init__ ("self.__pydantic_validator__.validate_python(data, self_instance=self)"),
# pydantic/_internal/_dataclasses.py's __init__ for a pydantic dataclass (vLLM's SpeculativeConfig
# since vllm-project/vllm#27156), main.py's model_validate. That line is the same for every invalid
# input: the error's place is the frame that built the object (vLLM's arg_utils.py
# create_speculative_config, a user's script), the innermost one outside pydantic.
_VALIDATOR_FRAME = re.compile(r"[\\/]pydantic(?:_core)?[\\/]")


# Triton's launcher raises where the kernel is run, not where it was asked for: "OutOfResources: out
# of resource: shared memory, Required: 262144, Hardware limit: 232448" from
# triton/compiler/compiler.py's _init_handles (triton-lang/triton python/triton/compiler/compiler.py)
# under triton/runtime/jit.py's run; the block sizes and num_stages that do not fit are the
# caller's (a user's kernel wrapper, SGLang's triton_ops). torch.testing.assert_close raises from
# torch/testing/_comparison.py for every mismatch (numpy.testing's from numpy/testing/_private/
# utils.py): the check that failed is the caller's line.
# The place is the innermost frame outside them, as for pydantic's validator.
_RAISED_FOR_CALLER = re.compile(r"[\\/](?:triton[\\/](?:runtime|compiler|backends|language)|(?:torch|numpy)[\\/]testing)[\\/]")


def _caller_of_validator(output: str, start: int, end: int, file: str, line: int | None,
                         library: re.Pattern = _VALIDATOR_FRAME) -> tuple[str, int | None]:
    caller = None
    for frame in _FLUSH_FRAME.finditer(output, start, end):
        path = frame.group("file") or frame.group("escaped")
        if not library.search(path):
            caller = (path, int(frame.group("line")))
    return caller if caller is not None else (file, line)


# torchrun's summary when a rank dies (torch/distributed/elastic/multiprocessing/errors/__init__.py,
# ChildFailedError.format_msg): the exception line ends in ": " and the report follows it, "Root
# Cause (first observed failure):" then "[0]:" and aligned "key : value" lines, "exitcode  : -9
# (pid: 1234)" and "traceback : Signal 9 (SIGKILL) received by PID 1234" (the kernel's OOM killer,
# or the job's limit), or the hint "To enable traceback see: https://pytorch.org/..." when the
# rank wrote no error file. The ChildFailedError alone said nothing of why the rank died.
_CHILD_ROOT = re.compile(r"Root Cause \(first observed failure\):[ \t]*\r?\n\[\d+\]:[ \t]*\r?\n"
                         r"((?:[ \t]+[a-z_]+[ \t]*:[^\n]*\n?){1,8})")
_CHILD_FIELD = re.compile(r"^[ \t]+([a-z_]+)[ \t]*:[ \t]?([^\n]*)$", re.M)
_CHILD_SIGNAL = re.compile(r"Signal \d+ \((SIG[A-Z]+)\)")


def _child_failed(info: ErrorInfo, output: str, end: int) -> ErrorInfo:
    """torchrun's ChildFailedError with its root cause's rank, exit code and message; a rank a
    signal killed is that signal's error."""
    root = _CHILD_ROOT.search(output, end, end + 3000)
    if root is None:
        root = _CHILD_ROOT.search(_unprefixed_report(output, end))
        if root is None:
            return info
    fields = dict(_CHILD_FIELD.findall(root.group(1)))
    said = fields.get("traceback", "").strip()
    if said.startswith(("To enable traceback", "Traceback")):
        said = ""  # the hint, or the rank's own traceback (read on its own), no message
    where = f"rank {fields.get('rank', '?').split(' ')[0]} exitcode {fields.get('exitcode', '?').split(' ')[0]}"
    message = f"{where}: {said}" if said else where
    if (sig := _CHILD_SIGNAL.match(said)) is not None:
        return ErrorInfo("signal", sig.group(1), message[:300], info.file, info.line)
    return ErrorInfo(info.kind, info.exception, message[:300], info.file, info.line)


_CHILD_FAILED = "torch.distributed.elastic.multiprocessing.errors.ChildFailedError"


def _root_cause_alone(output: str) -> ErrorInfo | None:
    """torchrun's report without the ChildFailedError traceback above it: ``tail`` of a job's log
    shows the "Root Cause (first observed failure):" block last, and exits 0. A rank died all
    the same: the report is the failure, read as :func:`_child_failed` reads it."""
    at = output.find("Root Cause (first observed failure):")
    start = output.rfind("\n", 0, at) + 1
    found = _child_failed(ErrorInfo("exception", _CHILD_FAILED, ""), output, start)
    return found if found.message else None


def _unprefixed_report(output: str, end: int) -> str:
    """torchrun's report with the log prefix every line of it carries taken off: ``kubectl logs
    --prefix``'s "[pod/train-0/trainer] ", ``docker compose logs``' "trainer-1  | ", and
    ``docker logs -t``'s RFC 3339 time (a different one on each line, :data:`_LINE_STAMP`),
    alone or behind either. "" when the report is not there."""
    at = output.find("Root Cause (first observed failure):", end, end + 6000)
    if at < 0:
        return ""
    line_start = output.rfind("\n", 0, at) + 1
    lead = output[line_start:at]
    stamp = None
    for m in _LINE_STAMP.finditer(lead):
        if m.end() == len(lead):
            stamp, lead = m, lead[:m.start()]
    lines = []
    for line in output[line_start:line_start + 3000].split("\n")[:12]:
        if not line.startswith(lead):
            break
        line = line[len(lead):]
        if stamp is not None:
            if (m := _LINE_STAMP.match(line)) is None:
                break
            line = line[m.end():]
        lines.append(line)
    return "\n".join(lines)


# NCCL's error says which call failed and how ("unhandled system error", "invalid usage"); the
# reason it found is on the line after "Last error:" below the NCCL result's name (torch's
# c10d getNcclErrorDetailStr appends ncclGetLastError()): "Duplicate GPU detected : rank 1 and
# rank 0 both on CUDA device 1000" (two ranks given one GPU), "socketStartConnect: Connect to
# 10.0.0.2<46789> failed : Software caused connection abort" (a peer unreachable), "NET/IB : Got
# completion from peer ... with status=12". Without it every NCCL failure read alike.
def _with_last_error(message: str, output: str, at: int) -> str:
    """``message`` with the "Last error:" line NCCL wrote within a few lines after ``at``, behind
    the log prefix its own line has (a vLLM worker's "(VllmWorker rank=1 pid=7) ERROR ... ")."""
    pos = output.find("Last error:", at, at + 600)
    if pos < 0:
        return message
    line_start = output.rfind("\n", 0, pos) + 1
    prefix = output[line_start:pos]
    nl = output.find("\n", pos)
    if nl < 0 or output[pos + 11:nl].strip():
        return message  # NCCL puts the reason on the next line, alone
    next_end = output.find("\n", nl + 1)
    said = output[nl + 1:next_end if next_end >= 0 else len(output)].rstrip("\r")
    if prefix and said.startswith(prefix):
        said = said[len(prefix):]
    said = said.strip()
    if not said or said in message:
        return message
    if len(message) > 180:
        message = message[:180] + "..."
    return f"{message} | Last error: {said}"[:300]


# pydantic's ValidationError says only how many fields failed on its own line ("1 validation error
# for SpeculatorModelConfig"); the field's path and what is wrong with it follow, the path flush
# left (absent for a model's own validator) and the reason indented, ending in "[type=...,
# input_value=..., input_type=...]" (pydantic-core's ValidationError display). speculators'
# configs (speculators/config.py, model_validate) and vLLM's SpeculativeConfig are pydantic models:
# "speculative_tokens: Input should be a valid integer" is the fix, the count is not.
_VALIDATION_HEAD = re.compile(r"\d+ validation errors? for \S+$")
_PYDANTIC_TYPE = re.compile(r"\s*\[type=[^\]]*\]?\s*$")


def _with_validation_detail(info: ErrorInfo, output: str, end: int) -> str:
    """The ValidationError's message with its first field's path and reason."""
    if not _VALIDATION_HEAD.match(info.message):
        return info.message
    path = ""
    for line in _exception_lines(info, output, end, 2):
        if line[0] not in " \t":
            if path:
                break
            path = line.strip()  # the field's location
            continue
        reason = _PYDANTIC_TYPE.sub("", line.strip())
        detail = f"{path}: {reason}" if path else reason
        return f"{info.message} | {detail}"[:300]
    return info.message


def _exception_lines(info: ErrorInfo, output: str, end: int, count: int) -> list[str]:
    """Up to ``count`` lines after the exception's line at ``end``, each without the log prefix
    the exception's own line has; they end at a blank line."""
    lines = []
    for line in _lines_after(output, end, _exception_prefix(info, output, end)):
        if len(lines) >= count or not line.strip():
            break
        lines.append(line)
    return lines


def _exception_prefix(info: ErrorInfo, output: str, end: int) -> str:
    """The log prefix before the exception's name on its line at ``end`` (vLLM's
    "(VllmWorker rank=1 pid=7) ERROR ... [core.py:586] "); "" when the name opens the line."""
    line_start = output.rfind("\n", 0, end) + 1
    at = output.find(info.exception or "", line_start, end)
    return output[line_start:at] if at > line_start else ""


def _lines_after(output: str, end: int, prefix: str, own_only: bool = False):
    """The lines after the one that ends at ``end``, each with ``prefix`` taken off where it
    has it; with ``own_only`` they stop at the first line without it (another process's line:
    the logger prefixes every line of one message)."""
    pos = end + 1
    while pos < len(output):
        nl = output.find("\n", pos)
        stop = nl if nl >= 0 else len(output)
        line = output[pos:stop].rstrip("\r")
        pos = stop + 1
        if prefix and line.startswith(prefix):
            line = line[len(prefix):]
        elif prefix and own_only:
            return
        yield line


# A message that ends in a colon goes on on the next lines: torch's "Error(s) in loading
# state_dict for Eagle3DraftModel:" over "\tsize mismatch for embed_tokens.weight: copying a param
# with shape torch.Size([128261, 64]) from checkpoint, the shape in current model is ..." or
# "\tMissing key(s) in state_dict: "d2t"" (torch/nn/modules/module.py, load_state_dict; what a
# drafter checkpoint from another vocabulary or layout gives), dynamo's "backend='inductor'
# raised:" over the compiler's own exception. The first of them is the fault.
# Triton's CompilationError says "at 32:22:" and shows the kernel's source line next, no fault.
_TRITON_AT = re.compile(r"at \d+:\d+:$")
# The next line goes on with the message when it is indented (torch's tab), is the exception
# the message introduces ("RuntimeError: ...") or a value ("['awq', 'fp8']"). A line flush left
# of another kind is the output going on: a server's log line ("INFO 05-01 ..."), a shell's
# prompt, a progress bar, the next traceback's header - none says what failed.
# A list of numbers opens with a number and a comma or "]"; SGLang's log lines with a date
# ("[2026-11-30 12:00:01 TP0] Decode batch ...").
_CONTINUES = re.compile(r"[ \t]|[\w.]*(?:Error|Exception|Exit|Interrupt)\b|\[(?:['\"\[]|-?\d+(?:\.\d+)?\s*[,\]])")


# Triton's CompilationError shows up to 12 lines of the kernel's source under "at L:C:", a caret
# under the column, then what is wrong: the error its code generator caught, as repr(e)
# ("ValueError(\"arange's range must be a power of 2\")"; triton-lang/triton
# python/triton/compiler/errors.py _format_message, code_generator.py visit_Call). The source
# may hold blank lines; the message is the first line with words after the caret.
# With no source to show (a kernel built from a string: CompilationError.src is None) the
# excerpt is one line, " <source unavailable>" (" <source empty>" for an empty one), and the
# reason follows it as it follows the caret.
_TRITON_CARET = re.compile(r"[ \t]*(?:\^|<source unavailable>|<source empty>)[ \t]*$")
_TRITON_EXCERPT_LINES = 14  # 12 source lines, the caret, the message


def _with_triton_reason(info: ErrorInfo, output: str, end: int) -> str:
    """"at L:C:" with the reason Triton printed after the caret; the message alone when it
    printed none (the cause it was raised from, above it, says why)."""
    after_caret = False
    excerpt = _lines_after(output, end, _exception_prefix(info, output, end), own_only=True)
    for line in islice(excerpt, _TRITON_EXCERPT_LINES + 1):
        if after_caret and line.strip():
            if line.startswith(_CHAIN_OR_HEADER):
                break
            return f"{info.message} {line.strip()}"[:300]
        after_caret = after_caret or _TRITON_CARET.match(line) is not None
    return info.message


_CHAIN_OR_HEADER = ("Traceback (most recent call last)", *_CHAINED)

# torch.load's weights_only refusal (torch >= 2.6 by default) opens with the same advice whatever
# went wrong; the unpickler's reason follows on a line of its own (torch/serialization.py
# _get_wo_message, torch 2.13 as installed here): after "\tWeightsUnpickler error: " for a class
# not allowlisted ("Unsupported global: GLOBAL __main__.Cfg was not an allowed global by default.
# Please use `torch.serialization.add_safe_globals([__main__.Cfg])` ..."), or alone after blank
# lines ("Unsupported operand 149" for a pickle protocol it does not read, "Trying to load
# unsupported GLOBAL posix.getcwd whose module posix is blocked."), then the docs line. The
# reason says what to fix; the advice (re-run with weights_only=False) is the same every time.
_WO_FAILED = "Weights only load failed."
_WO_REASON = "WeightsUnpickler error: "
_WO_DOCS = "Check the documentation of torch.load"
_WO_LINES = 8  # the advice's lines, the blank ones, the reason


def _with_weights_only_reason(info: ErrorInfo, output: str, end: int) -> str:
    """"Weights only load failed: <the unpickler's reason>"; the message as it was when no reason
    follows it (the reason already on its line: "Weights only load failed. x must be y to load")."""
    after_blank = False
    for line in islice(_lines_after(output, end, _exception_prefix(info, output, end)), _WO_LINES):
        at = line.find(_WO_REASON)
        if at >= 0 and line[at + len(_WO_REASON):].strip():
            return f"Weights only load failed: {line[at + len(_WO_REASON):].strip()}"[:300]
        if not line.strip():
            after_blank = True
        elif after_blank:
            if line.startswith((_WO_DOCS, *_CHAIN_OR_HEADER)):
                break
            return f"Weights only load failed: {line.strip()}"[:300]
    return info.message


# torch.testing.assert_close's failure says only that the values differ on its own line; how
# much follows after a blank line (torch/testing/_comparison.py, _make_mismatch_msg, torch 2.13
# as installed here): "Mismatched elements: 2 / 8 (25.0%)", "Greatest absolute difference:
# 0.0123 at index (0, 2) (up to 0.001 allowed)", the relative one; for scalars "Expected 1.0 but
# got 1.5." and "Absolute difference: 0.5 (up to 1e-05 allowed)". A drafter checked against the
# reference differs by a rounding or by a wrong layer: the numbers say which.
_NOT_CLOSE = (" are not close!", " are not equal!")
_MISMATCH_LINES = ("Mismatched elements: ", "Greatest absolute difference: ", "Expected ", "Absolute difference: ")
_MISMATCH_WINDOW = 5  # the blank line, the share, the two differences (a scalar's three lines)


def _with_mismatch(info: ErrorInfo, output: str, end: int) -> str:
    """"Tensor-likes are not close!" with the mismatch's share and greatest absolute difference."""
    said = []
    for line in islice(_lines_after(output, end, _exception_prefix(info, output, end)), _MISMATCH_WINDOW):
        line = line.strip()
        if line.startswith(_MISMATCH_LINES):
            said.append(line.rstrip("."))
        elif said or line.startswith(_CHAIN_OR_HEADER):
            break
    return f"{info.message} {'; '.join(said)}"[:300] if said else info.message


# numpy.testing's assert_allclose / assert_array_equal raise AssertionError with a message that
# opens with a line break: "AssertionError: " alone, then "Not equal to tolerance rtol=0.001,
# atol=0.001" ("Arrays are not equal", "Arrays are not almost equal to 6 decimals"), a blank line,
# "Mismatched elements: 2 / 8 (25%)", the indices, "Max absolute difference among violations: 0.5"
# (numpy 2.x; "Max absolute difference: 0.5" before), then the arrays (numpy/testing/_private/
# utils.py, assert_array_compare, numpy 2 as installed here). The error's message was empty.
_NUMPY_HEADS = ("Not equal to tolerance", "Arrays are not ", "Items are not equal")
_NUMPY_DETAIL = ("Mismatched elements: ", "Max absolute difference")
_NUMPY_LINES = 12  # the head, a blank line, the share, a few indices, the differences


def _numpy_mismatch(info: ErrorInfo, output: str, end: int) -> str:
    said = []
    for line in islice(_lines_after(output, end, _exception_prefix(info, output, end)), _NUMPY_LINES):
        line = line.strip()
        if not said:
            if not line.startswith(_NUMPY_HEADS):
                return info.message
            said.append(line)
        elif line.startswith(_NUMPY_DETAIL):
            said.append(line)
        elif line.startswith(_CHAIN_OR_HEADER):
            break
    return "; ".join(said)[:300]


def _with_next_line(info: ErrorInfo, output: str, end: int) -> str:
    if _TRITON_AT.match(info.message):
        return info.message
    lines = _exception_lines(info, output, end, 1)
    if not lines or not _CONTINUES.match(lines[0]):
        return info.message
    return f"{info.message} {lines[0].strip()}"[:300]


def _heads_a_traceback(output: str, start: int) -> bool:
    """Whether the words at ``start`` are a traceback's header line: CPython prints
    "Traceback (most recent call last):" alone on its line (Lib/traceback.py), or the line ends
    in the two characters "\\n" inside a JSON string. The words inside a line of code or prose
    ('raise ValueError("Traceback (most recent call last) in a string")', a test's expected
    output, an explanation) head none: a `cat` of such a file was a truncated traceback."""
    after = start + 33  # len("Traceback (most recent call last)")
    nl = output.find("\n", after)
    rest = output[after:nl if nl >= 0 else len(output)]
    if not rest.startswith(":"):
        # rich's box ("──── Traceback (most recent call last) ────╮", Textualize/rich traceback.py)
        return bool(rest.strip()) and all("\u2500" <= c <= "\u257f" or c.isspace() for c in rest)
    return not rest[1:].strip() or rest.startswith((":\\n", ":\\r"))


# With no header to say a traceback follows, the line after the frames must name an exception
# class as Python prints one: a builtin's name (...Error, ...Exception, KeyboardInterrupt,
# SystemExit, StopIteration, ...Warning) or a module-qualified class (triton.runtime.errors.
# OutOfResources). Else frames a logger printed with stack_info=True ("Stack (most recent call
# last):" cut off) or a warning's stack were read with the next log line ("INFO: continuing",
# "Throughput: 54.8 tok/s") as their exception.
_HEADLESS_EXC = re.compile(r"(?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Interrupt|Exit|Iteration|Warning)$"
                           r"|(?:[a-z_]\w*\.)+[A-Z]\w*$")


def _headless_traceback(output: str) -> ErrorInfo | None:
    """A traceback whose header was cut off: ``tail -n 30 server.log`` of a crashed server, an
    excerpt pasted from the middle of a log (sgl-project/sglang#1498: frames from
    ``scheduler.py`` down to ``triton_backend.py``, line 72, then "torch.OutOfMemoryError: CUDA
    out of memory"). Its frames and exception line are read as a whole traceback's, and it
    counts even after a clean exit (``tail`` exits 0 on a dead server's log), as a whole one
    does; frames with no exception line after them (a logger's "Stack (most recent call
    last):", a cut in the middle) are none."""
    at = output.find('File "')
    prefixed = 3  # tries under a log prefix (each reads on to the prefix's last line: a whole log)
    for _ in range(20):
        if at < 0:
            return None
        line_start = output.rfind("\n", 0, at) + 1
        if at > line_start and not output[line_start:at].strip(" \t"):
            text = _HEADER + "\n" + output[line_start:]
            info, end = _one_traceback(text, 0)
            if info.exception is None or not _HEADLESS_EXC.match(info.exception):
                return None
            if not info.message and info.exception.endswith("ChildFailedError"):
                info = _child_failed(info, text, end)  # (torchrun's report under it, as a whole traceback's)
            _with_detail(_classify(info), text, end)  # (the lines its exception printed, as a whole one's)
            return info
        if prefixed and output.startswith("  ", at - 2) and (margin := output[line_start:at - 2]).endswith(" ") \
                and margin.rstrip()[-1:] in _MARGIN_ENDS and len(margin) <= 200:
            prefixed -= 1
            # a log prefix on every line ("[rank0]: " of torchrun's ranks, a vLLM worker's
            # "(VllmWorker rank=0 pid=7) ERROR ... [multiproc_executor.py:470] "): the header as
            # the prefixed traceback had it, so its frames and exception line are read under the
            # prefix (was: `tail -n 20` of a TP server's log read as its first line, a source line)
            text = margin + _HEADER + "\n" + output[line_start:]
            info, end = _one_traceback(text, len(margin))
            if info.exception is not None and _HEADLESS_EXC.match(info.exception):
                if not info.message and info.exception.endswith("ChildFailedError"):
                    info = _child_failed(info, text, end)
                _with_detail(_classify(info), text, end)
                return info
        at = output.find('File "', at + 6)
    return None


_MARGIN_ENDS = (":", "]", "|", ")")
"""How a log prefix before each line of a traceback ends: torchrun's ``[rank0]:``, a logger's
``[core.py:586]``, docker compose's ``sglang-1  |``, Ray's ``(WorkerDict pid=N)``."""


def _chain_error(causes: list[ErrorInfo], raised: ErrorInfo, wrapped: bool = True) -> ErrorInfo:
    """The error a chain of exceptions reports: the one that propagated, unless it only wraps
    a fault it does not name: urllib3's NewConnectionError raised while handling "OSError:
    [Errno 101] Network is unreachable" (lucaslingle/transformer_vq#2), a script's own
    RuntimeError raised from a torch.OutOfMemoryError. Then the first classified cause (its
    exception, message and innermost frame) is the error, as the fix is the cause's. A
    handler's own failure ("During handling ...") after a fault is read the same way.

    A wrapper that says less than its cause is passed over for the cause too: raised ``from``
    it (``wrapped``, "The above exception was the direct cause ...") with a message that says
    only that something failed; raised while handling it with no message or one that points
    back at it ("see the stack trace above"). A handler's own words ("could not load drafter")
    stay the error then: its author chose them over the fault's."""
    if raised.kind != "traceback":
        return raised
    for cause in causes:
        cause = _classify(cause)
        if cause.kind != "traceback":
            return cause
    if wrapped and raised.exception == causes[-1].exception and raised.message == causes[-1].message:
        # the same exception raised again from its own report: multiprocessing's Pool and
        # concurrent.futures print a worker's traceback as a RemoteTraceback and re-raise the
        # worker's exception from it in the parent, at the pool's "raise self._value"; the
        # worker's innermost frame is where it failed (CPython Lib/multiprocessing/pool.py
        # rebuild_exc, Lib/concurrent/futures/process.py _rebuild_exc: 3.11 set its __cause__)
        return _classify(causes[-1])
    if not wrapped and _is_slip(raised) and (handled := _handled_fault(causes)) is not None:
        # the handler's own slip ("AttributeError: 'NoneType' object has no attribute 'finish'"
        # while closing a tracker after "ValueError: d2t has 32000 entries ..."): Python says the
        # second occurred while handling the first, which is the fault to fix
        return _classify(handled)
    if _points_back(raised, causes) or not raised.message.strip(" .") or (wrapped and _vaguer(raised)):
        # the nearest cause that says why: "RuntimeError: Failed to load the drafter" raised
        # from "KeyError: 'd2t'" is fixed where the KeyError was
        for cause in reversed(causes):
            if cause.exception and not _vaguer(cause) and \
                    (cause.message not in raised.message or _POINTS_ELSEWHERE.search(raised.message)):
                return cause
    return raised


# Exceptions no handler raises on purpose: a bug in the handler itself (cleanup code touching what
# the fault left unset), never a report of the fault it was handling. An AttributeError only on
# None: "module 'torch' has no attribute 'float8_e4m3fn'" in a fallback import, or "'LlamaConfig'
# object has no attribute 'draft_vocab_size'" from a __getattr__ that turns its KeyError into one
# ("except KeyError: raise AttributeError(name)", as easydict and transformers' BatchEncoding do),
# is a fault of its own.
_SLIPS = frozenset({"NameError", "UnboundLocalError"})
# What a handler catches that is no fault: an interrupt, an exit, the end of an iterator. The slip
# in its handler ("except StopIteration: batch = nxt(loader)") is then the fault.
_NO_FAULT = frozenset({"KeyboardInterrupt", "SystemExit", "StopIteration", "StopAsyncIteration", "GeneratorExit",
                       "CancelledError", "asyncio.CancelledError", "asyncio.exceptions.CancelledError"})


def _is_slip(raised: ErrorInfo) -> bool:
    return raised.exception in _SLIPS or (raised.exception == "AttributeError"
                                          and raised.message.startswith("'NoneType' object has no attribute"))


def _handled_fault(causes: list[ErrorInfo]) -> ErrorInfo | None:
    """The exception the slip's handler was handling, when it is a fault (_NO_FAULT)."""
    handled = next((c for c in reversed(causes) if c.exception), None)
    return None if handled is None or handled.exception in _NO_FAULT else handled


# A wrapper's message that says something failed but not why, or sends the reader to another
# traceback: empty ("raise RuntimeError() from e"), "Failed to load the drafter", "Worker failed
# with error ..., please check the stack trace above for the root cause", "See root cause above"
# (vllm-project/vllm v1/engine/utils.py wait_for_engine_startup), "An error occurred while ...".
# One with a reason of its own ("no vocab map", "You are trying to access a gated repo.") or
# with the cause's message in it stays the error reported.
_POINTS_ELSEWHERE = re.compile(r"\b(?:see|check)\b.{0,40}\b(?:above|root cause|stack ?trace|traceback|logs?)\b", re.I)
_VAGUE_MESSAGE = re.compile(
    r"\W*$"
    r"|.*" + _POINTS_ELSEWHERE.pattern +
    r"|(?:an?\s+)?(?:unexpected\s+|unknown\s+)?(?:error|exception)s?\s+(?:occurred|happened|was raised|raised|while|during|in)\b"
    r"[^:'\"]*$"
    r"|(?:[\w-]+\s+){0,4}?(?:failed|crashed|aborted)\b(?:\s+(?:to|while|during|with|in|on)\b[^:'\"]*)?\.?$"
    r"|(?:failed|unable|could\s*not|couldn't)\s+(?:to\s+)?[^:'\"]{0,60}$", re.I)


# A wrapper that goes on to say why ("Failed to load draft model because vocab size 32000 does not
# match target 128256", "..., expected a d2t tensor") names the fault itself, better than its
# cause ("KeyError: 'd2t'") does: it stays the error ("because of an error" is no reason).
_GIVES_REASON = re.compile(r"\b(?:because(?! of an? (?:error|exception|failure|problem|issue)\b)|since|due to|expected|got|mismatch(?:ed)?|does(?:n't| not)|do not|did not"
                           r"|missing|invalid|unsupported|not (?:found|supported|match\w*|exist\w*|compatible)"
                           r"|must|should|too (?:large|small|many|few|long|old))\b", re.I)


def _points_back(raised: ErrorInfo, causes: list[ErrorInfo]) -> bool:
    """Whether a wrapper sends the reader to its cause ("See root cause above"). One that says
    why on its own too ("drafter vocab 32000 does not match target vocab 128256, check the logs")
    names the fault; not when the why is its cause's message quoted ("Worker failed with error
    'invalid shape', please check the stack trace above"): the cause has the frame."""
    message = raised.message
    if _POINTS_ELSEWHERE.search(message) is None:
        return False
    return _GIVES_REASON.search(message) is None or any(c.message and c.message in message for c in causes)


def _vaguer(info: ErrorInfo) -> bool:
    message = info.message.strip()
    if _TRITON_AT.match(message):
        return True  # Triton's "at L:C:" with no reason after it: where, never why
    return _VAGUE_MESSAGE.match(message) is not None and _GIVES_REASON.search(message) is None


_HEADER = "Traceback (most recent call last):"
_FOREIGN_LINES = 64  # other processes' lines stepped over in a row before a prefixed traceback counts as cut
# The rest of a traceback written inside a JSON string, up to its closing quote: Ray's job API puts the job's last log lines, traceback included, in the
# "message" of ``GET /api/jobs/<id>`` (ray python/ray/dashboard/modules/job/job_manager.py),
# ``kubectl get pod -o json`` the container's log tail in ``terminationMessage`` under
# FallbackToLogsOnError; both print every newline as the two characters ``\n``.
_ESCAPED_STRING = re.compile(r'(?:[^"\\\n]|\\.)*')
_ESCAPE = re.compile(r"\\(.)")
_UNESCAPED = {"n": "\n", "t": "\t", "r": ""}


def _one_traceback(output: str, start: int) -> tuple[ErrorInfo, int]:
    if output.startswith("\\n", start + len(_HEADER)):
        rest = _ESCAPED_STRING.match(output, start + len(_HEADER))
        text = _ESCAPE.sub(lambda e: _UNESCAPED.get(e.group(1), e.group(1)), rest.group(0))
        # the string may hold a chain ("During handling ..."): the exception that propagated
        return parse_tracebacks(_HEADER + text)[-1], rest.end()
    pos = output.find("\n", start)
    file = line = None
    if pos < 0:
        return ErrorInfo("traceback", None, "traceback with no frames"), len(output)
    pos += 1
    margin = _group_margin(output, start)
    stamped = None if margin else _stamped_prefix(output, start)
    per_line = _LINE_STAMP
    if not margin and stamped is None and (stamped := _numbered_prefix(output, start)) is not None:
        per_line = _NAMED_LINE_NUMBER if stamped else _LINE_NUMBER
    # A log prefix (vLLM's "(VllmWorker rank=0 pid=403) ERROR ... [core.py:586] ", a compose
    # service's "sglang-1  | ") may have other processes' lines between this one's: with
    # TP > 1 every rank logs at once (vllm-project/vllm#17756 shows 8 ranks interleaved).
    # Those are stepped over; a group's box ("  | ") ends at its first line without it.
    foreign_left = _FOREIGN_LINES if margin.strip(" |+") else 0
    plain = stamped is None and not margin
    source = False  # the line after a flush-left frame: its source line, unless an exception's
    lead = output[output.rfind("\n", 0, start) + 1:start]
    boxed = lead.lstrip(" ")[:1] in ("\u256d", "\u2500")  # rich's "╭──── ", streamlit's "──── " with no sides
    borderless = boxed and lead.lstrip(" ")[0] == "\u2500"
    indent = len(lead) - len(lead.lstrip(" "))
    piece = ""  # the head of a frame's path that rich wrapped onto the lines before
    remote = None  # a Ray task's error, whose remote frames follow (_RAY_CAUSE_FOLLOWS)
    while pos < len(output):
        nl = output.find("\n", pos)
        end = len(output) if nl < 0 else nl
        text = output[pos:end].rstrip("\r")
        if stamped is not None:
            stamp = per_line.match(text, len(stamped)) if text.startswith(stamped) else None
            if stamp is None:
                break
            text = text[stamp.end():]
        elif margin:
            if not text.startswith(margin):
                if foreign_left > 0:
                    foreign_left -= 1
                    pos = end + 1
                    continue
                break  # the group's box (or this sub-exception's) has ended
            text = text[len(margin):]
            foreign_left = _FOREIGN_LINES if foreign_left else 0
        if not text.strip():
            pos = end + 1
            continue
        if boxed:
            # rich's panel: its frames, source lines and locals are stepped over; the exception
            # follows it, as indented as the panel (RichHandler puts its time column before both)
            inner = text[indent:] if not indent or text[:indent].isspace() else text.lstrip(" ")
            if inner[0] in _RICH_BOX_EDGES or (borderless and inner[0] == " "):
                body = inner.strip(" \u2502")
                if (frame := _RICH_FRAME.match(body)) is not None:
                    file, line = piece + frame.group("file"), int(frame.group("line"))
                    piece = ""
                elif _RICH_PATH_HEAD.match(body) or (piece and _RICH_PATH_PART.match(body)):
                    piece += body  # a path too long for the panel wraps onto the next lines
                else:
                    piece = ""
                pos = end + 1
                continue
            text = inner
        if text[0] in " \t":
            if plain and (run := _INDENTED_RUN.match(output, pos)):
                # the frames and their source lines at once: only the innermost frame is kept,
                # the last line of the run that is one (a line-by-line loop was most of a
                # traceback's cost)
                found = output.rfind("File ", pos, run.end())
                while found >= 0:
                    line_start = output.rfind("\n", pos, found) + 1 or pos
                    frame = _FRAME_LINES.match(output, line_start, run.end())
                    if frame:
                        file, line = frame.group("file") or frame.group("escaped"), int(frame.group("line"))
                        break
                    found = output.rfind("File ", pos, line_start)
                pos = run.end()
                continue
            frame = _FRAME.match(text)
            if frame:
                file, line = frame.group("file") or frame.group("escaped"), int(frame.group("line"))
            pos = end + 1
            continue
        if text.startswith("File ") and (flush := _FLUSH_FRAME.match(text)) is not None:
            file, line = flush.group("file") or flush.group("escaped"), int(flush.group("line"))
            source = True  # the frame's source line, flush left too, may come next
            pos = end + 1
            continue
        if text[-1] in " \t":
            # Aider's history ends each output line with two spaces (a Markdown line break:
            # Aider-AI/aider aider/io.py, append_chat_history "> " + text + "  "), after the
            # exception's name too ("> AssertionError  ")
            text = text.rstrip(" \t")
        if source and not _FLUSH_EXC_LINE.match(text):
            source = False
            pos = end + 1
            continue
        if text[0] in "^~" and not text.strip("^~ "):
            pos = end + 1  # 3.11's carets under a flush-left source line
            continue
        if text.startswith(_RAY_LEADS) and (ray := _RAY_CAUSE_FOLLOWS.match(text)) is not None:
            # the remote task's frames and its own exception follow (see _RAY_CAUSE_FOLLOWS)
            said = text.find(": ")
            remote = ErrorInfo("traceback", text[:said], text[said + 2:].strip()[:300], file, line)
            pos = end + 1
            continue
        m = _EXC_LINE.match(text)
        if m and not text.startswith("Traceback"):
            return ErrorInfo("traceback", m.group("type"), (m.group("msg") or "").strip(), file, line), end
        break  # a truncated traceback: no exception line
    if remote is not None:
        return remote, pos  # the remote frames cut off: what the Ray line says
    return ErrorInfo("traceback", None, "traceback without an exception line (truncated output)", file, line), pos


# Ray re-raises a remote task's exception in the caller as "ray.exceptions.RayTaskError(ValueError):
# ray::HiddenStatesGenerator.generate() (pid=5521, ip=10.0.0.12)", then the remote frames,
# indented, then the remote exception's own line ("ValueError: ..."), all in one traceback (ray
# python/ray/exceptions.py, RayTaskError.__str__); an actor whose constructor raised says so in
# ActorDiedError ("The actor died because of an error raised in its creation task, ray::X.__init__()
# ...") with the same tail. The remote exception, at its innermost frame, is the error; the Ray
# line had ended the traceback as one without an exception line.
_RAY_LEADS = ("ray.", "RayTaskError", "ActorDiedError")
_RAY_CAUSE_FOLLOWS = re.compile(r"(?P<type>(?:ray\.exceptions\.)?RayTaskError)\((?P<cause>[\w.]+)\): ray::"
                                r"|(?P<actor>(?:ray\.exceptions\.)?ActorDiedError): The actor died because of an error "
                                r"raised in its creation task")


# rich's traceback (Textualize/rich rich/traceback.py, what typer and other CLIs install) draws
# the stack in a panel under "╭──── Traceback (most recent call last) ────╮": each frame a line
# "│ /path/x.py:88 in main" (Traceback._render_stack), its source lines "│ ❱ 88 │ code" and a
# locals box "│ ╭─ locals ─╮" under it, the panel closed by "╰───╯", then the exception flush left.
# Before, every panel line ended the traceback: an error with no exception, the KeyError lost.
_RICH_BOX_EDGES = "\u2502\u256d\u2570\u2500"  # │ ╭ ╰ ─
# a frame (its name may wrap onto the next line: "/x/vault.py:41" then "in read"); no source line
# ("❱ 88 │ code", "  85 │ code") nor a local ("args = Namespace(...)")
_RICH_FRAME = re.compile(r"(?![\d\u2771])(?P<file>[^\s\u2502][^\u2502=]*?):(?P<line>\d+)(?: in \S+)?$")
_RICH_PATH_HEAD = re.compile(r"(?:/|[A-Za-z]:\\)[^\s:]*$")
_RICH_PATH_PART = re.compile(r"[^\s:\u2502]+$")


# ``docker logs -t`` / ``kubectl logs --timestamps`` put an RFC 3339 time with nanoseconds
# before every line (``2026-09-22T06:50:07.810074780Z ``), different on each line, so it is
# no fixed margin; ``docker compose logs -t`` puts it behind the service's "name  | ".
_LINE_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)? ")


def _stamped_prefix(output: str, start: int) -> str | None:
    """The fixed part before the per-line timestamp when this traceback's header and the
    line after it both carry one; None otherwise."""
    line_start = output.rfind("\n", 0, start) + 1
    if start - line_start < 20 or not output[start - 2].isdigit() and output[start - 2] != "Z":
        return None  # a timestamp ends in a digit or "Z" before its space
    for m in _LINE_STAMP.finditer(output, line_start, start):
        if m.end() == start:
            prefix = output[line_start:m.start()]
            nl = output.find("\n", start)
            if nl >= 0 and output.startswith(prefix, nl + 1) and _LINE_STAMP.match(output, nl + 1 + len(prefix)):
                return prefix
    return None


# ``grep -n`` puts the line's number before it (``1031:RuntimeError: ...``; ``-`` after the number
# on a context line of -A/-B/-C; the file's name first with several files or -H), different on
# each line: a traceback found in a server log with ``grep -n "Traceback\|Error"`` has its header
# and exception lines so, far apart in the log, and its frames left out.
_LINE_NUMBER = re.compile(r"\d+[:-]")
_NAMED_LINE_NUMBER = re.compile(r"[:-]\d+[:-]")
"""After the file's name: ``sglang.log:1031:`` on a matching line, ``sglang.log-1030-`` on a context one."""


def _numbered_prefix(output: str, start: int) -> str | None:
    """The file's name (without its separator), or "", before the line number ``grep -n`` puts
    before this traceback's header, when the line after it is numbered so too; None otherwise."""
    if start < 2 or output[start - 1] not in ":-" or not output[start - 2].isdigit():
        return None
    line_start = output.rfind("\n", 0, start) + 1
    lead = output[line_start:start - 1]
    name = lead.rstrip("0123456789")
    if name:
        if name[-1] not in ":-":
            return None  # "rank1:" is a name, not a file's line number
        name = name[:-1]
    nl = output.find("\n", start)
    if nl >= 0 and output.startswith(name, nl + 1) and \
            (_NAMED_LINE_NUMBER if name else _LINE_NUMBER).match(output, nl + 1 + len(name)):
        return name
    return None


def _group_margin(output: str, start: int) -> str:
    """The margin every line of this traceback carries, "" for a plain one.

    CPython 3.11+ (``Lib/traceback.py``, ``TracebackException.format``) prints an exception
    group as ``  + Exception Group Traceback (most recent call last):`` with its other lines
    behind ``  | ``, and each sub-exception behind a deeper ``    | ``; ``docker compose
    logs`` puts ``sglang-1  | `` before every line of a container's output. Without the
    margin the frames and the exception line are not recognised. A prefix only the first
    line has (``ERROR: Traceback ...``) is no margin."""
    line_start = output.rfind("\n", 0, start) + 1
    lead = output[line_start:start]
    if not lead.strip():
        # An indented traceback (pip's "╰─> [6 lines of output]" box around a build script's
        # failure, a Markdown code block): its frames are indented further, its exception line
        # as far as the header. Without the margin the box's next unindented line ("error:
        # metadata-generation-failed") read as the exception.
        if lead and lead.isspace() and output.startswith(lead + "  File ", output.find("\n", start) + 1):
            return lead
        return ""
    if lead.strip() == "traceback :":
        # torchrun's report of a rank that wrote an error file: "  traceback : " then the rank's
        # traceback, every line after the first indented two spaces more ("\n" replaced by
        # "\n  ", torch/distributed/elastic/multiprocessing/errors/__init__.py _format_failure):
        # frames at four, the exception line at two (was: a cut traceback, its exception missed)
        return "  "
    if lead.endswith("Exception Group "):
        lead = lead[:-len("Exception Group ")]
    if lead.strip() == "+":
        lead = lead.replace("+", "|")
    nl = output.find("\n", start)
    if nl < 0:
        return ""
    if output.startswith(lead, nl + 1):
        return lead
    # The header's line holds more than the margin: Ray's "(WorkerDict pid=N) " before SGLang's
    # "[2025-04-12 21:11:01 TP0] Scheduler hit an exception: Traceback ..." (verl-project/verl#1049,
    # #705: SGLang as verl's rollout engine), a compose service's "sglang-1  | " likewise. The
    # first frame's line shows the margin: what comes before its "  File ".
    frame = output.find("  File ", nl + 1, nl + 1 + len(lead) + 7)
    if frame > nl + 1 and lead.startswith(output[nl + 1:frame]) and output[nl + 1:frame].strip():
        return output[nl + 1:frame]
    # another process's line first (interleaved ranks): the traceback's own lines follow soon
    if output[nl + 1:nl + 2] not in (" ", "\t", "") and lead.strip(" |+"):
        window_end = nl
        for _ in range(8):
            window_end = output.find("\n", window_end + 1)
            if window_end < 0:
                window_end = len(output)
                break
        if output.find("\n" + lead, nl, window_end) >= 0:
            return lead
    return ""


# The engine's check that the memory left for the KV cache after the weights (its share of the
# GPU, --mem-fraction-static) holds any tokens at all: SGLang raises "RuntimeError: Not enough
# memory. Please try to increase --mem-fraction-static." at server start (sgl-project/sglang
# python/sglang/srt/model_executor/model_runner.py, init_memory_pool), as vLLM raises "No
# available memory for the cache blocks. Try increasing `gpu_memory_utilization`"
# (vllm/worker/worker.py raise_if_cache_size_invalid; v1: vllm/v1/core/kv_cache_utils.py). A
# share set too small, not a GPU that ran out: the fix is the opposite of an OOM's (raise the
# fraction, not lower it).
# vLLM V1 checks the same against one request of max_model_len: "ValueError: To serve at least
# one request with the models's max seq len (131072), (16.00 GiB KV cache is needed, which is
# larger than the available KV cache memory (9.47 GiB). ... Try increasing
# `gpu_memory_utilization` or decreasing `max_model_len`" (vllm/v1/core/kv_cache_utils.py,
# check_enough_kv_cache_memory; 0.8.x wrote "KV Cache"), V0 "The model's max seq len (X) is
# larger than the maximum number of tokens that can be stored in KV cache (Y)" (vllm/worker/
# worker.py, raise_if_cache_size_invalid). An EAGLE drafter's weights and KV cache take their
# share first, so a context that fit without speculation may not with it.
_KV_CACHE_MEMORY = re.compile(r"Not enough memory\. Please try to increase --mem-fraction-static"
                              r"|No available memory for the cache blocks"
                              r"|larger than the available KV [Cc]ache memory"
                              r"|larger than the maximum number of tokens that can be stored in KV cache")
KV_CACHE_MEMORY = "kv_cache_memory"
"""The error kind of :data:`_KV_CACHE_MEMORY`."""


def _classify(info: ErrorInfo) -> ErrorInfo:
    text = f"{info.exception or ''}: {info.message}"
    if ("memory" in text or "KV cache" in text) and _KV_CACHE_MEMORY.search(text):
        info.kind = KV_CACHE_MEMORY
    elif _CUDA_OOM.search(text):
        info.kind = "cuda_oom"
    elif _host_memory(text):
        info.kind = "host_oom"
    elif _CUDA_ERROR.search(text) or _CUDA_FAULT.search(text) or _NO_GPU.search(text):
        info.kind = "cuda_error"
    elif _NCCL.search(text):
        info.kind = "nccl"
    elif _CONNECTION.search(text):
        info.kind = "connection"
    elif (info.exception or "").endswith("TimeoutError"):
        info.kind = "timeout"
    return info


# curl(1), EXIT CODES: the statuses that say the server was not reached. A silent curl (-s, the
# health check agents poll while a server loads) prints nothing else: "Exit code 7" and no text.
_CURL_UNREACHED = {6: "Could not resolve host", 7: "Failed to connect to host", 28: "Operation timed out",
                   52: "Empty reply from server", 56: "Failure in receiving network data"}


def curl_unreached(exit_code: int | None) -> ErrorInfo | None:
    """The connection failure curl's ``exit_code`` says (curl's own words), None for another status."""
    said = _CURL_UNREACHED.get(exit_code) if exit_code is not None else None
    return ErrorInfo("connection", None, f"curl: ({exit_code}) {said}") if said else None


# A command that runs pip's install, download or wheel: "pip install", "pip3 install", "pip3.11
# install", "python3 -m pip install", "pip --no-cache-dir install" (pip's general options first).
_RUNS_PIP = re.compile(r"(?<![\w.-])pip(?:3(?:\.\d+)?)?(?:[ \t]+-[-\w=]+)*[ \t]+(?:install|download|wheel)\b")


# pip up to 24.3 checks for its own new release after the command ran, failed or not (pip 24.0
# cli/base_command.py: handle_pip_version_check in the finally of _main, after the error is logged;
# 25.0 on before it) and prints under the give-up line "[notice] A new release of pip is available:
# 24.0 -> 25.3" and "[notice] To update, run: pip install --upgrade pip" (self_outdated_check.py
# UpgradePrompt), a blank line before them.
_PIP_NOTICE = "[notice] "


def _pip_last_line(output: str) -> str:
    """The last line of ``output`` with something on it (:func:`_last_meaningful_line`), pip's
    version notice (_PIP_NOTICE) under it left out."""
    said = _last_meaningful_line(output)
    if not said.startswith(_PIP_NOTICE):
        return said
    for raw in reversed(output[-_PIP_TAIL:].splitlines()):
        text = raw.strip()
        if text and not text.startswith(_PIP_NOTICE) and not _EXIT_LINE.match(text) and not _printed_after(text):
            return text[:300]
    return ""


_BUILD_TAIL = 400
"""The most characters of an output's last line looked at for a build's or a test run's last words."""

_BUILD_GAVE_UP = re.compile(
    # GNU make (src/main.c, src/remake.c): the target that failed, or the rule it lacks; -k's
    # own last word; never `Error 2 (ignored)` (-i, and a `-` recipe line: make went on, exit 0)
    r"g?make(?:\[\d+\])?: \*\*\* (?:\[.*\] Error \d+|.*  Stop\.)"
    r"|g?make(?:\[\d+\])?: Target .* not remade because of errors\."
    # pytest's summary line (src/_pytest/terminal.py, build_summary_stats_line): "1 failed, 12
    # passed in 3.21s", between "=" with -v or plain, -q ("in 0.12 seconds" before pytest 5);
    # an error counted (collection, fixtures)
    r"|=* ?(?:\d+ [a-z]+, )*\d+ (?:failed|errors?)(?:, \d+ [a-z]+)* in [\d.]+ ?s(?:econds)?(?: \(\d+:\d\d:\d\d\))? ?=*"
    # cargo (src/cargo/core/compiler/job_queue: "could not compile `{}`"), exit 101
    r"|error: could not compile `.*"
    # ninja (src/build.cc: "build stopped: subcommand failed."), exit 1
    r"|ninja: build stopped: subcommand failed\."
    # unittest's verdict (cpython Lib/unittest/runner.py, TextTestRunner.run: "FAILED", then its
    # counts, "FAILED (failures=1, skipped=1)"), its exit 1 (Lib/unittest/main.py, runTests:
    # sys.exit(not wasSuccessful()))
    r"|FAILED \((?:failures|errors|skipped|expected failures|unexpected successes)=\d+"
    r"(?:, (?:errors|skipped|expected failures|unexpected successes)=\d+)*\)")
"""A build's or a test run's last line that only a failure prints: its status is not 0 (make 2,
pytest 1 or 2, cargo 101, ninja 1, unittest 1), where a pipeline's last command (`| tail -20`) gave it 0."""

_RUNS_BUILD = re.compile(r"(?<![\w.-])(?:g?make|cmake|ninja|cargo|pytest|py\.test|tox|nox|unittest|test_\w*\.py)(?![\w.-])")
"""A build or a test run: ``python -m unittest``, or a test file run alone (``python
tests/test_drafter.py``, whose ``unittest.main()`` prints unittest's verdict)."""


def _may_end_in_build_failure(output: str) -> bool:
    """A literal of every :data:`_BUILD_GAVE_UP` line, in the output's last line (bounded finds:
    no copy, no scan of the rest; every tool result of a session passes here)."""
    end, stop = len(output), max(0, len(output) - _BUILD_TAIL)
    while end > stop and output[end - 1] in " \t\r\n":  # bounded: an output may end in megabytes of blank
        end -= 1
    start = max(output.rfind("\n", max(0, end - _BUILD_TAIL), end) + 1, end - _BUILD_TAIL, 0)
    return output.find("failed", start, end) >= 0 or output.find("rror", start, end) >= 0 \
        or output.find("*** ", start, end) >= 0 or output.find("FAILED (", start, end) >= 0


def build_gave_up_line(output: str) -> str | None:
    """The output's last line, where it is a build's or a test run's that failed (_BUILD_GAVE_UP)."""
    said = _last_meaningful_line(output)
    return said if _BUILD_GAVE_UP.fullmatch(said) else None


def build_gave_up(output: str | None, command: str) -> bool:
    """``command`` runs a build or a test run (make, cmake --build, ninja, cargo, pytest, tox) and
    ``output`` ends in its last words that it failed (:data:`_BUILD_GAVE_UP`): the command failed,
    though its status is 0 (`make -j8 2>&1 | tail -5`: tail's, bash(1), "Pipelines"). A log read
    back (`tail -5 build.log`) runs none: the build failed, the reading did not."""
    return bool(output) and _RUNS_BUILD.search(command) is not None and _may_end_in_build_failure(output) \
        and build_gave_up_line(without_colours(output)) is not None


_STATUS_HIDERS = frozenset({"tail", "tee"})
"""A pipeline's last command whose status (0) is the pipeline's, hiding the program's before it."""
_THREAD_DIED = ("Exception in thread ", "Exception ignored in")
"""threading's and the interpreter's notes above a traceback the process went on from (cpython
Lib/threading.py, excepthook's "Exception in thread {name}:"; Python/errors.c, PyErr_WriteUnraisable)."""


def died_in_traceback(output: str | None, command: str) -> bool:
    """``command`` runs a program through a pipe whose last command gives the status (``python3
    train.py 2>&1 | tail -20``, ``| tee train.log``: tail's or tee's 0, bash(1), "Pipelines"), and
    ``output`` ends on a Python traceback's exception line, nothing after it: the interpreter
    printed it and exited 1 (cpython Python/pythonrun.c, an exception nothing caught), as a terminal
    log, which records no status, already reads it. The traceback may have lost its header to the
    tail (``| tail -3``: frames, then the exception, :func:`_headless_traceback`). A log read back
    (``tail -20 train.log``, ``cat x.log | tail``), and a thread's traceback the process went on
    from, are none."""
    if not output or (line := status_pipeline(command)) is None or len(line) < 2 \
            or line[-1][0].rsplit("/", 1)[-1] not in _STATUS_HIDERS or _reads_a_log(line[0]):
        return False
    start = output.rfind("Traceback (most recent call last)")
    if start >= 0 and _heads_a_traceback(output, start):
        above = output[max(0, output.rfind("\n", 0, max(0, start - 1)) + 1):start]
        if above.lstrip().startswith(_THREAD_DIED):
            return False
    elif start < 0 and '"' in output and _headless_traceback(output) is not None \
            and (frame := _FRAME_LINES.search(output)) is not None:
        # (the header the tail cut put back before the first frame, as _headless_traceback reads it)
        output, start = _HEADER + "\n" + output[frame.start():], 0
    else:
        return False
    end = _one_traceback(output, start)[1]
    if _CHILD_FAILED_REPORT in output[end:end + 4000] and "ChildFailedError" in output[start:end]:
        # torchrun's: the exception's message is the report box under its line, to its closing
        # border (torch/distributed/elastic/multiprocessing/errors/__init__.py, ChildFailedError,
        # _MSG_FORMAT_TEMPLATE: "Root Cause (first observed failure):", then "${boarder}", "="s)
        close = output.rfind("\n=", end, end + 4000)
        end = output.find("\n", close + 1) if close >= 0 else end
        end = len(output) if end < 0 else end
    return all(not (text := raw.strip()) or _EXIT_LINE.match(text) or _printed_after(text)
               for raw in output[end:end + 4000].splitlines()) and len(output) - end <= 4000


_CHILD_FAILED_REPORT = "Root Cause (first observed failure):"


_LOG_READERS = frozenset({"tail", "cat", "head", "grep", "rg", "less", "more", "sed", "awk", "zcat", "tac", "journalctl"})
"""Programs whose output is a file's or a log's: a traceback they print is the log's, not their
own death."""


def _reads_a_log(argv: list[str]) -> bool:
    """``argv`` prints a file or a log (``cat train.log``), or a container's (``docker logs sglang``,
    ``kubectl logs pod``)."""
    name = argv[0].rsplit("/", 1)[-1]
    return name in _LOG_READERS or (name in ("docker", "kubectl", "podman") and "logs" in argv[1:3])


def pip_gave_up(error: ErrorInfo, output: str | None, command: str) -> bool:
    """``error`` (the first of ``output``'s) is pip's own last words that it gave up (_PIP_GAVE_UP,
    or the box that ends the output, _pip_box_at_end), and ``command`` runs pip: the install did
    not happen, though the command's status is 0 (`pip install x | tail -1`: tail's, bash(1),
    "Pipelines"). A log of an install read back (`tail -1 pip.log`) runs no pip."""
    if error.kind != "tool_error" or not output or _RUNS_PIP.search(command) is None:
        return False
    return error.message.startswith(_PIP_GAVE_UP) \
        or (_PIP_BOX_ARROW in output and _pip_box_at_end(without_colours(output)) == error.message)


def _pip_box(output: str, after: int) -> tuple[str, int] | None:
    """The message of the pip box (_PIP_BOX_ARROW) whose "× " line is the first with something on
    it after ``after`` (the end of its "error: <reference>" line, or of the line before its "× "),
    and where the box ends; None where none is there. The message is the "× " lines', then the
    context where it is one line that says more than "See above for output." or "[N lines of
    output]": "Failed to build installable wheels for some pyproject.toml based projects: flash-attn"."""
    lines = output[after:after + _PIP_TAIL].split("\n")
    at = after
    while lines and not lines[0].strip():
        at += len(lines.pop(0)) + 1
    if not lines or not lines[0].lstrip(" ").startswith(_PIP_BOX_MARK):
        return None
    indent = lines[0][:len(lines[0]) - len(lines[0].lstrip(" "))]
    said = [lines[0].strip()[2:]]
    at += len(lines[0]) + 1
    context: list[str] = []
    part = "message"
    for line in lines[1:]:
        text = line[len(indent):] if line.startswith(indent) else None
        if text is not None and part == "message" and text.startswith(_PIP_BOX_BAR):
            said.append(text[1:].strip())
        elif text is not None and part == "message" and text.startswith(_PIP_BOX_ARROW):
            part = "context"
            context.append(text[len(_PIP_BOX_ARROW):].strip())
        elif text is not None and part == "context" and text.startswith("    ") and text.strip():
            context.append(text.strip())
        elif not line.strip():
            pass  # (between the parts, and between a context's paragraphs)
        elif text is not None and part != "message" and (text.startswith(_PIP_BOX_AFTER)
                                                         or (part == "after" and text.startswith("      "))):
            part = "after"
        else:
            break
        at += len(line) + 1
    else:
        at = min(at, len(output))
    if part == "message":
        return None  # no "╰─> " line: no box of pip's
    message = " ".join(p for p in said if p)
    if len(context) == 1 and context[0] != "See above for output." and not context[0].startswith("["):
        message = f"{message.rstrip('.')}: {context[0]}"
    return message[:300], at


def _pip_box_at_end(output: str) -> str | None:
    """The message of the pip box (_pip_box) that ends ``output`` (its "× " line unindented: pip's
    own, not one nested in a build's log), nothing but what a terminal prints after the command
    after it; None where the output ends otherwise."""
    arrow = output.rfind("\n" + _PIP_BOX_ARROW)
    start = output.rfind("\n" + _PIP_BOX_MARK, 0, arrow)
    if start < 0 and not output.startswith(_PIP_BOX_MARK):
        return None
    box = _pip_box(output, max(start, 0))
    if box is None:
        return None
    rest = output[box[1]:]
    return box[0] if all(not line.strip() or _EXIT_LINE.match(line.strip()) or _printed_after(line.strip())
                         for line in rest.splitlines()) else None


def _line_at(text: str, pos: int) -> str:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return text[start:end if end >= 0 else len(text)].strip()[:300]


# The exception type just before a message, behind a log prefix ("[2026-03-02 08:10:00 TP0]
# RuntimeError: CUDA error: ...", "(VllmWorker rank=0 pid=403) ERROR ... RuntimeError: ...").
_TYPE_AT = re.compile(r"(?<![\w.])((?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)):")


def _said_after(line: str, exception: str | None) -> str:
    """What ``line`` says after its ``exception``'s name and colon, as a traceback's exception line
    is read ("CUDA out of memory. Tried to allocate ..." of "torch.OutOfMemoryError: CUDA out of
    memory. ..."), a log prefix before the name dropped with it; the line whole when the name is
    not on it."""
    at = line.find(exception + ":") if exception else -1
    said = line[at + len(exception) + 1:].strip() if at >= 0 else ""
    return said or line


def _exception_near(text: str, pos: int) -> str | None:
    m = _BARE_EXC.match(_line_at(text, pos))
    if m:
        return m.group("type")
    line_start = text.rfind("\n", 0, pos) + 1
    nl = text.find("\n", pos)
    found = None
    for m in _TYPE_AT.finditer(text, max(line_start, pos - 200), min(nl if nl >= 0 else len(text), pos + 80)):
        if m.start() > pos:
            break
        found = m.group(1)  # the last type named at or before the message
    return found


def last_line(output: str) -> str:
    """The last line of ``output`` with something on it, colours out (:func:`_last_meaningful_line`)."""
    return _last_meaningful_line(without_colours(output[-4000:]))  # (all _last_meaningful_line reads)


# A line bash's xtrace (`set -x`, `bash -x script.sh`) writes before it runs a command: PS4's
# default "+ ", repeated once per level of command substitution ("++ "; bash variables.c, PS4
# "+ ", and print_cmd.c indirection_level_string). It is the command, not anything it printed:
# `+ echo 'FAILED: server died'` before "FAILED: server died", `+ '[' 1 -ne 0 ']'`. A script that
# sets the PS4 debugging guides give, `PS4='+(${BASH_SOURCE}:${LINENO}): ${FUNCNAME[0]:+${FUNCNAME[0]}(): }'`,
# traces "+(run.sh:4): grep -c 'CUDA out of memory' server.log" ("++(run.sh:3): " a level deeper;
# recorded with bash 5.2.15): the first character repeated, then the rest of PS4 as set. So do the
# PS4s without parentheses other guides give: '+${BASH_SOURCE}:${LINENO}: ' traces "+./run.sh:4:
# grep ...", '+$LINENO: ' "+4: grep ...", '+${BASH_SOURCE}:${LINENO}:${FUNCNAME[0]}: ' "+./run.sh:4::
# grep ..." ("+./run.sh:5:f: " in function f), and with "${FUNCNAME[0]:+${FUNCNAME[0]}():}" "+./run.sh:5:f():
# echo ..." (each recorded with bash 5.2.15).
_XTRACE_LINE = re.compile(r"\++(?: |\([^()\s]+:\d+\): |(?:[^()\s:]+:)?\d+:(?:\w*(?:\(\))?:)? )")


def _traced(output: str, line_start: int) -> bool:
    """The line of ``output`` at ``line_start`` is a `set -x` trace (:data:`_XTRACE_LINE`): the
    command bash was about to run, whose arguments (`+ grep -c 'CUDA out of memory' server.log`,
    `+ echo 'NCCL error'`) name an error the pattern it looks for, not one that happened."""
    return output.startswith("+", line_start) and _XTRACE_LINE.match(output, line_start) is not None


# A timeout the program said it would retry ("WARNING: Retrying (Retry(total=1, ...)) after
# connection broken by 'ReadTimeoutError(\"HTTPConnectionPool(host='127.0.0.1', port=39871): Read
# timed out. (read timeout=1.0)\")': /simple/sglang/", pip 23.2 through urllib3's Retry, recorded in
# hardening 72, failures6), or on the line after it (huggingface_hub's http_backoff logs "'(ReadTimeoutError(...
# Read timed out ...)' thrown while requesting GET <url>", then "Retrying in 1s [Retry 1/5].",
# huggingface_hub/utils/_http.py; a readiness loop's "attempt 1/2 failed, retrying in 1s" after curl's
# "(28) Operation timed out ...") is no failure yet: a timeout it said after the retries, when it
# gave up, is. Where it said none (pip's retries end
# in "ERROR: Could not find a version that satisfies the requirement sglang (from versions: none)",
# the index never read) the retried timeout is still the failure.
_RETRYING = re.compile(r"[Rr]etrying\b|[Ww]ill retry\b|\[Retry \d+/\d+\]")


def _timed_out_at(output: str) -> re.Match | None:
    """The first timeout (:data:`_TIMEOUT`) on a line no xtrace wrote that neither it nor the
    next line says is retried; the first retried one when every timeout was."""
    t = _untraced_search(_TIMEOUT, output)
    retried = None
    while t is not None:
        nl = output.find("\n", t.end())
        after = output.find("\n", nl + 1) if nl >= 0 else -1
        if not _RETRYING.search(output, output.rfind("\n", 0, t.start()) + 1, after if after >= 0 else len(output)):
            return t
        retried = retried or t
        t = _untraced_search(_TIMEOUT, output, nl + 1) if nl >= 0 else None
    return retried


def _untraced_search(pattern: re.Pattern, output: str, pos: int = 0) -> re.Match | None:
    """The first match of ``pattern`` from ``pos`` on a line no `set -x` trace wrote (:func:`_traced`)."""
    m = pattern.search(output, pos)
    while m is not None and _traced(output, output.rfind("\n", 0, m.start()) + 1):
        nl = output.find("\n", m.end())
        m = pattern.search(output, nl + 1) if nl >= 0 else None
    return m


def _last_untraced_line(output: str) -> str:
    """The last line with something on it that no xtrace (:data:`_XTRACE_LINE`) wrote: under
    `set -x` the script printed it, and it stopped at (or ended with) the command that failed,
    so its last words are that command's; "" when every line is a trace."""
    for raw in reversed(output[-4000:].splitlines()):
        text = raw.rsplit("\r", 1)[-1].strip()
        if text and not _XTRACE_LINE.match(text) and not _EXIT_LINE.match(text) and not _printed_after(text):
            return text[:300]
    return ""


def _last_meaningful_line(output: str) -> str:
    """The last line with something on it; of a progress bar redrawn with carriage returns,
    its last state."""
    for raw in reversed(output[-4000:].splitlines()):
        text = raw.rsplit("\r", 1)[-1].strip()
        if text and not _EXIT_LINE.match(text) and not _printed_after(text):
            return text[:300]
    return ""


# What a tool result says about the run rather than what the command printed: Claude Code's
# "Exit code N" (or "Error: Exit code N"), and the header of a Codex exec result ("Chunk ID:
# ...", "Wall time: ... seconds", "Process exited with code N", "Original token count: N",
# "Output:"; openai/codex codex-rs/core/src/tools/handlers/unified_exec.rs, older "Exit code:
# N" / "Duration: ..."), which the Codex reader keeps in the result's text; and the status line
# an agent loop of one's own appends to a command's output, which formats.common.shell_result
# reads the exit status from and keeps in the text: "[exit code: 137]", "exit_code=124",
# "returncode: 139" (its _SHELL_STATUS_LINE's forms).
_EXIT_LINE = re.compile(r"^(?:(?:Error: )?Exit code:? -?\d+|Chunk ID: \S+|Wall time: [\d.]+ seconds|Duration: [^\n]*"
                        r"|Process exited with code -?\d+|Process running with session ID \S+"
                        r"|Original token count: \d+|Output:"
                        r"|\[?(?i:exit[ _]?(?:code|status)|return[ _]?code)(?:\s*[:=])?\s*-?\d+\]?)$")
# So are the lines a terminal prints after the command ended, which are no part of its output:
# the report of a `time` prefix, bash's "real\t0m0.083s" / "user" / "sys" (TIMEFORMAT's default;
# "real 0.36" with -p), zsh's "python3 load.py  0.09s user 0.01s system 26% cpu 0.375 total"
# (TIMEFMT), GNU time's "0.09user 0.00system 0:00.26elapsed 38%CPU (...)k" and
# "8inputs+16outputs (...)pagefaults 0swaps"; and ssh's note as a session with a tty ends,
# "Connection to gpu02 closed." ("Shared connection to ..." through a ControlMaster; openssh
# clientloop.c and mux.c), not its "... closed by remote host.", a failure.
_TIME_REPORT = re.compile(r"(?:real|user|sys)[ \t]+(?:\d+m)?\d+[.,]\d+s?"
                          r"|[^\n]{1,200} \d+[.,]\d+s user \d+[.,]\d+s system \d+% cpu [\d:.,]+ total"
                          r"|[\d.,]+user [\d.,]+system [\d:.,]+elapsed [^\n]*|\d+inputs\+\d+outputs [^\n]*swaps")
_SSH_CLOSED = re.compile(r"(?:Shared c|C)onnection to \S+ closed\.")


def _printed_after(text: str) -> bool:
    """``text`` (a stripped line) is one the terminal printed after the command ended: a time
    report or ssh's closing note (above). Literal tests first: most last lines are neither."""
    if (text[:1] in "rus" and text.startswith(("real", "user", "sys"))) \
            or ("%" in text and " total" in text) or ("d" in text and "elapsed " in text) or "swaps" in text:
        return _TIME_REPORT.fullmatch(text) is not None
    return text[:1] in "CS" and "onnection to " in text and _SSH_CLOSED.fullmatch(text) is not None


# A tool's own error line: pip's logger ("ERROR: Could not find a version that satisfies the
# requirement ...", pip/_internal/utils/logging.py), git's "fatal: ...", apt's "E: ...", and
# the "error: ..." of build tools; not Claude Code's "Error: Exit code N" first line.
# llama.cpp logs an error behind the function's name, no "error:" word: "common_speculative_are_
# compatible: draft model vocab type must match target model to use speculation but ..." (common/
# speculative.cpp), then "srv    load_model: the draft model '...' is not compatible with the target
# model" and "main: exiting due to model loading error" (tools/server). The first such line is the
# fault; the server's first line ("srv    load_model: loading draft model '...'") only how it began.
_LLAMA_CPP_SAID = re.compile(r"^(?:(?:srv|slot)[ \t]+)?(?P<name>\w+):[ \t]+[^\n]*?\b(?:error|failed|fail|must|not compatible"
                             r"|mismatch|unable|cannot|can't|invalid|unsupported|out of memory)\b[^\n]*$", re.M)
# Lines with those words that llama.cpp logs on runs that go on: a warning ("warning: failed to
# mlock 123-byte buffer ...: Cannot allocate memory", src/llama-mmap.cpp) and a fallback it takes
# ("load_tensors: tensor 'token_embd.weight' (q4_K) (and 0 others) cannot be used with preferred
# buffer type CPU_REPACK, using CPU instead", src/llama-model.cpp), in most CPU and ARM runs' logs.
_LLAMA_CPP_GOES_ON = re.compile(r"\binstead\b|\bfall(?:ing)?[ \t]*back\b|\b(?:disabling|ignoring|skipping|continuing|retrying)\b", re.I)


def _llama_cpp_said(output: str) -> str | None:
    """llama.cpp's first line that says why a run failed (_LLAMA_CPP_SAID), past its warnings."""
    for m in _LLAMA_CPP_SAID.finditer(output):
        if m.group("name").lower() not in ("warning", "warn") and _LLAMA_CPP_GOES_ON.search(m.group(0)) is None:
            return m.group(0).strip()
    return None
# The line a failed tool wrote to say what went wrong, where its first line only says how it
# started: "ERROR: ..." and "error: ..." (pip, git, kubectl, apt's "E: "); a logger's ERROR line
# behind its stamp or process tag ("[2026-03-01 10:00:41] ERROR:    [Errno 98] ...", uvicorn under
# SGLang's stamp; vLLM's "ERROR 03-01 10:00:05 [engine.py:400] ...", "(EngineCore_0 pid=9) ERROR
# ..."; Python logging's default "ERROR:root:..."); argparse's "launch_server.py: error:
# unrecognized arguments: ..." under its usage lines (Lib/argparse.py ArgumentParser.error: "%(prog)s:
# error: %(message)s"), which srun, slurmstepd and gcc write too; a compiler's diagnostic
# ("csrc/x.cpp:12:5: error: ...", nvcc's "kernel.cu(45): error: ..."); the diagnostic a file tool
# writes as "prog: message" under the files it listed ("sending incremental file list", then
# "rsync: [sender] link_stat \"/data/ckpt\" failed: No such file or directory (2)"; tar -v).
# What Elixir prints for an exception nobody rescued, as ExUnit prints a test's under its "  1) test
# ..." heading: "** (RuntimeError) message" (elixir-lang/elixir lib/elixir/lib/exception.ex
# format_banner: "** (" <> inspect(module) <> ") " <> message; "** (exit) ..." and "** (throw) ..."
# for the other kinds). A failed `mix test` whose tests raised printed it under "Compiling 41 files
# (.ex)", which was its error (marot/spotter test/fixtures/transcripts/258c7280-....jsonl at 8cc42b0).
_ELIXIR_RAISED = re.compile(r"^[ \t]*\*\* \((?P<type>[A-Za-z][\w.]*)\) (?P<msg>[^\n]*\S)", re.M)
_ERROR_SAID = re.compile(
    r"^(?:(?:ERROR|FATAL|fatal|E|error|Error)(?:: | \[)"
    r"|(?:rsync|scp|sftp|cp|mv|ln|mkdir|rm|rmdir|tar|unzip|chmod|chown|ls|cat|wget|curl): "
    r"|(?:\[[^\]\n]{1,80}\][ \t]*|\([^()\n]{1,60}\)[ \t]+)?(?:ERROR|CRITICAL|FATAL)(?::|[ \t]+\d\d-\d\d[ \t])"
    r"|[\w.][\w. /-]{0,80}: (?:fatal )?error: "
    r"|[^\s:()]+(?::\d+(?::\d+)?|\(\d+\)): (?:fatal )?error: "
    # rustc's coded diagnostic ("error[E0425]: cannot find value `y` in this scope", before cargo's
    # "error: could not compile", rust-lang/rust compiler/rustc_errors/src/emitter.rs) and tsc's
    # ("src/a.ts(3,7): error TS2322: ..." or, --pretty, "src/a.ts:3:7 - error TS2322: ...",
    # microsoft/TypeScript src/compiler/program.ts formatDiagnostic)
    r"|error\[E\d{4}\]: |(?:[^\s()]+(?:\(\d+,\d+\):|:\d+:\d+ -) )?error TS\d+: )"
    r"(?!Exit code \d+\s*$)[^\n]*\S", re.M)
# The same words indented, where no line says them unindented: Elixir 1.15+ prints each compile
# diagnostic as "    error: undefined function get/2 (...)" under "Compiling 4 files (.ex)" (a real
# Claude Code 2.1.39 session's `mix test`, marot/spotter test/fixtures/transcripts/258c7280-....jsonl
# at 8cc42b0). Only then: pip's box opens with "  error: subprocess-exited-with-error" and its last
# line says more ("ERROR: Could not build wheels for flash-attn, which is required to install ...").
_ERROR_SAID_INDENTED = re.compile(r"^[ \t]+(?:ERROR|FATAL|fatal|error|Error)(?:: | \[)(?!Exit code \d+\s*$)[^\n]*\S",
                                  re.M)
# A test runner's verdict where no line says "error:": ExUnit's "13 tests, 1 failure"
# (elixir-lang/elixir lib/ex_unit/lib/ex_unit/cli_formatter.ex), pytest's "=== 1 failed, 3 passed
# in 0.1s ===" (src/_pytest/terminal.py), jest's "Tests:       1 failed, 4 passed, 5 total"
# (jestjs/jest packages/jest-reporters/src/SummaryReporter.ts; vitest's indented "      Tests  1
# failed | 1 passed (2)", vitest-dev/vitest reporters base.ts), go test's "--- FAIL: TestX (0.00s)"
# then "FAIL\tpkg\t0.002s" (src/testing/testing.go, cmd/go/internal/test), cargo test's "test
# result: FAILED. 1 passed; 1 failed" (library/test/src/console.rs), unittest's "FAILED (failures=1,
# skipped=1)" (cpython Lib/unittest/runner.py, TextTestRunner.run). The first of them names the
# failure (a failed command's output was named by its first line: "==> fine", "=== RUN   TestX").
_TEST_SUMMARY = re.compile(
    r"^(?P<said>\d+ (?:tests?|doctests?|propert(?:y|ies))(?:, \d+ \w+)*?, [1-9]\d* failures?\b[^\n]*"
    r"|[ \t]*Tests:?[ \t]+[1-9]\d* failed\b[^\n]*|--- FAIL: \S+[^\n]*|FAIL\t\S+[^\n]*|test result: FAILED\.[^\n]*"
    r"|FAILED \((?:failures|errors)=[1-9][^\n]*)$"
    r"|^=+ (?P<said2>[^\n]*?\b[1-9]\d* (?:failed|errors?)\b[^\n]*?) =+$", re.M)


def _first_meaningful_line(output: str) -> str:
    for raw in output[:4000].splitlines():
        text = raw.strip()
        if text and not _EXIT_LINE.match(text):
            return text[:300]
    return ""


_FIND_COMPLAINT = re.compile(r"^find: (.*)$", re.M)


def only_unreadable_folders(output: str) -> bool:
    """Every complaint of find(1) in ``output`` (a line ``find: ...``) is of a folder it may not
    read (``find: '/proc/1/fd': Permission denied``), and there is one at least: its exit status
    1 then says only that; a start path that does not exist ("No such file or directory") is a
    failure."""
    complaints = _FIND_COMPLAINT.findall(output) if "find: " in output else []
    return bool(complaints) and all(c.rstrip().endswith("Permission denied") for c in complaints)


LOG_CONTENT = frozenset({"traceback", "exception", "cuda_oom", "host_oom", "gpu_xid", "cuda_error", "nccl", "signal",
                         "timeout", "test_failure", "http_error"})
"""Kinds of error a log holds as text, the program that wrote it having hit them: a command
that read the log shows them without failing itself (its own failures are a connection, a
missing file, a tool's refusal)."""


def build_log_read(found: tuple[ErrorInfo, ...] | list[ErrorInfo], output: str) -> bool:
    """``found`` is what a build's, a test run's or a linter's own verdict near the end of
    ``output`` made of it (:func:`extract_errors` reads that as a failed call's output where no
    status was recorded): a tool's error line (a compiler's, a linter's) or a test failure. A log
    of such a run holds them as text, as it holds a server's traceback (:data:`LOG_CONTENT`)."""
    return bool(found) and all(e.kind in ("tool_error", "test_failure") for e in found) \
        and (any(word in output for word in VERDICT_WORDS) and build_failed(output)
             or _may_end_in_build_failure(output) and build_gave_up_line(output) is not None)


_REPL_PROMPT = re.compile(r"^(?:>>> |>>>$|In \[\d+\]: ?)", re.M)
"""The prompt of the standard Python REPL and of IPython (``In [4]: ``)."""


def repl_went_on(output: str) -> bool:
    """An interactive Python's output shows its prompt again after its last traceback: the
    statement typed at the prompt failed, the interpreter went on (CPython and IPython both
    print ``Traceback (most recent call last)``)."""
    at = output.rfind("Traceback (most recent call last)")
    return at >= 0 and _REPL_PROMPT.search(output, at) is not None
