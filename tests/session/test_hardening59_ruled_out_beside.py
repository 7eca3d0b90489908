"""analyze: a suspect ruled out beside a confirmation is ruled out, not confirmed.

"Confirmed: with num_speculative_tokens 3 the draft keeps up, 188.4 tok/s against 140. The CUDA
graph sizes were not the issue." told only its first outcome: it confirmed the agent's open guess
"Perhaps the CUDA graph capture sizes also matter" (the newest, named nowhere in the
confirmation), and the sentence that rules that guess out was lost. The postmortem showed the
CUDA graph guess confirmed. A ruled-out sentence in a confirmation's text now rules out the open
guess it names (and the confirmation names nothing of); the confirmation settles the rest.
"""

from __future__ import annotations

from spec_debug.session.reasoning import outcome
from tests.session.test_hardening48_stated_root_cause import _session

STEPS = "I suspect num_speculative_tokens 8 is far more than the draft can keep accurate."
GRAPHS = "Perhaps the CUDA graph capture sizes also matter, but first the token count."
FOUND = "Confirmed: with num_speculative_tokens 3 the draft keeps up, 188.4 tok/s against 140."
NOT_GRAPHS = "The CUDA graph sizes were not the issue."


def test_both_outcomes_of_the_text_are_told():
    assert outcome(f"{FOUND} {NOT_GRAPHS}") == ("confirmed", FOUND, NOT_GRAPHS)


def test_the_guess_ruled_out_beside_the_confirmation_is_ruled_out(tmp_path):
    a = _session(tmp_path, STEPS, GRAPHS, f"{FOUND} {NOT_GRAPHS}")
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [
        (STEPS, "confirmed", FOUND), (GRAPHS, "ruled_out", NOT_GRAPHS)]


def test_alone_the_unnamed_guess_is_ruled_out_not_confirmed(tmp_path):
    a = _session(tmp_path, GRAPHS, f"{FOUND} {NOT_GRAPHS}")
    assert [(h.text, h.status) for h in a.hypotheses] == [(GRAPHS, "ruled_out")]


def test_a_ruled_out_sentence_sharing_a_word_with_the_found_suspect_rules_nothing_of_it(tmp_path):
    d2t = "I suspect the draft's d2t map."
    found = "Confirmed: the d2t map of the draft holds absolute ids."
    a = _session(tmp_path, d2t, f"{found} The draft weights are not the issue.")
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(d2t, "confirmed", found)]
