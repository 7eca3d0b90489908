"""A total throughput stated as the run without speculation is still its baseline.

Found by running `analyze` before and after fdd31e2 ("total throughput of" read as
total_throughput, never compared) on the same words: a user who reports both runs' totals
("Total throughput 1800 tok/s without speculation, 1500 tok/s with EAGLE3") lost the
baseline and the SD501 the slowdown is, while the EAGLE3 reading stayed a throughput.
"""

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

SESSION = "7e1a0000-0000-4000-8000-00000000bd19"


def _sd501(tmp_path, report: str) -> list[str]:
    w = _Writer(SESSION, None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt(report)
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return [line for f in analyze_path(path).findings if f.code == "SD501" for line in f.evidence]


def test_a_reported_slowdown_in_total_throughput_is_sd501(tmp_path):
    assert _sd501(tmp_path, "EAGLE3 is slower for us. Total throughput 1800 tok/s without speculation, "
                            "1500 tok/s with EAGLE3.") == ["[msg 0] 1500 tok/s measured vs 1800 tok/s baseline"]


def test_the_total_of_the_run_without_speculation_in_its_own_clause_is_the_baseline(tmp_path):
    assert _sd501(tmp_path, "At concurrency 64, without speculation the total throughput is 1800 tok/s; "
                            "with EAGLE3 it is 1500 tok/s.") == ["[msg 0] 1500 tok/s measured vs 1800 tok/s baseline"]


def test_a_total_beside_a_per_user_reading_is_still_no_baseline(tmp_path):
    # the other side of the rule: a total no run without speculation states is never compared
    assert _sd501(tmp_path, "In single-user mode (BS=1), it reaches 279.27 tok/s per user, for a total "
                            "throughput of 1,727.62 tok/s.") == []
