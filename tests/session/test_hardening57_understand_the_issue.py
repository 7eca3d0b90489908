""""Now I understand the issue: the d2t map holds absolute ids" names the agent's suspect as "I see
the issue: ..." does, but was no hypothesis: the fix that followed ("That fixed it") confirmed
nothing and the postmortem had no hypothesis at all. It is one now; "Let me understand the
issue: ..." and "We need to understand the problem: ..." plan and stay none."""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import hypotheses
from tests.session.test_hardening48_stated_root_cause import _session

SAID = "Now I understand the issue: the d2t map holds absolute ids."


@pytest.mark.parametrize("text", [SAID, "I know the problem now: the layer ids are off by one."])
def test_a_suspect_understood_is_a_hypothesis(text):
    assert hypotheses(text) == [text]


@pytest.mark.parametrize("text", ["Let me understand the issue: first the logs.",
                                  "We need to understand the problem: why is it slow?", "I understand the issue."])
def test_plans_stay_none(text):
    assert hypotheses(text) == []


def test_the_fix_confirms_it(tmp_path):
    a = _session(tmp_path, SAID, "That fixed it: accept length 3.2 now.")
    assert [(h.text, h.status) for h in a.hypotheses] == [(SAID, "confirmed")]
