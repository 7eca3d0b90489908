"""Numbers that are no readings, though a throughput unit follows them.

- A path: "/data/bench/eagle3_bs4/120tok/s.json" was read as 120 tok/s (a result file named
  by its reading is the file, not a run the session measured).
- A time: "logged at 2025-06-01 12:30 tok/s column was empty" was read as 30 tok/s.
"""

from spec_debug.session.metrics import extract_metrics


def _readings(text):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=True))


def test_a_number_in_a_path_is_no_reading():
    assert _readings("results in /data/bench/eagle3_bs4/120tok/s.json") == []
    assert _readings("see runs/eagle3/54.8tok/s/summary.txt") == []
    # a reading next to a path is still one
    assert _readings("eagle3_bs4.json: 120 tok/s") == [("throughput", 120.0)]
    assert _readings("EAGLE3 gets 120 tok/s. Baseline is 90 tok/s.") == \
        [("baseline_throughput", 90.0), ("throughput", 120.0)]


def test_the_minutes_of_a_time_are_no_reading():
    assert _readings("logged at 2025-06-01 12:30 tok/s column was empty") == []
    assert _readings("bs=1: 120 tok/s") == [("throughput", 120.0)]


def test_one_users_share_after_its_unit_is_still_read():
    assert _readings("EAGLE3: 30 tok/s/user") == [("per_user_throughput", 30.0)]
