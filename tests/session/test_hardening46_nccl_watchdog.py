"""A hung collective names what torch threw and where.

torch's NCCL watchdog (pytorch/pytorch torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp) logs
"Watchdog caught collective operation timeout: WorkNCCL(...) ran for N milliseconds before timing
out." and aborts the process: libstdc++ prints "terminate called after throwing an instance of
'c10::DistBackendError'" ('std::runtime_error' before torch 2.2) and c10 "Exception raised from
checkTimeout at .../ProcessGroupNCCL.cpp:635". An agent that tailed the training log of a rank
that hung got an nccl error with no exception and no place, though both were printed, and the
watchdog's log line behind its glog prefix as the message rather than what the exception said."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors

SESSION = "7d1e0c5b-46aa-4f00-9d42-000000000046"

WATCHDOG = """\
[rank1]:[E1021 08:40:12.123456789 ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1423, OpType=ALLREDUCE, NumelIn=8388608, NumelOut=8388608, Timeout(ms)=600000) ran for 600045 milliseconds before timing out.
[rank1]:[E1021 08:40:12.124000000 ProcessGroupNCCL.cpp:2271] [PG ID 0 PG GUID 0(default_pg) Rank 1]  failure detected by watchdog at work sequence id: 1423 PG status: last enqueued work: 1423, last completed work: 1422
[rank1]:[E1021 08:40:12.124200000 ProcessGroupNCCL.cpp:684] [Rank 1] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.
[rank1]:[E1021 08:40:12.124300000 ProcessGroupNCCL.cpp:698] [Rank 1] To avoid data inconsistency, we are taking the entire process down.
terminate called after throwing an instance of 'c10::DistBackendError'
  what():  [PG ID 0 PG GUID 0(default_pg) Rank 1] Process group watchdog thread terminated with exception: [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1423, OpType=ALLREDUCE, NumelIn=8388608, NumelOut=8388608, Timeout(ms)=600000) ran for 600045 milliseconds before timing out.
Exception raised from checkTimeout at /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:635 (most recent call first):
frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x98 (0x7f1c2a1b3d48 in /opt/venv/lib/python3.12/site-packages/torch/lib/libc10.so)
"""

# torch 2.1 (the format of vllm-project/vllm#2734's log): no "Exception raised from" line.
OLD_WATCHDOG = """\
[E ProcessGroupNCCL.cpp:475] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800584 milliseconds before timing out.
[E ProcessGroupNCCL.cpp:489] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.
terminate called after throwing an instance of 'std::runtime_error'
  what():  [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800584 milliseconds before timing out.
"""


def _session(tmp_path: Path, output: str) -> Path:
    def line(seq: int, role: str, content: list) -> str:
        return json.dumps({"type": role, "uuid": f"u{seq}", "parentUuid": f"u{seq - 1}" if seq else None,
                           "sessionId": SESSION, "timestamp": f"2026-01-05T10:00:{seq:02d}.000Z",
                           "cwd": "/home/dev", "message": {"role": role, "content": content}})
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join([
        line(0, "user", [{"type": "text", "text": "the EAGLE-3 training run on gpu03 hangs"}]),
        line(1, "assistant", [{"type": "tool_use", "id": "t1", "name": "Bash",
                               "input": {"command": "ssh gpu03 'tail -n 40 /tmp/train.log'"}}]),
        line(2, "user", [{"type": "tool_result", "tool_use_id": "t1", "content": output, "is_error": False}]),
    ]) + "\n")
    return path


def test_the_watchdog_read_in_a_log_tail_names_the_exception_and_where_it_was_raised(tmp_path: Path) -> None:
    [error] = analyze_path(_session(tmp_path, WATCHDOG)).errors
    assert (error.kind, error.exception, error.file, error.line, error.host) == (
        "nccl", "c10::DistBackendError", "/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp", 635, "gpu03")
    # the message is what the exception said (its what()), not the watchdog's log line
    assert error.message == (
        "[PG ID 0 PG GUID 0(default_pg) Rank 1] Process group watchdog thread terminated with exception: [Rank 1] "
        "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1423, OpType=ALLREDUCE, NumelIn=8388608, "
        "NumelOut=8388608, Timeout(ms)=600000) ran for 600045 milliseconds before timing out.")


def test_an_older_torch_names_its_runtime_error_and_no_place() -> None:
    for exit_code in (None, 134):
        [error] = extract_errors(OLD_WATCHDOG, exit_code=exit_code)
        assert (error.kind, error.exception, error.file, error.line) == ("nccl", "std::runtime_error", None, None)
        assert error.message == ("[Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=12, "
                                 "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800584 "
                                 "milliseconds before timing out.")


def test_a_watchdog_line_without_the_abort_names_no_exception() -> None:
    [error] = extract_errors(WATCHDOG.split("terminate called")[0], exit_code=None)
    assert (error.kind, error.exception, error.file, error.line) == ("nccl", None, None, None)
