"""analyze: a guess said again is the same hypothesis, settled once.

The agent writes "I suspect the --speculative-num-steps 1 flag caps the draft." before one command
and again before the next, then "That fixed it: 96.8 tok/s." Each saying was a hypothesis of its own;
the outcome settled the newest and the first stayed open, so the postmortem's Open questions listed,
as never confirmed, the very guess it showed confirmed. A guess restated while open (the same words,
or the same topic words) is now the same hypothesis, made the newest again.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.incident_story import _Writer

GUESS = "I suspect the --speculative-num-steps 1 flag caps the draft."


def _analyze(tmp_path, again: str, other: str | None = None):
    w = _Writer("53530000-0000-4000-8000-0000000000d7", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 on gpu01 is slow.")
    first, _ = w.bash("ssh gpu01 'ps -eo args | grep [l]aunch'", "python -m sglang.launch_server --speculative-num-steps 1",
                      text=GUESS)
    if other:
        w.bash("ssh gpu01 'cat /models/e3/config.json'", '{"draft_vocab_size": 32000}', text=other)
    w.bash("ssh gpu01 'cat /root/launch.sh'", "--speculative-num-steps 1", text=again)
    w.bash("ssh gpu01 'python bench.py'", "Output token throughput (tok/s): 96.8", text="Relaunched with 3 steps.")
    fixed = w.say("That fixed it: 96.8 tok/s.")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path), first, fixed


def test_the_same_words_again_are_one_hypothesis(tmp_path):
    a, first, fixed = _analyze(tmp_path, GUESS)
    assert [(h.seq, h.status, h.outcome_seq) for h in a.hypotheses] == [(first, "confirmed", fixed)]
    assert not any("neither confirmed nor ruled out" in q for q in postmortem_view(a)["open_questions"])


def test_a_restated_guess_is_the_newest_again(tmp_path):
    other = "The draft vocab map might be stale too."
    a, first, fixed = _analyze(tmp_path, "I suspect the --speculative-num-steps 1 flag caps the draft.", other)
    assert [(h.text, h.status) for h in a.hypotheses] == [(GUESS, "confirmed"), (other, "open")]


def test_a_different_guess_is_a_new_one(tmp_path):
    other = "I suspect the draft's d2t map is stale."
    a, first, fixed = _analyze(tmp_path, other)
    assert [(h.text, h.status) for h in a.hypotheses] == [(GUESS, "open"), (other, "confirmed")]


def test_still_suspecting_is_the_same_guess(tmp_path):
    a, first, fixed = _analyze(tmp_path, "I still suspect the --speculative-num-steps 1 flag caps the draft.")
    assert [(h.seq, h.status, h.outcome_seq) for h in a.hypotheses] == [(first, "confirmed", fixed)]
