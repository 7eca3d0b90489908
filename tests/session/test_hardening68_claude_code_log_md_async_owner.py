"""A background sub-agent's messages on a daaain/claude-code-log Markdown page are named as its
Task's title names the agent. claude-code-log 1.7.0 titles a background Task ``### 🤖 Task
(TYPE): *DESC* *[async `#<agentId>`]*`` (``markdown/renderer.py`` ``title_TaskInput``,
``_async_id_hint``) and renders the sub-agent's messages a level below it; the session's JSONL
names that sub-agent by the same ``agentId`` (formats.claude_session).

Pages: the real claude-code-log 1.7.0 recordings in data_h68_async (see
test_hardening68_claude_code_log_async_result). Before: the agent whose messages are on the page
was ``sidechain-claude-code-log-call-1`` (the one whose messages are not was already named
``a10845c5ff9c7d4ec``), so the same agent had two names across the page and its JSONL."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_h68_async"
AGENT = "a10845c5ff9c7d4ec"


def _agents(path: Path) -> list[tuple]:
    doc = analyze_path(path).to_json()
    return [(a["id"], a["parent"], a["spawned_by"], a["status"], a["events"])
            for a in doc["agents"] if a["id"] != "main"]


def test_the_jsonl_names_the_agent_by_its_id():
    assert _agents(DATA / "jsonl" / "-w") == [(AGENT, "main", "toolu_A", "failed", 3)]


@pytest.mark.parametrize(("page", "status"), [("failed-file.md", "failed"), ("killed-file.md", "interrupted")])
def test_a_background_agents_messages_on_a_markdown_page_are_of_the_agent_its_title_names(page, status):
    assert _agents(DATA / page) == [(AGENT, "main", "claude-code-log-call-1", status, 2)]
    doc = analyze_path(DATA / page).to_json()
    assert [(c["agent"], c["command"]) for c in doc["commands"]] == [(AGENT, "ssh gpu01 python bench.py")]


def test_a_task_with_no_async_id_keeps_the_name_of_its_call(tmp_path):
    text = (DATA / "failed-file.md").read_text(encoding="utf-8")
    old = " *[async `#a10845c5ff9c7d4ec`]*"
    assert old in text
    page = tmp_path / "page.md"
    page.write_text(text.replace(old, ""), encoding="utf-8")
    assert [a[0] for a in _agents(page)] == ["sidechain-claude-code-log-call-1"]
