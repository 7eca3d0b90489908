"""analyze: a confirmation that the server is up settles no guess about the draft.

"I confirmed the server is listening on port 30000" is a step of the check the agent is making
(the server has to be up to be measured), said while it suspects the hidden-state layer order.
It named nothing of that guess, yet it settled it as the newest: the postmortem listed the layer
order as confirmed by a sentence about a port. A confirmation that a server, process, port or
GPU is up or free, naming nothing of the open guess, now settles none; one that names the guess
("the server is running with the wrong layer ids") and one in other words about the finding
("Confirmed: d2t holds absolute ids") still do.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import service_state
from tests.session.test_hardening48_stated_root_cause import _session

LAYERS = "I suspect the hidden-state layer order of the draft is wrong."


@pytest.mark.parametrize("said", [
    "I confirmed the server is listening on port 30000.",
    "Verified that the GPUs are idle before the benchmark.",
    "Confirmed the sglang server is now up and healthy.",
])
def test_a_server_state_settles_no_guess(tmp_path, said):
    a = _session(tmp_path, LAYERS, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(LAYERS, "open")]


def test_the_guess_is_still_settled_after_it(tmp_path):
    a = _session(tmp_path, LAYERS, "I confirmed the server is listening on port 30000.",
                 "Confirmed: the draft's layer order is reversed against the target's hidden states.")
    assert [(h.text, h.status) for h in a.hypotheses] == [(LAYERS, "confirmed")]


def test_a_server_state_naming_the_guess_settles_it(tmp_path):
    suspect = "I suspect the server runs an old build of sglang."
    a = _session(tmp_path, suspect, "Confirmed: the server is running the old sglang build.")
    assert [(h.text, h.status) for h in a.hypotheses] == [(suspect, "confirmed")]


def test_a_finding_in_other_words_still_settles_the_only_guess(tmp_path):
    suspect = "I suspect the vocab mapping of the new draft."
    a = _session(tmp_path, suspect, "Confirmed: d2t holds absolute ids, not offsets.")
    assert [(h.text, h.status) for h in a.hypotheses] == [(suspect, "confirmed")]


def test_service_state_words():
    assert service_state("I confirmed the server is listening on port 30000.")
    assert not service_state("Confirmed: d2t holds absolute ids, not offsets.")
    assert not service_state("Confirmed: the draft weights are fine; the serving path is the problem.")


@pytest.mark.parametrize("said", [
    "That works, the server responds to /health.",
    "Confirmed the download finished.",
    "Verified that the build completed without errors.",
])
def test_a_step_done_settles_no_guess(tmp_path, said):
    a = _session(tmp_path, LAYERS, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(LAYERS, "open")]
