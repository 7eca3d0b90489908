"""A search for things that "might be relevant" is a plan, not a guess at a cause (seen in a real
Claude Code 2.1.39 session: "Now let me look for any additional JS hooks or components that might
be relevant." was listed as an open hypothesis)."""

from spec_debug.session.reasoning import hypotheses


def test_look_for_what_might_be_relevant_is_no_hypothesis():
    assert hypotheses("Now let me look for any additional JS hooks or components that might be relevant.") == []
    assert hypotheses("Let me search for config files which could be related to the slowdown.") == []


def test_check_whether_plan_stays_no_hypothesis():
    # consistent with "Let me check if ...": the question of a check claims no cause
    assert hypotheses("Let me check whether the d2t map might be the cause.") == []


def test_near_misses_stay_guesses():
    s = "The aux layer ids might be relevant."
    assert hypotheses(s) == [s]
    s = "Let me look for code that might be the cause of the slowdown."
    assert hypotheses(s) == [s]
    s = "I searched the logs, which might be relevant, and it could be the vocab mapping."
    assert hypotheses(s) == [s]
