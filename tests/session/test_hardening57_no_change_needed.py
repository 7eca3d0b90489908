"""A change not needed rules nothing out: "There is no change needed in the launch script" (the
agent deciding what to edit) matched "no change" and ruled out the open guess, shown as a
suspect cleared. "No change in throughput after the relaunch" and "That made no difference"
still rule out."""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import outcome
from tests.session.test_hardening48_stated_root_cause import _session

SUSPECT = "I suspect the vocab map (d2t/t2d) of the new draft."


@pytest.mark.parametrize("text", [
    "There is no change needed in the launch script.",
    "No changes are required to the config.",
    "So no change required there.",
])
def test_no_change_needed_is_no_outcome(text):
    assert outcome(text) is None


@pytest.mark.parametrize("text", ["No change in throughput after the relaunch.", "That made no difference."])
def test_no_change_measured_rules_out(text):
    assert outcome(text) == ("ruled_out", text)


def test_the_guess_stays_open(tmp_path):
    a = _session(tmp_path, SUSPECT, "There is no change needed in the launch script.")
    assert [(h.text, h.status) for h in a.hypotheses] == [(SUSPECT, "open")]
