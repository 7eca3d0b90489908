"""A request the Claude Code CLI gave up on, on daaain/claude-code-log's pages. When a model
request fails for good the CLI writes a message in the model's place, ``isApiErrorMessage: true``,
model ``<synthetic>``: "API Error: 529 {…}", "Please run /login · API Error: 401 {…}" (read from the
JSONL by formats.claude_code ``_text_kind``/``_api_error_type`` as a note and, the main agent's,
an ``agent_error``). claude-code-log 1.7.0 keeps no trace of the flag: the message is a
"🤖 Assistant" section like any other (``markdown/renderer.py``; an ``assistant`` card in HTML).
The CLI knows its own such messages by their head (``startsWithApiErrorPrefix`` in its
``services/api/errors.ts``: "API Error", or "Please run /login · API Error").

The pages in data_h69_api_error are real recordings: claude-code-log 1.7.0 (PyPI), ``-f md`` and
``-f html`` (the HTML's head, toolbar and scripts cut), of ``jsonl/-w/…fd.jsonl`` (a
2.1.240-shaped session: two retried 529s then the CLI's "API Error: 529", a prompt to try again,
the model's words quoting that error, a bench on gpu01, and an expired login's "Please run /login ·
API Error: 401").

Before: both were read as the model's words: no error at all on the pages, where the JSONL has
two agent errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_h69_api_error"
JSONL = DATA / "jsonl" / "-w" / "b2020800-0000-4000-8000-0000000000fd.jsonl"


def _errors(path: Path) -> list[tuple]:
    doc = analyze_path(path).to_json()
    return [(e["kind"], e["message"][:30]) for e in doc["errors"]]


ERRORS = [("agent_error", "API Error: 529 {\"type\":\"error\""), ("agent_error", "Please run /login · API Error:")]


def test_the_jsonl_the_pages_were_made_from_has_two_agent_errors():
    assert _errors(JSONL) == ERRORS


@pytest.mark.parametrize("page", ["api-errors.md", "api-errors.html"])
def test_a_page_reads_the_clis_api_error_messages_as_agent_errors(page):
    assert _errors(DATA / page) == ERRORS


@pytest.mark.parametrize("page", ["api-errors.md", "api-errors.html"])
def test_the_models_words_about_an_api_error_stay_its_words(page):
    doc = analyze_path(DATA / page).to_json()
    (bench,) = doc["commands"]
    assert (bench["host"], bench["exit_code"]) == ("gpu01", 0)
    assert all("above was the API's" not in e["message"] for e in doc["errors"])


def test_a_message_that_opens_as_the_clis_error_does_is_read_as_one(tmp_path):
    # the head is all the page keeps to tell them apart (the CLI tests the same head)
    text = (DATA / "api-errors.md").read_text(encoding="utf-8")
    old = "> The API Error: 529 above was the API's, not the server's; checking the server now."
    assert old in text
    page = tmp_path / "page.md"
    page.write_text(text.replace(old, old.replace("> The API Error", "> API Error")), encoding="utf-8")
    assert [kind for kind, _ in _errors(page)] == ["agent_error"] * 3
