"""distill: a step kept for a change of approach says what prompted it, not only where.

A step's why said "It was the first step of a change of approach after [msg 45]" or "Its result
(error) prompted a change of approach at [msg 4401]": the playbook's reader has no transcript at
hand to look up msg 45, and "error" says nothing of which. The why now names what prompted it,
as pivots[].summary says it: the reading ("throughput 63.5 tok/s not improving on 61.2, baseline
90"), the error ("UnboundLocalError: cannot access local variable 'attn_input' ...").
"""

from __future__ import annotations

from spec_debug.session.distill import distill_playbook


def _steps():
    from tests.session.incident_story import analyzed_story
    _, a = analyzed_story()
    return {s["provenance"]["seq"]: s for s in distill_playbook(a)["steps"] if "provenance" in s}


def test_the_first_step_of_a_change_names_the_reading_that_prompted_it():
    # the step is `ls ... | head`: its why then says that its status is head's
    # (test_hardening62_distill2_pipe_status), after the reason this test is about
    assert _steps()[47]["why"].split(" Its status is `head`'s")[0].endswith(
        "It was the first step of a change of approach after throughput 63.5 tok/s not improving on 61.2, "
        "baseline 90 [msg 45].")


def test_a_step_whose_error_prompted_a_change_names_the_error():
    assert _steps()[4399]["why"].startswith(
        "Its result (UnboundLocalError: cannot access local variable 'attn_input' where it is not associated with a "
        "value) prompted a change of approach at [msg 4401].")
