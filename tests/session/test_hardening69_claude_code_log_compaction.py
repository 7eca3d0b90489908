"""A context compaction on daaain/claude-code-log's pages. Claude Code writes a ``compact_boundary``
line ("Conversation compacted") and then the summary it handed the model (``isCompactSummary``),
read from the JSONL by formats.claude_code as a compaction (the postmortem's "The context was
compacted 1 time", a phase of its own). claude-code-log 1.7.0 shows them, at ``--depth hook``, as a
"System Info" card and a "User (compacted conversation)" message with the summary quoted
(``renderer.py`` ``title_CompactedSummaryMessage``; ``markdown/renderer.py``
``format_CompactedSummaryMessage``; a ``user compacted`` card in HTML, ``html/utils.py``); at the
default depth neither.

``data_h69_compaction/jsonl/-tmp/s1.jsonl`` is claude-code-log's own test session
``test/test_data/dag_compact_after_rewind.jsonl`` (daaain/claude-code-log, read with the library
tools): a rewind, then an automatic compaction. The pages are real recordings of it by
claude-code-log 1.7.0 (PyPI): ``-f md --depth hook``, ``-f html --depth hook`` (its head, toolbar
and scripts cut) and ``-f md`` at the default depth.

Before: the compacted conversation was skipped as a note, so the pages had no compaction, and
the summary's message took no seq (the prompt after it was msg 8, msg 10 in the JSONL)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_h69_compaction"


def _read(path: Path) -> tuple:
    doc = analyze_path(path).to_json()
    return (doc["stats"]["compactions"], [(p["seq"], p["text"]) for p in doc["prompts"]],
            [(g["start_seq"], g["title"]) for g in doc["segments"]])


PROMPTS = [(0, "Start"), (2, "First attempt"), (4, "Second attempt"), (6, "Keep going"), (10, "After compaction")]


def test_the_jsonl_the_pages_were_made_from_has_one_compaction():
    compactions, prompts, segments = _read(DATA / "jsonl" / "-tmp")
    assert (compactions, prompts) == (1, PROMPTS)
    assert (8, "After context compaction") in segments


@pytest.mark.parametrize("page", ["compacted-hook.md", "compacted-hook.html"])
def test_a_page_with_the_compacted_conversation_gives_the_compaction_the_jsonl_has(page):
    assert _read(DATA / page) == _read(DATA / "jsonl" / "-tmp")


def test_the_summary_is_no_prompt_of_the_persons():
    doc = analyze_path(DATA / "compacted-hook.md").to_json()
    assert all("being continued" not in p["text"] for p in doc["prompts"])


def test_a_page_that_left_the_compaction_out_invents_none():
    compactions, prompts, _ = _read(DATA / "compacted-default.md")
    assert compactions == 0
    assert [text for _, text in prompts] == [text for _, text in PROMPTS]
