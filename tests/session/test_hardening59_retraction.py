"""analyze: "I was wrong about ..." takes the agent's guess back (rules it out).

"It might be the CUDA graph capture for the draft that pushes memory over", later "Actually, I
was wrong earlier: the OOM was not the CUDA graph capture; the log shows the KV cache reservation
did it." The retraction settled nothing ("was not the CUDA graph capture" is no "not the cause"),
and the postmortem listed the guess the agent had taken back as an open question. "I was wrong"
now rules out the open guess it names (or, naming nothing, the newest); one about something else
("I was wrong about the port number"), "I was wrong to ..." and a question settle none. "My
hypothesis was wrong" (was a new open hypothesis) and "My guess was wrong" take back the newest.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import outcome
from tests.session.test_hardening48_stated_root_cause import _session

GRAPHS = "It might be the CUDA graph capture for the draft that pushes memory over."
LAYERS = "My guess is that the aux hidden-state layer ids in the draft config are wrong."


@pytest.mark.parametrize("said", [
    "Actually, I was wrong earlier: the OOM was not the CUDA graph capture; the KV cache reservation did it.",
    "Scratch that, I was wrong about the CUDA graph capture.",
])
def test_a_retraction_rules_the_guess_out(tmp_path, said):
    a = _session(tmp_path, LAYERS, GRAPHS, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(LAYERS, "open"), (GRAPHS, "ruled_out")]


def test_a_retraction_naming_an_older_guess_rules_that_one_out(tmp_path):
    said = "Scratch that, I was wrong about the aux layer ids: they match the target."
    a = _session(tmp_path, LAYERS, GRAPHS, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(LAYERS, "ruled_out"), (GRAPHS, "open")]


@pytest.mark.parametrize("said", [
    "I was wrong about the port number: the server listens on 30001.",
    "I was wrong to restart the server so early.",
    "Was I wrong about the CUDA graph capture?",
])
def test_other_retractions_settle_nothing(tmp_path, said):
    a = _session(tmp_path, GRAPHS, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(GRAPHS, "open")]


def test_outcome_words():
    assert outcome("I was wrong earlier.") == ("ruled_out", "I was wrong earlier.")
    assert outcome("If I was wrong about the layers, the d2t map is next.") is None


@pytest.mark.parametrize("said", [
    "My hypothesis was wrong.",
    "Actually, I was wrong.",
    "My guess was wrong, scratch that.",
])
def test_a_retraction_naming_nothing_rules_out_the_newest(tmp_path, said):
    # ("My hypothesis was wrong" was a new open hypothesis of its own)
    a = _session(tmp_path, LAYERS, GRAPHS, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(LAYERS, "open"), (GRAPHS, "ruled_out")]
