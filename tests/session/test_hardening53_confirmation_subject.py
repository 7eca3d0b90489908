"""analyze: a confirmation is of the hypothesis it is about, not of the newest whatever it says.

In the incident story the agent guesses at [msg 37] "The root cause is likely this hidden-state
format mismatch between training and serving", later at [msg 4401] "The issue is that my code
computes attn_input (the normed version) before the concat", then says "Confirmed: the draft
weights are fine; the serving path is the problem." That outcome names nothing of the attn_input
guess, yet it settled it (the newest): the postmortem showed the attn_input guess confirmed by a
sentence about the weights and the serving path. An outcome naming subjects of its own, none of
the newest guess's and some of an older guess's, now settles the older one.
"""

from __future__ import annotations

from tests.session.test_hardening48_stated_root_cause import _session

FORMAT = "The root cause is likely this hidden-state format mismatch between training and serving."
ATTN = "The issue is that my code computes attn_input (the normed version) before the concat."
CONFIRMED = "Confirmed: the draft weights are fine; the serving path is the problem."


def test_an_outcome_about_an_older_guess_settles_that_one(tmp_path):
    a = _session(tmp_path, FORMAT, ATTN, CONFIRMED)
    assert [(h.text, h.status) for h in a.hypotheses] == [(FORMAT, "confirmed"), (ATTN, "open")]
    assert a.hypotheses[0].outcome == CONFIRMED


def test_a_plain_that_fixed_it_still_settles_the_newest(tmp_path):
    a = _session(tmp_path, FORMAT, ATTN, "That fixed it: 96.8 tok/s against the 90 tok/s baseline.")
    # (ATTN is about the agent's own test code, which the served throughput never ran: the
    # newest guess about anything else is the one settled, test_hardening59_own_code_guess)
    assert [(h.text, h.status) for h in a.hypotheses] == [(FORMAT, "confirmed"), (ATTN, "open")]
    a = _session(tmp_path, ATTN, FORMAT, "That fixed it: 96.8 tok/s against the 90 tok/s baseline.")
    assert [(h.text, h.status) for h in a.hypotheses] == [(ATTN, "open"), (FORMAT, "confirmed")]


def test_an_outcome_in_other_words_with_one_guess_open_still_settles_it(tmp_path):
    suspect = "I suspect the vocab mapping of the new draft."
    a = _session(tmp_path, suspect, "Confirmed: d2t holds absolute ids, not offsets.")
    assert [(h.text, h.status) for h in a.hypotheses] == [(suspect, "confirmed")]


def test_the_story_attn_input_guess_is_not_confirmed_by_the_weights_sentence():
    from tests.session.incident_story import analyzed_story
    _, a = analyzed_story()
    attn = next(h for h in a.hypotheses if h.seq == 4401)
    assert attn.outcome_seq != 4410
