"""A kill is no look at the processes. ``pkill -f sglang``, ``kill -9 4242`` and ``fuser -k
30000/tcp`` were category ``process``, titled "Inspecting processes": a phase of them was named
so, the pivot to one said "moved from benchmarking to inspecting processes", and a kill that
failed again and again ("No such process") was told as "a poll failed 3 times while waiting".
They are ``stop_process`` now ("Stopping processes"); ``ps``/``pgrep`` stay ``process``."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem
from spec_debug.session.shell import categorize
from tests.session.incident_story import _Writer

SID = "ab500000-0000-4000-8000-000000000050"


@pytest.mark.parametrize("command, kind", [
    ("pkill -f sglang.launch_server", "stop_process"),
    ("ssh gpu01 'kill -9 4242'", "stop_process"),
    ("sudo killall -9 python3", "stop_process"),
    ("fuser -k 30000/tcp", "stop_process"),
    ("fuser -vk 30000/tcp", "stop_process"),
    ("fuser --kill -n tcp 30000", "stop_process"),
    ("fuser -v 30000/tcp", "other"),  # only names the processes
    ("ps aux | grep [s]glang", "process"),
    ("pgrep -af launch_server", "process"),
])
def test_kinds_of_process_commands(command: str, kind: str) -> None:
    assert categorize(command) == kind


def _session(tmp_path: Path, *, kills: int) -> Path:
    w = _Writer(SID, None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 on gpu01 serves 55 tok/s, baseline 90 tok/s. Find out why.")
    w.bash("ssh gpu01 'python -m sglang.launch_server --model-path /m --port 30000 > s.log 2>&1'",
           "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", exit_code=1,
           text="Relaunching with the fixed steps.")
    for _ in range(kills):
        w.bash("ssh gpu01 'kill -9 4242'", "bash: line 1: kill: (4242) - No such process", exit_code=1,
               text="An old server still holds the GPU memory. Stopping it.")
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return path


def test_the_pivot_to_a_kill_says_stopping(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, kills=1))
    assert [(c.category, c.host) for c in a.commands] == [("launch_server", "gpu01"), ("stop_process", "gpu01")]
    assert [(p.from_category, p.to_category) for p in a.pivots] == [("launch_server", "stop_process")]
    assert "moved from launching the server to stopping processes: kill -9 4242 (on gpu01)" in a.pivots[0].summary
    assert "Inspecting processes" not in render_postmortem(a, "md")


def test_a_failing_kill_again_and_again_is_no_poll(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, kills=3))
    assert [lp.count for lp in a.loops] == [3]
    md = render_postmortem(a, "md")
    assert "The same failing command ran 3 times" in md
    assert "A poll failed" not in md
    assert a.segments[-1].title == "Stopping processes (pivot after [msg 2]) on gpu01"
