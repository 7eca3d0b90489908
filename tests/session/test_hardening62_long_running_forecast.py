"""analyze: "This could be a long-running benchmark…" is a forecast, not a guess at the fault.

"This could be slow" and "the build might be a while" were already forecasts of how an action
will go, but with an article and a noun after the adjective ("This could be a long-running
benchmark, so I will run it in the background", "It might be a lengthy download", "The sweep could
be a long one") the sentence counted as a hypothesis: the postmortem listed the agent's remark on
the wait as an open guess. An action's length named by "a long/lengthy/slow ... run/job/build/
benchmark/download/one" is now a forecast; a noun that is no action ("a slow path in the draft
kernel", "a large mismatch in the vocab map") or a reason after it keeps the guess.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import hypotheses
from tests.session.test_hardening48_stated_root_cause import _session

D2T = "I suspect the d2t map."


@pytest.mark.parametrize("said", ["This could be a long-running benchmark, so I will run it in the background.",
                                  "This could be a long-running benchmark\u2026", "It might be a lengthy download.",
                                  "This may be a slow build.", "The sweep could be a long one.",
                                  "That could be a very long wait."])
def test_a_forecast_is_no_guess(tmp_path, said):
    assert hypotheses(said) == []
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(D2T, "open")]


@pytest.mark.parametrize("said", ["It could be a slow path in the draft kernel.", "This could be a large mismatch in the vocab map.",
                                  "This could be a long-standing bug in the d2t export.",
                                  "It could be a slow run because the d2t map is stale.",
                                  "This could be a long-running benchmark, or the layer ids could be wrong."])
def test_a_fault_or_a_reason_stays_a_guess(said):
    assert hypotheses(said) == [said]
