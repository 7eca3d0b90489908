"""analyze: a stated root cause in Markdown ("**Root cause:** ...", "## Root cause") opens nothing.

Claude Code's closing summaries put their labels in bold or under a heading. "**Root cause:** d2t
held absolute ids" did not read as a stated cause (the asterisks came before the words and
between them and the colon), so it stayed a new open hypothesis after the confirmation; a
heading "## Root cause" on its own line was recorded as a hypothesis that says nothing.
"""

from __future__ import annotations

import pytest

from tests.session.test_hardening48_stated_root_cause import CONFIRMED, SUSPECT, _session


def _hypotheses(tmp_path, *texts: str):
    return [(h.text, h.status) for h in _session(tmp_path, *texts).hypotheses]


@pytest.mark.parametrize("summary", [
    "**Root cause:** the export wrote the draft's d2t as absolute target ids.",
    "**Root cause**: the export wrote the draft's d2t as absolute target ids.",
    "- Root cause: the export wrote the draft's d2t as absolute target ids.",
    "## Root cause\n\nThe export wrote the draft's d2t as absolute target ids.",
    "**The problem was** the export writing the draft's d2t as absolute target ids.",
])
def test_a_markdown_summary_after_the_confirmation_opens_nothing(tmp_path, summary):
    assert _hypotheses(tmp_path, SUSPECT, CONFIRMED, "## Fixed\n\n" + summary) == [(SUSPECT, "confirmed")]
