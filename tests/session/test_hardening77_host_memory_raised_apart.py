"""A host allocation torch refused is counted apart from an unrelated RuntimeError.

Before, What went wrong counted a GPU failure raised as a plain RuntimeError by its kind, but not
the host's: torch's ``RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0.
DefaultCPUAllocator: can't allocate memory`` while converting a checkpoint, and a later
``RuntimeError: Expected all tensors to be on the same device``, read "2× RuntimeError [msg 2]
[msg 4]", hiding that the host ran out of memory. Now the allocation failure is "1 host
out-of-memory error [msg 2] — ..." (the analyzer's host_oom, said as an error raised, no
"process killed" that the OOM killer's line gives) and the other stays "1× RuntimeError". The
message is torch 2.13's for ``torch.empty(2**45, dtype=torch.uint8)`` on a CPU host."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.incident_story import _Writer

HOST = ("Traceback (most recent call last):\n  File \"/opt/convert.py\", line 12, in <module>\n"
        "    weights = torch.empty(n, dtype=torch.uint8)\n"
        "RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: "
        "you tried to allocate 35184372088832 bytes. Error code 12 (Cannot allocate memory)")
DEV = ("Traceback (most recent call last):\n  File \"/opt/run.py\", line 9, in <module>\n    step()\n"
       "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!")
KILLED = "Out of memory: Killed process 4242 (python3) total-vm:912345678kB, anon-rss:812345678kB"


def _went_wrong(tmp_path: Path, calls: list[tuple[str, str, int]]) -> list[str]:
    w = _Writer("72770000-0000-4000-8000-0000000000c1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Converting the drafter fails on gpu01, why?")
    for command, output, status in calls:
        w.bash(command, output, exit_code=status)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    analysis = analyze_path(path)
    assert analysis.errors[0].kind == "host_oom" and analysis.errors[0].exception == "RuntimeError"
    return postmortem_view(analysis)["went_wrong"]


def test_host_allocation_error_counted_apart(tmp_path: Path) -> None:
    assert _went_wrong(tmp_path, [("python /opt/convert.py", HOST, 1), ("python /opt/run.py", DEV, 1)]) == [
        "1 host out-of-memory error [msg 2] — [enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: "
        "can't allocate memory: you tried to allocate…",
        "1× RuntimeError [msg 4]", "Every tool call of the main session failed (2)."]


def test_the_oom_killer_stays_a_process_killed(tmp_path: Path) -> None:
    went = _went_wrong(tmp_path, [("python /opt/convert.py", HOST, 1), ("dmesg | tail -1", KILLED, 0)])
    assert went[0].startswith("1 host out-of-memory error [msg 2] — "), went
    assert went[1].startswith("1 process killed for host memory [msg 4] — Out of memory: Killed process 4242"), went
