"""analyze: a root cause the agent states as established is no new open hypothesis.

An agent closes a session with "Fixed. Root cause: d2t held absolute ids ..." (or "The root
cause was ...", "Root cause found: ...") after its suspect was confirmed. The words "root cause"
made that summary a hypothesis of its own, left open to the end of the session: the JSON's
hypotheses[] and the postmortem's timeline showed the cause just fixed as still unsettled. A
stated cause now settles the open suspect it names, or, where none is open, is no guess at all.
A hedged one ("the root cause might be ...") stays a hypothesis.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

_CONFIG = ("ssh gpu01 'cat /models/e3/config.json'", '{"draft_vocab_size": 32000}')


def _session(tmp_path, *texts: str):
    w = _Writer("48480000-0000-4000-8000-0000000000c7", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 accept length is about 1.0 on gpu01.")
    for text in texts:
        w.bash(*_CONFIG, text=text)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


SUSPECT = "I suspect the vocab map (d2t/t2d) of the new draft."
CONFIRMED = "That confirms it: d2t[1000:1006] holds absolute ids, not offsets."


@pytest.mark.parametrize("summary", [
    "Root cause: the export wrote the draft's d2t as absolute target ids instead of offsets.",
    "The root cause was the export writing d2t as absolute target ids instead of offsets.",
    "Root cause found: the export wrote d2t as absolute target ids.",
])
def test_a_summary_after_the_confirmation_opens_nothing(tmp_path, summary):
    a = _session(tmp_path, SUSPECT, CONFIRMED, "Fixed. " + summary)
    assert [(h.text, h.status) for h in a.hypotheses] == [(SUSPECT, "confirmed")]


def test_a_stated_cause_settles_the_open_suspect_it_names(tmp_path):
    said = "Root cause: the draft's d2t holds absolute target ids instead of offsets."
    a = _session(tmp_path, SUSPECT, said)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(SUSPECT, "confirmed", said)]


def test_a_hedged_root_cause_is_still_a_guess(tmp_path):
    guess = "The root cause might be the draft's d2t table."
    a = _session(tmp_path, guess)
    assert [(h.text, h.status) for h in a.hypotheses] == [(guess, "open")]


def test_a_cause_stated_first_is_the_guess_that_fix_confirms(tmp_path):
    # nothing suspected or settled before it: the statement is the agent's claim, which "That
    # fixed it" then confirms
    found = "Found the root cause: the draft's d2t holds absolute target ids."
    a = _session(tmp_path, found, "That fixed it: accept length is 3.2 now.")
    assert [(h.text, h.status) for h in a.hypotheses] == [(found, "confirmed")]


def test_a_new_cause_after_an_unrelated_confirmation_is_a_guess(tmp_path):
    side = "I suspect the CUDA graph capture."
    a = _session(tmp_path, side, "Confirmed: CUDA graph capture was off.",
                 "Root cause: the vocab map holds absolute ids.")
    assert [(h.text, h.status) for h in a.hypotheses] == [
        (side, "confirmed"), ("Root cause: the vocab map holds absolute ids.", "open")]
