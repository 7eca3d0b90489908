"""A reading after a label's number or beside a slash is still a reading (review of 13c15be).

13c15be dropped a number after "\\d:" (to skip a clock time's minutes, "12:30 tok/s") and one
after "word/" or before "/word" or ".word" (to skip a path, ".../eagle3_bs4/120tok/s.json").
Both were too broad: "bs1:120 tok/s, bs4:95 tok/s" (a sweep's compact summary), "gpu0:45 tok/s",
"80/120 tok/s", "w/120 tok/s", "120 tok/s/GPU", "120 tok/s/req" and "120 tok/s.Baseline ..." lost
their readings. A time's minutes are two digits under 60 after a bare hour; a path has all three
marks at once (a segment before the number, no space in the reading, a segment or an extension
after its unit).
"""

from spec_debug.session.metrics import extract_metrics


def _readings(text):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=True))


def test_a_labels_number_before_a_colon_is_no_hour():
    assert _readings("bs1:120 tok/s, bs4:95 tok/s") == [("throughput", 95.0), ("throughput", 120.0)]
    assert _readings("gpu1:45 tok/s") == [("throughput", 45.0)]
    assert _readings("bs=8:45 tok/s") == [("throughput", 45.0)]


def test_a_slash_beside_a_reading_alone_is_no_path():
    assert _readings("baseline/eagle: 80/120 tok/s") == [("throughput", 120.0)]
    assert _readings("w/120 tok/s with EAGLE") == [("throughput", 120.0)]
    assert _readings("EAGLE3: 120 tok/s/GPU") == [("throughput", 120.0)]
    assert _readings("EAGLE3: 120 tok/s/req") == [("throughput", 120.0)]
    assert _readings("EAGLE3 reached 120 tok/s.Baseline was 80 tok/s.") == \
        [("baseline_throughput", 80.0), ("throughput", 120.0)]


def test_paths_and_clock_times_are_still_no_readings():
    assert _readings("results in /data/bench/eagle3_bs4/120tok/s.json") == []
    assert _readings("see runs/eagle3/54.8tok/s/summary.txt") == []
    assert _readings("logged at 2025-06-01 12:30 tok/s column was empty") == []
    assert _readings("at 9:45 tok/s dropped") == []
