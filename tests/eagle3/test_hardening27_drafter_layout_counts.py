"""The layout probe's "N more of M rows right" are fields of its report (unclear_rows), and
SD402 reads them there: it parsed them back from the verdict's sentence with a regex, so a
verdict worded or cut otherwise lost the counts ("a few rows more")."""

from __future__ import annotations

from spec_debug.diagnose.checks.drafter import UNCLEAR_LAYOUT, check_layout
from spec_debug.eagle3.layout import unclear_rows


def test_the_counts_are_the_reports_not_the_sentences():
    # two aux slots saved swapped, two samples: 0.704 vs 0.593 on 27 rows (hardening26)
    report = {"ranked": [{"layout": [0, 2, 1], "full_accuracy0": 0.704},
                         {"layout": [0, 1, 2], "full_accuracy0": 0.593}],
              "configured": [0, 1, 2], "unclear_rows": {"gained": 3, "rows": 27},
              "verdict": f"{UNCLEAR_LAYOUT}: slots [0, 2, 1] scores 0.704 vs 0.593"}
    [finding] = check_layout(report)
    assert finding.code == "SD402" and finding.severity == "warning"
    assert any(e.startswith("3 more of 27 rows right: too few to tell") for e in finding.evidence)


def test_a_record_without_the_counts_still_reads_as_unclear():
    report = {"ranked": [{"layout": [0, 2, 1], "full_accuracy0": 0.704},
                         {"layout": [0, 1, 2], "full_accuracy0": 0.593}],
              "configured": [0, 1, 2], "verdict": f"{UNCLEAR_LAYOUT}: ..."}
    [finding] = check_layout(report)
    assert finding.severity == "warning"
    assert any(e.startswith("a few rows more: too few") for e in finding.evidence)


def test_unclear_rows_counts_the_lead_in_rows():
    scores = {(0, 2, 1): 0.704, (0, 1, 2): 0.593}
    assert unclear_rows((0, 2, 1), (0, 1, 2), scores, 27.0) == {"gained": 3, "rows": 27}
    assert unclear_rows((0, 2, 1), (0, 1, 2), {(0, 2, 1): 0.690, (0, 1, 2): 0.548}, 42.0) is None
    assert unclear_rows((0, 1, 2), (0, 1, 2), scores, 27.0) is None


def test_the_layout_step_keeps_the_counts_for_sd402():
    from spec_debug.diagnose.steps.layout_step import NS, parse
    report = {"ranked": [{"layout": [0, 2, 1], "layer_ids": None, "full_accuracy0": 0.7}],
              "configured": [0, 1, 2], "unclear_rows": {"gained": 3, "rows": 27}}
    assert parse({"layout": report})[NS]["training"]["unclear_rows"] == {"gained": 3, "rows": 27}
