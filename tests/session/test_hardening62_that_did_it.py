"""analyze: "That did it: 182 tok/s." / "That did the trick." / "That solved it." confirm the open guess.

"That fixed it" and "that was it" confirmed the guess the agent had just acted on; "That did
it", "that did the trick" and "that solved it", the same news, settled nothing, so the guess
stayed open in hypotheses[] and the postmortem's open questions. They now confirm it, unless
hoped for, doubted, asked, supposed or limited ("That did it for the config; now ...").
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import outcome
from tests.session.test_hardening48_stated_root_cause import _session

D2T = "I suspect the d2t map."


@pytest.mark.parametrize("said", ["That did it: 182 tok/s.", "That did the trick.", "This solved it."])
def test_confirms_the_open_guess(tmp_path, said):
    assert outcome(said) == ("confirmed", said)
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(D2T, "confirmed", said)]


@pytest.mark.parametrize("said", ["Not sure that did it.", "Did that do it?", "If that did it, we should see 180 tok/s.",
                                  "That did it for the config; now the launch script.", "Hopefully that did the trick.",
                                  "I did it again.", "Nobody solved it yet."])
def test_none(said):
    assert outcome(said) is None
