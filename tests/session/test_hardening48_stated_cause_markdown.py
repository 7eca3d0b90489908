"""analyze: a stated root cause in Markdown ("**Root cause:** ...", "## Root cause") opens nothing.

Claude Code's closing summaries put their labels in bold or under a heading. "**Root cause:** d2t
held absolute ids" did not read as a stated cause (the asterisks came before the words and
between them and the colon), so it stayed a new open hypothesis after the confirmation; a
heading "## Root cause" on its own line was recorded as a hypothesis that says nothing.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

SUSPECT = "I suspect the vocab map (d2t/t2d) of the new draft."
CONFIRMED = "That confirms it: d2t[1000:1006] holds absolute ids, not offsets."


def _hypotheses(tmp_path, *texts: str):
    w = _Writer("48480000-0000-4000-8000-0000000000c9", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 accept length is about 1.0 on gpu01.")
    for text in texts:
        w.bash("ssh gpu01 'cat /models/e3/config.json'", '{"draft_vocab_size": 32000}', text=text)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return [(h.text, h.status) for h in analyze_path(path).hypotheses]


@pytest.mark.parametrize("summary", [
    "**Root cause:** the export wrote the draft's d2t as absolute target ids.",
    "**Root cause**: the export wrote the draft's d2t as absolute target ids.",
    "- Root cause: the export wrote the draft's d2t as absolute target ids.",
    "## Root cause\n\nThe export wrote the draft's d2t as absolute target ids.",
    "**The problem was** the export writing the draft's d2t as absolute target ids.",
])
def test_a_markdown_summary_after_the_confirmation_opens_nothing(tmp_path, summary):
    assert _hypotheses(tmp_path, SUSPECT, CONFIRMED, "## Fixed\n\n" + summary) == [(SUSPECT, "confirmed")]
