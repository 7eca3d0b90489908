"""The layout step keeps the probe's norm_before_residual check in its facts: the report and
the checks see that config.json's flag does not fit the weights, not only the verdict text."""

from __future__ import annotations

from spec_debug.diagnose.steps import layout_step


def test_norm_before_residual_check_reaches_the_facts():
    check = {"config": False, "accuracy0": 0.04, "flipped_accuracy0": 0.61, "ranked_with": True}
    report = {"best": [0, 1, 2], "configured": [0, 1, 2], "verdict": "config.json's norm_before_residual=false ...",
              "ranked": [{"layout": [0, 1, 2], "full_accuracy0": 0.61}], "norm_before_residual_check": check}
    facts = layout_step.parse({"layout": report})[layout_step.NS]
    assert facts["training"]["norm_before_residual_check"] == check
    assert facts["serving"] is None
