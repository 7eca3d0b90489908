"""Round 31: a reading's row was looked up at its digits inside another number.

"EAGLE3 gives 1900 tok/s at bs=64 and 90 tok/s at bs=1": baselines._row_said (and row_key's
clause cut) found "90" inside "1900", so the 90 tok/s took bs=64's row and SD501 compared it with
the bs=64 baseline (2000 tok/s), not bs=1's (100 tok/s). Rows as SpecForge#339 states them
(https://github.com/sgl-project/SpecForge/issues/339)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.session.test_hardening18_prose_baselines import _readings, _sd501


def test_a_run_is_compared_with_its_own_rows_baseline_when_its_digits_are_in_another_number(tmp_path: Path):
    evidence = _sd501(tmp_path, "Baseline at bs=1: 100 tok/s; baseline at bs=64: 2000 tok/s",
                      "EAGLE3 gives 1900 tok/s at bs=64 and 90 tok/s at bs=1")
    # before: "[msg 1] 90 tok/s measured vs 2000 tok/s baseline [msg 0]"
    assert evidence == ["[msg 1] 1900 tok/s measured vs 2000 tok/s baseline [msg 0]",
                        "[msg 1] 90 tok/s measured vs 100 tok/s baseline [msg 0]"]


@pytest.mark.parametrize("text, rows", [
    ("Baseline 154.8 tok/s at bs=1 and 54.8 tok/s at bs=4 with EAGLE-3",
     [("baseline_throughput", 154.8, "1"), ("throughput", 54.8, "4")]),
    ("EAGLE3: 1900 tok/s at bs=64, 90 tok/s at bs=1", [("throughput", 1900.0, "64"), ("throughput", 90.0, "1")]),
    ("bs=64 gives 1900 tok/s and bs=1 gives 90 tok/s", [("throughput", 1900.0, "64"), ("throughput", 90.0, "1")]),
])
def test_the_row_of_a_number_is_that_of_the_number_itself(text, rows):
    assert _readings(text) == rows


def test_vs_with_a_full_stop_ends_no_sentence(tmp_path: Path):
    """"At bs=1 EAGLE-3 is slower than the baseline: 40 tok/s vs. 60 tok/s without speculation":
    the sentence was cut at "vs. ", so the 60 tok/s baseline lost its row (bs=1) and SD501 compared
    a bs=64 run's 50 tok/s with it."""
    said = "At bs=1 EAGLE-3 is slower than the baseline: 40 tok/s vs. 60 tok/s without speculation."
    assert ("baseline_throughput", 60.0, "1") in _readings(said)  # before: row None
    evidence = _sd501(tmp_path, said, "At bs=64 EAGLE-3 gives 50 tok/s")
    assert not [line for line in evidence if "50 tok/s measured" in line]  # before: "50 ... vs 60 tok/s baseline"
    # unchanged: a full stop after another word ends the sentence
    assert _readings("Normal decoding at bs=1: 156 tok/s. Then with EAGLE-3 I get 300 tok/s") == [
        ("baseline_throughput", 156.0, "1"), ("throughput", 300.0, None)]
