"""analyze: an outcome supposed, hoped for or still to be checked settles nothing.

"I suspect the --speculative-num-steps 1 flag", then "Relaunching with 3 steps. If that works, I will
benchmark again." marked the suspect confirmed by the "If that works" sentence, before anything was
measured; "Hopefully that fixed it", "Check whether that works", "Not sure that was it" and "This
confirms nothing yet" did the same. An outcome right after "if", "once", "whether", "when", "unless",
"until", "hopefully", "make sure" or "not sure", or followed by "nothing", is none; "That fixed it"
and "When I reran it, that fixed it" still are.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.reasoning import outcome
from tests.session.incident_story import _Writer


@pytest.mark.parametrize("text", [
    "Relaunching with 3 steps. If that works, I will benchmark again.",
    "Once this works I will benchmark.",
    "Check whether that works.",
    "I want to make sure that works.",
    "Hopefully that fixed it.",
    "Not sure that was it.",
    "This confirms nothing yet.",
    "We have confirmed nothing so far.",
])
def test_a_supposed_outcome_is_none(text: str) -> None:
    assert outcome(text) is None


@pytest.mark.parametrize("text, kind", [
    ("That fixed it: 96.8 tok/s.", "confirmed"),
    ("When I reran it, that fixed it.", "confirmed"),
    ("Confirmed: the d2t holds absolute ids.", "confirmed"),
    ("It didn't help.", "ruled_out"),
    ("The flag is not the cause.", "ruled_out"),
])
def test_a_said_outcome_still_is_one(text: str, kind: str) -> None:
    assert outcome(text)[0] == kind


def test_the_suspect_stays_open_until_measured(tmp_path) -> None:
    w = _Writer("53530000-0000-4000-8000-0000000000b2", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 on gpu01 is slower than the baseline.")
    w.bash("ssh gpu01 'ps -eo args | grep [l]aunch_server'", "python -m sglang.launch_server --speculative-num-steps 1",
           text="I suspect the --speculative-num-steps 1 flag caps the draft.")
    w.bash("ssh gpu01 'sed -i s/num-steps 1/num-steps 3/ /root/launch.sh'", "",
           text="Relaunching with 3 steps. If that works, I will benchmark again.")
    _, measured = w.bash("ssh gpu01 'python bench.py'", "Output token throughput (tok/s): 96.8")
    fixed = w.say("That fixed it: 96.8 tok/s.")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(h.status, h.outcome_seq) for h in a.hypotheses] == [("confirmed", fixed)]
