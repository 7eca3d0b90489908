"""Sub-agents in daaain/claude-code-log's pages. The Markdown renders a Task as "🤖 Task (TYPE):
*description*" with its prompt and its report in collapsed blocks (``_collapsible``: ``<details>``,
``<summary>Instructions</summary>`` / ``<summary>Report</summary>``, the text quoted;
``format_TaskInput``, ``format_TaskOutput`` in ``claude_code_log/markdown/renderer.py``), the
sub-agent's messages in the headings under it; the HTML marks them ``sidechain``
(``claude_code_log/html/utils.py``, ``css_class_from_message``).

Before: the sub-agent hung under main with no ``spawned_by``, type or description (the inline
link :mod:`formats.claude_session` makes for a session's own file was never made for a page), and
the Markdown's Report, the sub-agent's answer, was not read as the Task's result."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.events import ReadStats
from spec_debug.session.formats import claude_code_log_md
from spec_debug.session.formats.common import Cursor

from test_hardening63_claude_code_log_html import PAGE
from test_hardening63_claude_code_log_md import SUB_AGENT

REPORT = """</details>

<details>
<summary>Report</summary>

> gpu01 refuses ssh: the server is down.
>
> Restart it first.
</details>

#### 💻 Bash"""
MARKDOWN = SUB_AGENT.replace("</details>\n\n#### 💻 Bash", REPORT, 1)


def _agents(path: Path) -> list[tuple]:
    doc = analyze_path(path).to_json()
    return [(a["parent"], a["spawned_by"], a["type"], a["description"]) for a in doc["agents"] if a["id"] != "main"]


def test_a_markdown_sub_agent_is_tied_to_its_task(tmp_path: Path) -> None:
    path = tmp_path / "combined_transcripts.md"
    path.write_text(MARKDOWN, encoding="utf-8")
    assert _agents(path) == [("main", "claude-code-log-call-1", "Explore", "Check gpu01")]


def test_an_html_sub_agent_is_tied_to_its_task(tmp_path: Path) -> None:
    path = tmp_path / "combined_transcripts.html"
    path.write_text(PAGE.replace("🤖 Task Check the GPU host", "🤖 Task (Explore) Check the GPU host"),
                    encoding="utf-8")
    assert _agents(path) == [("main", "claude-code-log-html-call-3", "Explore", "Check the GPU host")]


def test_the_report_is_the_tasks_result() -> None:
    lines = ((n, line, None) for n, line in enumerate(MARKDOWN.splitlines(), 1))
    events = list(claude_code_log_md.read_lines(lines, Cursor(session="s", agent="main", file="x.md"), ReadStats()))
    task = next(e for e in events if e.kind == "tool_call" and e.tool_name == "Task")
    assert task.text == "ssh to gpu01 and read the server's log."
    results = [e for e in events if e.kind == "tool_result" and e.call_id == task.call_id]
    assert [(r.text, r.is_error, r.agent) for r in results] == [
        ("gpu01 refuses ssh: the server is down.\n\nRestart it first.", False, "main")]
