"""`drafter layout` on a speculators 0.9.0 draft of random weights (norms moved off 1.0, so
nothing says it is untrained) and 16 vLLM-style samples of its verifier: the best layout gets
28 of 624 step-0 rows right, always predicting the most frequent target token 72. The
"unconfirmed" verdict (the best leads the configured by under CLEAR_MARGIN) discarded the
no-skill one, so the user was told to "probe more samples", which cannot help a draft that
predicts nothing. A draft clearly under the constant guess is now said to have no skill; one
within chance of it keeps the hedged verdicts (test_hardening26_drafter_layout_noise)."""

from __future__ import annotations

import pytest

from tests.eagle3._world import drafter_json, torch  # noqa: F401

from spec_debug.diagnose.checks.drafter import check_layout
from spec_debug.eagle3.layout import clearly_below
# the same world: a random draft, norms moved off 1.0, 16 vLLM-style samples of its verifier
from tests.eagle3.test_hardening62_close_runner_up import moved_world  # noqa: F401


def test_a_draft_far_under_the_constant_guess_is_not_sent_to_probe_more_samples(moved_world):
    out = drafter_json(moved_world, moved_world / "data", "layout")
    best = out["ranked"][0]
    # the case: the hedged "unconfirmed" verdict applies (a close runner-up) ...
    assert out["unconfirmed_rows"] is not None and best["layout"] != out["configured"]
    skill = out["no_skill"]
    assert skill is not None, out["verdict"]
    rows = skill["rows"]
    assert skill["best_rows"] == round(best["full_accuracy0"] * rows)
    # ... and the best layout is far under always predicting one token (28 vs 72 of 624)
    assert skill["constant_rows"] - skill["best_rows"] >= 2.5 * (
        skill["constant_rows"] + skill["best_rows"]) ** 0.5
    assert out["verdict"].startswith(
        f"no layout can be judged on this dump: the best, slots {best['layout']}, gets "
        f"{skill['best_rows']} of {rows} step-0 rows right ({best['full_accuracy0']:.3f}) "
        f"against {skill['constant_rows']} for always predicting the dump's most frequent "
        f"target token (id {skill['target_id']})"), out["verdict"]
    assert "probe more samples" not in out["verdict"]
    assert "does not confirm the draft's layout" not in out["verdict"]
    assert check_layout(out) == []


@pytest.mark.parametrize("best_rows, constant_rows, clear", [
    (28, 72, True),    # the random draft above: 44 short, 2.5 sd = 25
    (14, 26, False),   # 12 short: 2.5 sd = 15.8, within chance
    (0, 4, False),     # under LAYOUT_MIN_GAIN rows short (a few dozen rows)
    (0, 6, False),     # 6 short, 2.5 sd = 6.1
    (0, 7, True),      # 7 short, 2.5 sd = 6.6
])
def test_clearly_below_wants_rows_and_standard_deviations(best_rows, constant_rows, clear):
    assert clearly_below({"best_rows": best_rows, "constant_rows": constant_rows}) is clear
    assert clearly_below(None) is False
