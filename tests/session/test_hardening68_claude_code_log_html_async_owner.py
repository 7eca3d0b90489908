"""A background sub-agent's cards on a daaain/claude-code-log HTML page are named as its Task's
title names the agent. claude-code-log 1.7.0 titles a background Task ``🔧 Agent <span
class='tool-summary'>DESC</span> … <span class='task-async-hint'>[async <code>#ID</code>]</span>``
(``html/renderer.py`` ``_async_id_hint``; the code wrapped in a ``task-id-forward-link`` once a
poll reads the agent) and nests the sub-agent's cards under it; the session's JSONL names that
sub-agent by the same ``agentId`` (formats.claude_session).

Pages: the real claude-code-log 1.7.0 recordings in data_h68_async (see
test_hardening68_claude_code_log_async_result). Before: the agent whose cards are on the page was
``sidechain-toolu_A`` (the one whose cards are not was already named ``a10845c5ff9c7d4ec``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_h68_async"
AGENT = "a10845c5ff9c7d4ec"
HINT = "<span class='task-async-hint'>[async <code>#a10845c5ff9c7d4ec</code>]</span>"


def _agents(path: Path) -> list[tuple]:
    doc = analyze_path(path).to_json()
    return [(a["id"], a["parent"], a["spawned_by"], a["status"], a["events"])
            for a in doc["agents"] if a["id"] != "main"]


@pytest.mark.parametrize(("page", "status"), [("failed-file.html", "failed"), ("killed-file.html", "interrupted")])
def test_a_background_agents_cards_are_of_the_agent_its_title_names(page, status):
    assert _agents(DATA / page) == [(AGENT, "main", "toolu_A", status, 2)]
    doc = analyze_path(DATA / page).to_json()
    assert [(c["agent"], c["command"]) for c in doc["commands"]] == [(AGENT, "ssh gpu01 python bench.py")]


def test_a_hint_whose_id_links_to_a_poll_names_the_agent_too(tmp_path):
    text = (DATA / "failed-file.html").read_text(encoding="utf-8")
    assert HINT in text
    page = tmp_path / "page.html"
    page.write_text(text.replace(HINT, "<span class='task-async-hint'>[async <a class='task-id-forward-link' "
                                       "href='#msg-d-9'><code>#a10845c5ff9c7d4ec</code></a>]</span>"), encoding="utf-8")
    assert [a[0] for a in _agents(page)] == [AGENT]


def test_a_task_with_no_async_id_keeps_the_name_of_its_call(tmp_path):
    text = (DATA / "failed-file.html").read_text(encoding="utf-8")
    page = tmp_path / "page.html"
    page.write_text(text.replace(HINT, "<span class='task-async-hint'>[async]</span>"), encoding="utf-8")
    assert [a[0] for a in _agents(page)] == ["sidechain-toolu_A"]
