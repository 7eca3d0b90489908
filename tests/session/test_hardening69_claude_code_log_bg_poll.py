"""A background shell command's end read by a ``TaskOutput`` poll, on daaain/claude-code-log's
pages. Claude Code answers a Bash call made with ``run_in_background`` at once ("Command running
in background with ID: …"); the model may then wait for it with ``TaskOutput {task_id, block:
true}``, whose result says how it ended: ``<task_type>local_bash</task_type>
<status>failed</status> <exit_code>1</exit_code> <output>…`` (read from the JSONL by
formats.claude_code as the command's end, ``POLL_END``). claude-code-log 1.7.0 shows the poll as
"🔍 TaskOutput `#<task id>`" and its result as the task's type, status and retrieval only, no exit
code and no output: ``markdown/renderer.py`` ``format_TaskOutputResult`` (``**type:** `local_bash`
· **status:** `failed```), ``html/async_formatter.py`` ``format_taskoutput_output`` (a
``task-output-card`` of ``Retrieval``, ``Type`` and ``Status`` rows).

The pages in data_h69_poll are real recordings: claude-code-log 1.7.0 (PyPI), ``-f md`` and ``-f
html`` (the HTML's head, toolbar and scripts cut), of ``jsonl/-w/…f9.jsonl`` (a 2.1.240-shaped
session: three server launches in the background, each waited for with TaskOutput; gpu01's
failed with exit code 1, gpu02's completed, gpu03's was killed).

Before: the poll was read as a call of no input and no result, so every launch was still running
on the pages (no exit code, no error), where the JSONL has gpu01's fail and gpu02's exit 0. Now
the poll is rebuilt as the CLI wrote it, less what the page left out: "failed" is a failure whose
code is unknown, "completed" the CLI's word for exit 0; a kill stays of unknown status."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_h69_poll"
JSONL = DATA / "jsonl" / "-w" / "b2020800-0000-4000-8000-0000000000f9.jsonl"


def _commands(path: Path) -> tuple[list, list]:
    doc = analyze_path(path).to_json()
    return ([(c["seq"], c["host"], c["exit_code"], c["is_error"], c["result_seq"]) for c in doc["commands"]],
            [(e["seq"], e["command_seq"], e["host"]) for e in doc["errors"]])


def test_the_jsonl_the_pages_were_made_from_gives_each_polled_exit_code():
    assert _commands(JSONL) == (
        [(1, "gpu01", 1, True, 8), (3, "gpu02", 0, False, 10), (5, "gpu03", 137, True, 12)],
        [(8, 1, "gpu01"), (12, 5, "gpu03")])


@pytest.mark.parametrize("page", ["bg-polled.md", "bg-polled.html"])
def test_a_page_gives_a_polled_background_command_the_end_its_poll_card_shows(page):
    assert _commands(DATA / page) == (
        [(1, "gpu01", None, True, 8), (3, "gpu02", 0, False, 10), (5, "gpu03", None, False, None)],
        [(8, 1, "gpu01")])


def test_a_poll_card_that_shows_no_status_ends_nothing(tmp_path):
    text = (DATA / "bg-polled.md").read_text(encoding="utf-8")
    old = "· **status:** `failed` "
    assert text.count(old) == 1
    page = tmp_path / "page.md"
    page.write_text(text.replace(old, ""), encoding="utf-8")
    assert _commands(page)[0][0] == (1, "gpu01", None, False, None)
