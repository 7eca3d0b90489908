"""SD402 as `spec-debug demo` shows it: the served layers [2, 4, 6] score far below, and the
probe's best layout [1, 2, 4] leads the draft's configured [0, 2, 4] by 1 row of 376, which its
verdict calls a tie within noise. The finding said only "best layout [1, 2, 4]", so a newcomer
read that as what the drafter fits, next to SD201 telling them to serve [0, 2, 4]."""

from __future__ import annotations

from spec_debug.diagnose.checks.drafter import check_layout
from spec_debug.diagnose.steps.layout_step import _by_layer_ids

TIE = ("the draft's configured layout [0, 2, 4]: 76.6%, 1 of 376 rows behind the best: too few "
       "to tell the two apart, so the configured layout is the one to serve")


def _report(configured_acc, unconfirmed=None, unclear=None):
    ids = list(range(10))
    ranked = sorted([([1, 2, 4], 0.7686), ([0, 2, 4], configured_acc), ([0, 1, 4], 0.70), ([2, 4, 6], 0.6835)],
                    key=lambda row: -row[1])
    return {"ranked": [{"layout": slots, "layer_ids": slots, "full_accuracy0": acc} for slots, acc in ranked],
            "best": ranked[0][0], "configured": [0, 2, 4], "dump_layer_ids": ids, "embedding_slots": [0],
            "slot_checks": [{"slot": s, "layer_id": s, "is_embedding": s == 0} for s in ids],
            "verdict": "", "unclear_rows": unclear, "unconfirmed_rows": unconfirmed}


def test_the_demo_says_its_configured_layout_ties_the_best():
    report = _report(0.7660, unconfirmed={"lead": -1, "rows": 376, "runner_up": [1, 2, 4], "all_read": False})
    [finding] = check_layout(_by_layer_ids(report), [2, 4, 6], root_causes=["SD201"])
    assert finding.evidence[:3] == ["best layout [1, 2, 4]: full_accuracy[0] 76.9%",
                                    "served layout [2, 4, 6]: 68.3%", TIE]


def test_a_best_layout_ahead_by_too_few_rows_also_names_the_configured_one():
    report = _report(0.7660, unclear={"gained": 1, "rows": 376})
    [finding] = check_layout(report, [2, 4, 6])
    assert TIE in finding.evidence


def test_a_configured_layout_clearly_behind_is_not_called_a_tie():
    [finding] = check_layout(_by_layer_ids(_report(0.70)), [2, 4, 6])
    assert not any("configured layout" in e for e in finding.evidence)
