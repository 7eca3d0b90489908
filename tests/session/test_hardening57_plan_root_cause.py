"""Plans that name "the root cause" or say what a reading suggests doing are no hypotheses:
"Let me check the server log to understand the root cause" and "This suggests we should rerun the
benchmark" were open guesses (the postmortem's Open questions listed them), as "to find the root
cause" no longer was."""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import hypotheses


@pytest.mark.parametrize("text", [
    "Let me check the server log to understand the root cause.",
    "To get to the root cause, I will read the log.",
    "I want to diagnose the root cause before relaunching.",
    "Let me verify the root cause with a dump.",
    "This suggests we should rerun the benchmark.",
    "This suggests that I should relaunch the server.",
])
def test_plans_are_no_hypotheses(text):
    assert hypotheses(text) == []


@pytest.mark.parametrize("text", [
    "This suggests the d2t map is stale.",
    "This suggests that the d2t map is stale.",
    "I think the root cause is the layer order.",
])
def test_guesses_stay(text):
    assert hypotheses(text) == [text]
