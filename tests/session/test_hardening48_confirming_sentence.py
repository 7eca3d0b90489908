"""analyze: the sentence that confirms a suspect is its outcome, not a new hypothesis.

"The sub-agent confirmed the root cause: the draft's d2t holds absolute target ids" settles the
open "I suspect the vocab map"; its words "root cause" also made it a hypothesis of its own,
shown in the timeline beside its confirmation and left open to the end of the session.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer


def test_the_sentence_that_confirms_a_suspect_is_no_new_hypothesis(tmp_path):
    w = _Writer("48480000-0000-4000-8000-0000000000f1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 accept length is about 1.0 on gpu01.")
    suspect = "I suspect the vocab map (d2t/t2d) of the new draft."
    said = "The sub-agent confirmed the root cause: the draft's d2t holds absolute target ids instead of offsets."
    for text in (suspect, said):
        w.bash("ssh gpu01 'cat /models/e3/config.json'", '{"draft_vocab_size": 32000}', text=text)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    assert [(h.text, h.status, h.outcome) for h in analyze_path(path).hypotheses] == [(suspect, "confirmed", said)]
