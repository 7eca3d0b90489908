"""`drafter layout` when another layout leads the configured one by fewer than LAYOUT_MIN_GAIN
(5) rows: the verdict read "configured layout slots [0, 1, 2] scores best (step-0 accuracy
0.494), but slots [0, 2, 1] scores 0.506: 2 more of 156 rows right than the configured",
naming as best the layout that scored less. It now says the two tie within noise. A
configured layout that does lead (by under 5 rows) keeps "scores best"."""

from __future__ import annotations

from spec_debug.eagle3.layout import _verdict


def _said(configured_rows: int, runner_rows: int, rows: int = 156) -> str:
    scores = {(0, 1, 2): configured_rows / rows, (0, 2, 1): runner_rows / rows,
              (0, 2, 3): 0.44}
    best = max(scores, key=lambda layout: scores[layout])
    lead = configured_rows - runner_rows
    return _verdict(best, (0, 1, 2), scores, [], lambda layout: None, all_read=True,
                    unconfirmed={"lead": lead, "rows": rows, "runner_up": [0, 2, 1],
                                 "all_read": True})


def test_a_runner_up_two_rows_ahead_is_a_tie_not_the_configured_scoring_best():
    verdict = _said(77, 79)  # 0.494 vs 0.506 of 156 rows, as the long-sample dump scored
    assert "scores best" not in verdict, verdict
    assert verdict.startswith(
        "configured layout slots [0, 1, 2] (step-0 accuracy 0.494) and slots [0, 2, 1] (0.506) "
        "tie within noise: slots [0, 2, 1] gets 2 more of 156 rows right, too few to tell the "
        "layouts apart (a sign test wants 5 all one way), so this dump does not confirm the "
        "draft's layout; every sample of the dump was probed"), verdict


def test_a_configured_layout_that_leads_by_a_few_rows_still_scores_best():
    verdict = _said(79, 77)
    assert verdict.startswith(
        "configured layout slots [0, 1, 2] scores best (step-0 accuracy 0.506), but slots "
        "[0, 2, 1] scores 0.494: 2 more of 156 rows right, too few"), verdict
    assert _said(78, 78).startswith("configured layout slots [0, 1, 2] scores best")
    assert "as many of 156 rows right" in _said(78, 78)
