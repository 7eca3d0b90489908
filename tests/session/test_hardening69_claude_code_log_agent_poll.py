"""A background agent's end read by a ``TaskOutput`` poll, on daaain/claude-code-log's pages.
Claude Code answers a background Agent call at once ("Async agent launched successfully.") and
says how the agent ended in a ``<task-notification>``, or, when the model waits for it, in the
result of ``TaskOutput {task_id: <agentId>, block: true}``: ``<task_type>local_agent</task_type>
<status>failed</status>`` (formats.claude_code ``_agent_poll``, which formats.claude_session
applies to the agent). claude-code-log 1.7.0 shows the poll as "🔍 TaskOutput `#<agentId>`" and
its result as the task's type, status and retrieval (``markdown/renderer.py``
``format_TaskOutputResult``; ``html/async_formatter.py`` ``format_taskoutput_output``).

The pages in data_h69_agent_poll are real recordings: claude-code-log 1.7.0 (PyPI), ``-f md`` and
``-f html`` (the HTML's head, toolbar and scripts cut), of the JSONL in ``jsonl/`` with its three
agent files (a 2.1.240-shaped session: three background bench agents; gpu01's poll says it
failed, gpu02's notification that it completed, gpu03's poll that it was killed).

Before: the poll's end was not applied to the agent on a page, so the failed and the killed agent
were "completed" (their one call went well), where the JSONL has "failed" and "interrupted"."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_h69_agent_poll"
ENDS = [("a1111111111111111", "main", "failed"), ("a2222222222222222", "main", "completed"),
        ("a3333333333333333", "main", "interrupted")]


def _agents(path: Path) -> list[tuple]:
    doc = analyze_path(path).to_json()
    return [(a["id"], a["parent"], a["status"]) for a in doc["agents"] if a["id"] != "main"]


def test_the_jsonl_the_pages_were_made_from_gives_each_agent_the_end_its_poll_or_note_says():
    assert _agents(DATA / "jsonl" / "-w") == ENDS


@pytest.mark.parametrize("page", ["agents-polled.md", "agents-polled.html"])
def test_a_page_gives_a_polled_background_agent_the_end_its_poll_card_shows(page):
    assert _agents(DATA / page) == ENDS


@pytest.mark.parametrize("page", ["agents-polled.md", "agents-polled.html"])
def test_a_poll_of_a_running_agent_ends_nothing(tmp_path, page):
    text = (DATA / page).read_text(encoding="utf-8")
    old = "`failed`" if page.endswith(".md") else "'>failed</span>"
    assert text.count(old) == 1
    copy = tmp_path / page
    copy.write_text(text.replace(old, old.replace("failed", "running")), encoding="utf-8")
    assert _agents(copy) == [("a1111111111111111", "main", "completed"), *ENDS[1:]]
