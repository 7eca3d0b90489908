"""Postmortem of a Claude Code session whose clock was set back mid-session (resumed on a host
whose clock ran two hours behind): the timeline is ordered by time, so the fix's benchmark and
the error after the jump came first, before the user's report, and Detection's "First error"
was the one after the jump. An agent's own messages are in the order it wrote them: the
timeline and the first error now keep that order (the times are shown as written)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view

_BENCH = "ssh gpu01 'python3 -m sglang.bench_serving --backend sglang --num-prompts 200 --max-concurrency 1'"


def _result(tput: float) -> str:
    return ("============ Serving Benchmark Result ============\nBackend:                                 sglang\n"
            "Max request concurrency:                 1\nSuccessful requests:                     200\n"
            f"Output token throughput (tok/s):         {tput}\n==================================================")


def _write(folder: Path) -> Path:
    sid = "5e1a0000-0000-4000-8000-0000000c10c5"
    runs = [(_BENCH, _result(54.8), "10:00:0{}"),
            ("ssh gpu01 'python3 /root/check.py'", "Traceback (most recent call last):\n  File \"/root/check.py\", "
             "line 3, in <module>\nRuntimeError: draft vocab mismatch", "10:01:0{}"),
            # resumed on a laptop whose clock is two hours behind
            ("ssh gpu01 'python3 /root/check_layers.py'", "Traceback (most recent call last):\n  File "
             "\"/root/check_layers.py\", line 9, in <module>\nValueError: aux layer ids [2, 16, 29] not captured",
             "08:02:0{}"),
            (_BENCH, _result(98.4), "08:05:0{}")]

    def line(uuid: str, role: str, content, ts: str) -> dict:
        return {"type": role, "uuid": uuid, "parentUuid": None, "sessionId": sid, "isSidechain": False,
                "timestamp": f"2026-01-10T{ts}.000Z", "cwd": "/work", "message": {"role": role, "content": content}}

    lines = [line("u0", "user", "EAGLE-3 on gpu01 is slow, please look.", "09:59:00")]
    for i, (command, output, ts) in enumerate(runs):
        lines.append(line(f"a{i}", "assistant", [{"type": "tool_use", "id": f"t{i}", "name": "Bash",
                                                  "input": {"command": command}}], ts.format(1)))
        lines.append(line(f"r{i}", "user", [{"type": "tool_result", "tool_use_id": f"t{i}", "content": output,
                                             "is_error": "Traceback" in output}], ts.format(2)))
    path = folder / f"{sid}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def test_the_timeline_keeps_the_agents_order_across_a_clock_set_back(tmp_path: Path) -> None:
    view = postmortem_view(analyze_path(_write(tmp_path)))
    rows = [(r["seq"], r["kind"], r["timestamp"]) for r in view["timeline"]]
    assert rows == [
        (0, "prompt", "2026-01-10T09:59:00.000Z"), (0, "phase", "2026-01-10T09:59:00.000Z"),
        (2, "metric", "2026-01-10T10:00:02.000Z"), (4, "error", "2026-01-10T10:01:02.000Z"),
        (6, "error", "2026-01-10T08:02:02.000Z"), (8, "metric", "2026-01-10T08:05:02.000Z")]


def test_the_first_error_is_the_first_the_agent_hit(tmp_path: Path) -> None:
    view = postmortem_view(analyze_path(_write(tmp_path)))
    assert [x for x in view["detection"] if x.startswith("First error")] == [
        "First error: RuntimeError: draft vocab mismatch [msg 4] (main)."]
