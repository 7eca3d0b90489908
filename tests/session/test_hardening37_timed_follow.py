"""Agents watch a log for a while with ``timeout 20 tail -f /var/log/sglang.log``: coreutils
``timeout`` ends the follow and exits 124, which is how such a watch always ends. Each was read as
a failed command with a "timed out" error, a trigger for a change of approach, and three watches a
loop of failing retries in the postmortem. A 124 from a follow under ``timeout`` that ends the
line is no failure now; a benchmark under ``timeout`` that exits 124 still is."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.timeout_limit import timed_follow_ends_line
from tests.session.incident_story import _Writer

SID = "ab370000-0000-4000-8000-000000000009"
DECODE = ("[2026-03-02 08:10:00 TP0] Decode batch, #running-req: 1, #token: 900, token usage: 0.01, accept len: 1.02, "
          "accept rate: 0.51, cuda graph: True, gen throughput (token/s): 54.80, #queue-req: 0")


@pytest.mark.parametrize("command, ends", [
    ("timeout 20 tail -f /var/log/sglang.log", True),
    ("cd /var/log && sudo timeout 30s journalctl -fu sglang", True),
    ("timeout 10 watch -n1 nvidia-smi", True),
    ("timeout 600 python -m sglang.bench_serving --backend sglang", False),
    ("timeout 20 tail -f a.log; python bench.py", False),
    ("timeout 60 tail -f log | grep 'accept len'", False),  # the status is grep's
])
def test_which_lines_end_in_a_timed_follow(command: str, ends: bool) -> None:
    assert timed_follow_ends_line(command) is ends


def _analyze(tmp_path: Path, command: str) -> dict:
    w = _Writer(SID, None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("watch the EAGLE-3 log on gpu01")
    for _ in range(3):
        w.bash(f"ssh gpu01 '{command}'", DECODE, exit_code=124)
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(w.lines) + "\n")
    return analyze_path(path).to_json()


def test_three_timed_watches_are_no_failures_and_no_loop(tmp_path: Path) -> None:
    doc = _analyze(tmp_path, "timeout 20 tail -f /var/log/sglang.log")
    assert [(c["exit_code"], c["is_error"]) for c in doc["commands"]] == [(124, False)] * 3
    assert (doc["errors"], doc["loops"]) == ([], [])
    assert [m["value"] for m in doc["metrics"] if m["name"] == "throughput"] == [54.8] * 3


def test_a_benchmark_cut_by_its_timeout_still_failed(tmp_path: Path) -> None:
    doc = _analyze(tmp_path, "timeout 600 python -m sglang.bench_serving --backend sglang")
    assert [(c["exit_code"], c["is_error"]) for c in doc["commands"]] == [(124, True)] * 3
    assert [e["kind"] for e in doc["errors"]] == ["timeout"] * 3 and len(doc["loops"]) == 1
