"""The last card of a claude-code-log 1.7.0 HTML page is followed by the page's floating buttons,
which 1.7.0 opens with "▶️" (resume the session, ``resume-session``) and "⏬" (follow the page,
``follow-updates``) before the "📆" timeline button (``html/templates/transcript.html``). The page
is a real recording (see test_hardening68_claude_code_log_async_result), its last card the main
agent's closing words. Before: they ended "The bench finished.\\n\\n … ▶️ … ⏬"."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

DATA = Path(__file__).parent / "data_h68_async"


@pytest.mark.parametrize("page", ["failed-file.html", "failed-nofile.html"])
def test_the_last_message_of_a_page_is_its_words_alone(page):
    tree = AgentTree()
    texts = [ev.text for source in discover(DATA / page) for ev in iter_events(source, ReadStats(), tree)
             if ev.kind == "text"]
    assert texts == ["The bench finished."]
