"""A script run under `set -x` (`bash -x check.sh`): bash writes each command as a trace line
("+ cmd", "++ cmd" a level of command substitution deeper; PS4's default) before running it.

Before: the words a traced command was given were read as an error that happened. A health
check that went well (exit 0) whose `+ grep -c 'CUDA out of memory' server.log` found nothing
was a cuda_oom, `+ grep -q 'Address already in use' server.log` a port taken, `+ grep -c 'NCCL
error' server.log` an NCCL failure; a failed script's `+ grep -q 'Connection refused' log` was
its connection error, named by the trace. Now a trace line is never an error's report: the
patterns read what the script printed."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors
from tests.session.incident_story import _Writer

SID = "ab690000-0000-4000-8000-000000000691"


def _analyze(tmp_path: Path, command: str, output: str, exit_code: int):
    w = _Writer(SID, None, datetime(2026, 12, 6, 9, 0, tzinfo=timezone.utc))
    w.prompt("Is the server healthy?")
    w.bash(command, output, exit_code=exit_code)
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


@pytest.mark.parametrize("output", [
    "+ grep -c 'CUDA out of memory' server.log\n0\n+ echo healthy\nhealthy",
    "+ grep -q 'Address already in use' server.log\n+ echo 'port free'\nport free",
    "+ grep -c 'NCCL error' server.log\n0",
    "+ grep -c 'CUDA error: device-side assert' server.log\n0",
    "+ grep -c OOMKilled pods.txt\n0",
    "++ grep -c 'Fatal Python error: Segmentation fault' server.log\n+ n=0\n+ echo 0 crashes\n0 crashes",
])
def test_a_traced_search_that_went_well_is_no_error(tmp_path: Path, output: str) -> None:
    a = _analyze(tmp_path, "bash -x check.sh", output, 0)
    assert [(c.exit_code, c.is_error) for c in a.commands] == [(0, False)]
    assert a.errors == []


@pytest.mark.parametrize("output, said", [
    ("+ grep -q 'Connection refused' server.log\n+ echo 'server did not start'\nserver did not start\n+ exit 1",
     ("exit_code", "server did not start")),
    ("+ curl -s http://127.0.0.1:30000/health\n+ echo 'timed out waiting for the server'\n"
     "timed out waiting for the server\n+ exit 1", ("timeout", "timed out waiting for the server")),
    ("+ echo 'CUDA out of memory? retrying'\nretrying with --mem-fraction-static 0.8\n+ exit 1",
     ("exit_code", "retrying with --mem-fraction-static 0.8")),
])
def test_a_failed_scripts_error_is_not_its_trace(tmp_path: Path, output: str, said: tuple[str, str]) -> None:
    a = _analyze(tmp_path, "bash -x check.sh", output, 1)
    assert [(c.exit_code, c.is_error) for c in a.commands] == [(1, True)]
    assert [(e.kind, e.message) for e in a.errors] == [said]


def test_the_real_error_after_a_trace_is_still_found() -> None:
    out = ("+ python3 -m sglang.launch_server --model /models/llama\n"
           "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n+ exit 1")
    (e,) = extract_errors(out, 1, False, status_known=True)
    assert (e.kind, e.exception, e.message) == (
        "cuda_oom", "torch.OutOfMemoryError", "CUDA out of memory. Tried to allocate 2.00 GiB")
    # and after a clean exit, a server log's own OOM line is read past the trace of its grep
    out = ("+ grep -m1 'out of memory' server.log\n"
           "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB")
    (e,) = extract_errors(out, 0, False, status_known=True)
    assert (e.kind, e.exception) == ("cuda_oom", "torch.OutOfMemoryError")
    # a line that only starts with "+" is no trace ("+5 more" needs the space after the pluses)
    (e,) = extract_errors("+3 workers: Connection refused", 1, False, status_known=True)
    assert (e.kind, e.message) == ("connection", "+3 workers: Connection refused")
