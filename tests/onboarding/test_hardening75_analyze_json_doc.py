"""docs/analyze.md's JSON contract paragraph opened `agents[] (` and never closed it: the note on
`cut_off` ("(Claude Code sessions; null for the main agent and other formats)") closed a paren of
its own, so a reader (and tests/core/test_lead12_docs_examples.py) took `stats`, `commands[]` and
every field after them for fields of `agents`, and `id` for a top-level field the output lacks.
The list is closed where the agent's fields end; `cut_off` and `stats` are where the output has them."""

from __future__ import annotations

from pathlib import Path

from tests.core.test_lead12_docs_examples import contract_fields

REPO = Path(__file__).resolve().parents[2]


def test_the_json_paragraph_lists_agents_fields_and_stats_apart() -> None:
    contract = contract_fields((REPO / "docs" / "analyze.md").read_text(encoding="utf-8"))
    assert "id" not in contract  # a field of sessions[] and agents[], not of the document
    assert {"cut_off", "status", "last_seq"} <= contract["agents"]
    assert "stats" not in contract["agents"]
    assert {"copies_skipped", "interrupts"} <= contract["stats"]
    assert list(contract)[:4] == ["format", "sessions", "agents", "stats"]
