"""analyze: "The issue is indeed caused by ..." confirms the guess it restates.

In SWE-agent's function-calling trajectory (tests/session/data_h15/function_calling_simple.traj)
the agent guesses "The `SyntaxError` in `missing_colon.py` is likely due to a missing colon at the
end of the function definition line." and, having read the file, "The issue is indeed caused by a
missing colon at the end of the function definition line for `division`." Both were open
hypotheses: the postmortem asked, as two open questions, what the agent had found. "is indeed"
(was, are, were) now confirms the open guess; asked ("Is it indeed the flag?") or supposed ("If
the issue is indeed the flag, ...") it does not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.reasoning import outcome

TRAJ = Path(__file__).parent / "data_h15" / "function_calling_simple.traj"


def test_the_swe_agent_guess_is_confirmed():
    a = analyze_path(TRAJ)
    assert [(h.seq, h.status, h.outcome_seq) for h in a.hypotheses] == [(2, "confirmed", 6)]
    assert a.hypotheses[0].outcome.startswith("The issue is indeed caused by a missing colon")


@pytest.mark.parametrize("text, kind", [
    ("The d2t map was indeed absolute ids.", "confirmed"),
    ("Is it indeed the flag?", None),
    ("If the issue is indeed the flag, the relaunch fixes it.", None),
    ("OK. If that fixed it we are done.", None),
    ("Relaunched. That fixed it.", "confirmed"),
])
def test_indeed_and_if(text, kind):
    found = outcome(text)
    assert (found[0] if found else None) == kind
