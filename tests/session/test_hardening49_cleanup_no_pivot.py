"""analyze: stopping the test server the agent started is no change of approach.

After a benchmark of its own test server (port 30001) came out no better, the agent killed
that server and then read the draft's config. The kill was taken for the change of approach
("moved from benchmarking to inspecting processes: pkill -f "port 30001""), so the real one,
the config read, was no pivot, and distill, which leaves the kill out, lost that step too. A
command that stops a server the agent itself started is now cleanup: the pivot is what the
agent does next. Killing the server it was sent to investigate still is a change.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer
from tests.session.test_hardening49_stopped_test_server import PRODUCTION, READ_CONFIG, TEST_BENCH, TEST_LAUNCH


def _pivots(tmp_path, *runs):
    w = _Writer("49d40000-0000-4000-8000-0000000049d4", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 on gpu01 serves 55 tok/s, baseline 90 tok/s. Find out why.")
    seqs = [w.bash(command, output, text=text)[0] for command, output, text in runs]
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return [(p.seq, p.trigger_seq, p.to_category) for p in analyze_path(path).pivots], seqs


def test_killing_its_own_test_server_is_cleanup_and_the_next_command_the_pivot(tmp_path):
    pivots, seqs = _pivots(tmp_path, PRODUCTION, TEST_LAUNCH, TEST_BENCH,
                           ("ssh gpu01 'pkill -f \"port 30001\"'", "", "No better. Stopping the test server."),
                           READ_CONFIG)
    assert pivots == [(seqs[4], seqs[2] + 1, "inspect_config")]


def test_killing_the_server_under_investigation_is_still_a_change(tmp_path):
    pivots, seqs = _pivots(tmp_path, PRODUCTION, (f"{PRODUCTION[0]}", PRODUCTION[1], "Again."),
                           ("ssh gpu01 'pkill -f sglang'", "", "No better. Stopping the server."),
                           READ_CONFIG)
    assert pivots == [(seqs[2], seqs[1] + 1, "stop_process")]
