"""claude-code-log 1.7.0 takes a Task report's tail ("agentId: …", ``<usage>``) off the report
(``parse_task_output``) and shows it in a card after it (``<dl class="teammate-tool-card
teammate-spawn-card"><dt>Agent</dt><dd><code>ID</code></dd><dt>Usage</dt>…``; recorded here from
a JSONL whose Task's sub-agent file is absent, ``--detail full``). The page's Task then spawned no
agent (its JSONL: that agent, "missing"), and the report's text ended "Agenta1dd…Usage5 tokens"."""

from __future__ import annotations

from pathlib import Path

from test_hardening63_claude_code_log_html import _CLOSE, _FOOT, _HEAD, _OPEN, _card

from spec_debug.session import analyze_path
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

AGENT = "a1dd713c82c78b9ed"
SPAWN = (f'<dl class="teammate-tool-card teammate-spawn-card"><dt>Agent</dt><dd><code>{AGENT}</code></dd>'
         "<dt>Usage</dt><dd>5 tokens · 1 tool use · 0.0s</dd></dl>")


def _page(spawn: str, sub_agent: bool = False) -> str:
    inner = [_OPEN, _card("tool_use sidechain", "💻 Bash Ping it", "16:06:02",
                          "<div class='bash-tool-content'><pre class='bash-tool-command'>ping -c 1 gpu01</pre></div>",
                          "6"), _CLOSE, _CLOSE] if sub_agent else [_CLOSE]
    return "".join([
        _HEAD,
        _card("user", "🤷 User", "16:02:07", "<p>Check gpu01</p>", "0"), _OPEN,
        _card("tool_use pair_first", "🤖 Task Check the GPU host", "16:06:00",
              "<div class='task-prompt'><p>ssh to gpu01</p></div>", "5"), *inner,
        _card("tool_result pair_last", "", "16:06:09",
              f"<div class=\"task-result markdown\"><p>The host refused the connection.</p>\n</div>{spawn}", "8"),
        _CLOSE, _CLOSE, _FOOT,
    ])


def _read(tmp_path: Path, page: str) -> tuple[list[tuple], str]:
    path = tmp_path / "transcript.html"
    path.write_text(page, encoding="utf-8")
    [source] = discover(path)
    report = next(ev.text for ev in iter_events(source, ReadStats(), AgentTree())
                  if ev.kind == "tool_result" and ev.agent == "main")
    return [(x["id"], x["parent"], x["status"]) for x in analyze_path(path).to_json()["agents"][1:]], report


def test_the_spawn_cards_agent_is_the_tasks_sub_agent(tmp_path: Path) -> None:
    agents, report = _read(tmp_path, _page(SPAWN))
    assert agents == [(AGENT, "main", "missing")]
    assert report == "The host refused the connection."


def test_without_the_card_or_with_the_sub_agents_cards_as_before(tmp_path: Path) -> None:
    agents, report = _read(tmp_path, _page(""))
    assert (agents, report) == ([], "The host refused the connection.")
    agents, _ = _read(tmp_path, _page(SPAWN, sub_agent=True))
    assert [(parent, status) for _, parent, status in agents] == [("main", "completed")]
    assert agents[0][0] != AGENT
