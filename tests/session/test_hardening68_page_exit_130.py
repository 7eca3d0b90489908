"""A Claude Code Bash call that ended with status 130 on daaain/claude-code-log's pages.

The pages in data_h68_page130 are real recordings: claude-code-log 1.7.0 (PyPI), ``-o x.md`` and
``-o x.html`` (the HTML's style and script cut), of tests/session/data_tx/echoed_status.jsonl, whose
last call (`python3 -m sglang.bench_serving ...; echo "bench exit: $rc"`) ended with 130 and a
KeyboardInterrupt traceback. The JSONL reads that call as failed with the traceback as its error.

Before: the pages are read as format "text", so the terminal-log rule for a person's Ctrl-C after
Enter (keyboard_stop: the 130 is the key's, no failure) was applied to Claude Code's own Bash
call, and the call was no failure and its error was gone. No key is pressed in an agent's call."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_h68_page130"
JSONL = Path(__file__).parent / "data_tx" / "echoed_status.jsonl"


def _last_call(path: Path):
    analysis = analyze_path(path)
    return analysis, analysis.commands[-1]


@pytest.mark.parametrize("page", ["echoed_status.md", "echoed_status.html"])
def test_a_bash_call_ending_130_on_a_page_fails_as_in_the_jsonl(page: str) -> None:
    analysis, last = _last_call(DATA / page)
    assert analysis.format == "text"
    assert last.command.startswith("python3 -m sglang.bench_serving --num-prompts 50")
    assert (last.exit_code, last.is_error) == (130, True)
    assert [(e.kind, e.exception) for e in analysis.errors if e.seq >= last.seq] == [("traceback", "KeyboardInterrupt")]


def test_the_pages_read_every_call_as_the_jsonl_does() -> None:
    jsonl = analyze_path(JSONL)
    expected = [(c.command, c.exit_code, c.is_error) for c in jsonl.commands]
    for page in ("echoed_status.md", "echoed_status.html"):
        got = [(c.command, c.exit_code, c.is_error) for c in analyze_path(DATA / page).commands]
        assert got == expected, page
