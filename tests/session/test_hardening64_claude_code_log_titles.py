"""A call's title in daaain/claude-code-log's HTML page holds its parts in spans of their own
(``claude_code_log/html/renderer.py``): a Task's description in ``tool-summary`` and the
sub-agent's type after it, in parentheses, in ``tool-subagent``; a Bash call's description in
``tool-summary`` after "💻 Bash" (1.7.0) or "🛠️ Bash" (0.9.0). The cards below are as those two
versions rendered a session of mine.

Before: the title was read as one text: the Task's type was lost and ended the description
("Read the server log (general-purpose)"), and 0.9.0's Bash calls were described "🛠️ Bash Tail the
log"."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

from test_hardening63_claude_code_log_html import _FOOT, _HEAD
from test_hardening64_claude_code_log_ids import _card


def _task(title: str) -> list[str]:
    return [
        _card("user", None, "🤷 User", "16:00:00", "<p>Why is gpu01 slow?</p>", "u1"),
        _card("tool_use", "toolu_01TASK", title, "16:00:20",
              "<div class=\"task-prompt markdown\"><p>Read /var/log/sglang.log on gpu01</p>\n</div>", "u2"),
        _card("tool_result", "toolu_01TASK", "", "16:00:30",
              "<div class=\"task-result markdown\"><p>The accept length is 1.2.</p>\n</div>", "u3"),
        _card("tool_use sidechain", "toolu_01SUB1", "💻 Bash <span class='tool-summary'>Tail the log</span>",
              "16:00:22", "<div class='bash-tool-content'><pre class='bash-tool-command'>tail /var/log/sglang.log"
              "</pre></div>", "u4"),
        _card("tool_result sidechain", "toolu_01SUB1", "", "16:00:25", "<pre>accept length: 1.2</pre>", "u5"),
    ]


def _doc(tmp_path: Path, cards: list[str]) -> dict:
    path = tmp_path / "session-s1.html"
    path.write_text(_HEAD + "".join(cards) + _FOOT, encoding="utf-8")
    return analyze_path(path).to_json()


def _agents(doc: dict) -> list[tuple]:
    return [(a["spawned_by"], a["type"], a["description"]) for a in doc["agents"] if a["id"] != "main"]


def test_a_tasks_type_and_description(tmp_path: Path) -> None:
    doc = _doc(tmp_path, _task("🔧 Task <span class='tool-summary'>Read the server log</span>"
                               " <span class='tool-subagent'>(general-purpose)</span>"))
    assert _agents(doc) == [("toolu_01TASK", "general-purpose", "Read the server log")]


def test_a_task_with_a_type_alone(tmp_path: Path) -> None:
    doc = _doc(tmp_path, _task("🔧 Task <span class='tool-subagent'>(Explore)</span>"))
    assert _agents(doc) == [("toolu_01TASK", "Explore", "")]


def test_a_bash_calls_description_on_a_0_9_page(tmp_path: Path) -> None:
    doc = _doc(tmp_path, [
        _card("tool_use", "toolu_01AAAA", "🛠️ Bash <span class='tool-summary'>GPUs on gpu01</span>", "16:00:11",
              "<div class='bash-tool-content'><pre class='bash-tool-command'>ssh gpu01 nvidia-smi</pre></div>", "u1"),
        _card("tool_result", "toolu_01AAAA", "", "16:00:16", "<pre>NVIDIA H100 80GB HBM3</pre>", "u2"),
    ])
    assert [(c["command"], c["description"]) for c in doc["commands"]] == [("ssh gpu01 nvidia-smi", "GPUs on gpu01")]
