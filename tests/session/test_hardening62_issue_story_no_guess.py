"""analyze: "The issue was reported by the on-call." / "Let me check the root cause analysis doc." are no guesses.

"the issue is/was" and "root cause" made any sentence a hypothesis, so the story of the symptom
("The issue was reported by the on-call.", "The issue is tracked in sgl-project/sglang#1234.",
"The problem was first seen on Monday.", "The issue is reproducible on gpu02.") and a plan about
the RCA document ("I will write the root cause analysis now.") became open hypotheses, listed as
open questions in the postmortem. They are none now; "The issue is that ...", "The problem was the
d2t map." and "Root cause analysis: ..." still are.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import hypotheses
from tests.session.test_hardening48_stated_root_cause import _session

D2T = "I suspect the d2t map."


@pytest.mark.parametrize("said", ["The issue was reported by the on-call.", "The issue is tracked in sgl-project/sglang#1234.",
                                  "The problem was first seen on Monday.", "The issue is reproducible on gpu02.",
                                  "Let me check the root cause analysis doc.", "I will write the root cause analysis now.",
                                  "The issue is worse at bs=8."])
def test_none(tmp_path, said):
    assert hypotheses(said) == []
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(D2T, "open")]


@pytest.mark.parametrize("said", ["The issue is that the d2t map holds absolute ids.", "The problem was the d2t map.",
                                  "Root cause analysis: the d2t map holds absolute ids.", "The problem is known: the d2t map is absolute."])
def test_still_guesses(said):
    assert hypotheses(said) == [said]
