"""A background agent's end on daaain/claude-code-log's pages. Claude Code answers a background
Agent call at once ("Async agent launched successfully.") and says how the agent ended later, in
a ``<task-notification>`` (``<task-id>``, ``<status>completed|failed|killed</status>``), which
claude-code-log 1.7.0 shows as a "🔄 Async result" card: ``- **Task ID:** `id``` and
``- **Status:** `failed``` lines in Markdown (``markdown/renderer.py``
``format_TaskNotificationMessage``), a ``task-notification-card`` in HTML
(``html/async_formatter.py``). The Markdown Task's title names the agent too, ``*[async
`#<agentId>`]*`` (``title_TaskInput``).

The pages in data_h68_async are real recordings: claude-code-log 1.7.0 (PyPI), ``--depth hook``,
``-f md`` and ``-f html`` (the HTML's style and script cut), of the JSONL in ``jsonl/`` (a
2.1.240-shaped session whose agent failed), with its agent file (``failed-file``), without it
(``failed-nofile``), and of the same session whose notification says ``killed``.

Before: the card was read as nothing; the sub-agent was "completed" (its one call went well),
where the session's JSONL, read by formats.claude_session, says "failed" ("interrupted" for a
kill)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_h68_async"
AGENT = "a10845c5ff9c7d4ec"


def _agents(path: Path) -> list[tuple]:
    doc = analyze_path(path).to_json()
    return [(a["parent"], a["status"], a["events"]) for a in doc["agents"] if a["id"] != "main"]


def test_the_jsonl_the_pages_were_made_from_says_the_agent_failed():
    assert _agents(DATA / "jsonl" / "-w") == [("main", "failed", 3)]


@pytest.mark.parametrize("page", ["failed-file.md", "failed-file.html"])
def test_a_page_says_the_background_agent_failed_as_its_notification_does(page):
    assert _agents(DATA / page) == [("main", "failed", 2)]
    doc = analyze_path(DATA / page).to_json()
    assert [p["text"] for p in doc["prompts"]] == ["bench EAGLE-3 on gpu01"]  # the card is no prompt


@pytest.mark.parametrize("page", ["killed-file.md", "killed-file.html"])
def test_a_killed_background_agent_was_stopped(page):
    assert _agents(DATA / page) == [("main", "interrupted", 2)]


@pytest.mark.parametrize("page", ["failed-nofile.md", "failed-nofile.html"])
def test_an_agent_whose_file_the_renderer_lacked_is_named_and_missing_as_in_the_jsonl(page):
    """The JSONL without the agent file: ``a10845c5ff9c7d4ec``, "missing" (its work is not in the
    analysis, whatever the notification says). The Markdown page names it from its Task's title
    (was ``sidechain-claude-code-log-call-1``)."""
    doc = analyze_path(DATA / page).to_json()
    assert [(a["id"], a["status"]) for a in doc["agents"] if a["id"] != "main"] == [(AGENT, "missing")]
