"""A background shell command's end on daaain/claude-code-log's pages. Claude Code answers a Bash
call made with ``run_in_background`` at once ("Command running in background with ID: …") and
says how the command ended later, in a ``<task-notification>`` whose ``<summary>`` alone gives the
exit status: ``Background command "Launch EAGLE-3 server" failed with exit code 1`` (read from the
JSONL by formats.claude_code ``_task_notification``). claude-code-log 1.7.0 shows the notification
as a "🔄 Async result" card whose title is that summary: ``### 🔄 Async result · *SUMMARY*`` in
Markdown (``markdown/renderer.py`` ``title_TaskNotificationMessage``, stars escaped), ``🔄 Async
result <span class='tool-summary'>SUMMARY</span>`` in HTML (``html/renderer.py``); the card's body
has the task id and status only.

The pages in data_h68_bgcmd are real recordings: claude-code-log 1.7.0 (PyPI), ``convert -f md``
and ``-f html`` (the HTML's style, toolbar and scripts cut), of ``jsonl/-w/…b6.jsonl`` (a
2.1.240-shaped session: a server launch on gpu01 that exits 1, an nvidia-smi on gpu02 that exits 0).

Before: the notification was rebuilt without its summary, so both commands had no exit code and
no error was read, where the JSONL gives exit 1 (an error) and exit 0."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_h68_bgcmd"
JSONL = DATA / "jsonl" / "-w" / "b2020800-0000-4000-8000-0000000000b6.jsonl"


def _commands(path: Path) -> tuple[list, list, list]:
    doc = analyze_path(path).to_json()
    return ([(c["seq"], c["host"], c["exit_code"], c["is_error"], c["result_seq"]) for c in doc["commands"]],
            [(e["seq"], e["command_seq"], e["host"]) for e in doc["errors"]],
            [p["text"] for p in doc["prompts"]])


def test_the_jsonl_the_pages_were_made_from_gives_both_exit_codes():
    assert _commands(JSONL) == (
        [(1, "gpu01", 1, True, 5), (3, "gpu02", 0, False, 6)], [(5, 1, "gpu01")],
        ["start the EAGLE-3 server on gpu01 and check gpu02"])


@pytest.mark.parametrize("page", ["bg-failed.md", "bg-failed.html"])
def test_a_page_gives_a_background_commands_exit_code_as_its_notifications_summary_does(page):
    assert _commands(DATA / page) == _commands(JSONL)


def test_a_summary_with_escaped_stars_is_read_unescaped(tmp_path):
    text = (DATA / "bg-failed.md").read_text(encoding="utf-8")
    old = '*Background command "Launch EAGLE-3 server" failed with exit code 1*'
    assert old in text
    page = tmp_path / "page.md"
    page.write_text(text.replace(old, r'*Background command "Launch \*EAGLE\* server" failed with exit code 137*'),
                    encoding="utf-8")
    assert _commands(page)[0] == [(1, "gpu01", 137, True, 5), (3, "gpu02", 0, False, 6)]
