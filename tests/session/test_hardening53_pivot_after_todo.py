"""analyze: a to-do update or a `sleep` between an error and the next command hides no change of approach.

The launch on gpu01 runs out of memory; the agent updates its to-do list (Claude Code's TodoWrite,
which agents call after most setbacks) or waits (`sleep 5`), then looks at the GPUs' memory. The
first call after the error ended the wait for the next step, and a to-do list or a sleep is no
change of approach: the move from launching the server to checking the GPUs was never recorded
(no pivot, no phase). The next real step now decides; an edit still is the ordinary fix-and-retry.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

OOM = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
LAUNCH = "ssh gpu01 'python -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE3'"
SMI = "ssh gpu01 'nvidia-smi --query-gpu=memory.used --format=csv'"


def _analyze(tmp_path, between: str, then: str = SMI):
    w = _Writer("53530000-0000-4000-8000-0000000000a1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Start the EAGLE-3 server on gpu01.")
    _, failed = w.bash(LAUNCH, OOM, exit_code=1)
    if between == "todo":
        w.tool("TodoWrite", {"todos": [{"content": "check GPU memory", "status": "in_progress"}]}, "ok")
    elif between == "sleep":
        w.bash("sleep 5", "")
    elif between == "edit":
        w.tool("Edit", {"file_path": "/root/launch.sh", "old_string": "0.9", "new_string": "0.8"}, "ok")
    step, _ = w.bash(then, "memory.used [MiB]\n80000 MiB")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path), failed, step


@pytest.mark.parametrize("between", ["todo", "sleep", "none"])
def test_the_change_after_the_error_is_a_pivot(tmp_path, between):
    a, failed, step = _analyze(tmp_path, between)
    assert [(p.seq, p.trigger_seq, p.from_category, p.to_category) for p in a.pivots] == [
        (step, failed, "launch_server", "gpu_status")]
    assert any(s.start_seq == step and "pivot after" in s.title for s in a.segments)


def test_an_edit_then_another_command_is_still_fix_and_retry(tmp_path):
    a, _, _ = _analyze(tmp_path, "edit")
    assert a.pivots == []


def test_a_todo_then_the_same_launch_again_is_no_pivot(tmp_path):
    a, _, _ = _analyze(tmp_path, "todo", then=LAUNCH.replace("EAGLE3'", "EAGLE3 --mem-fraction-static 0.8'"))
    assert a.pivots == []
