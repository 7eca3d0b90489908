"""A session with nothing to act on (no finding, no retry loop, no command for a playbook):
the postmortem drew an Action items table with a header and no row. It now says so in words,
as the Open questions and Lessons sections already do when they are empty."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem

DATA = Path(__file__).resolve().parents[1] / "data" / "transcripts_newest"
B008 = DATA / "c3d4e5f6-0000-4000-8000-00000000b008.jsonl"
NONE = "None: no finding, no retry loop and no command worth a playbook was recognised."


def _md_section(text: str, heading: str) -> str:
    start = text.index(f"## {heading}\n")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def test_no_action_item_renders_no_empty_table_in_markdown():
    a = analyze_path(B008)
    assert postmortem_view(a)["action_items"] == []
    section = _md_section(render_postmortem(a, "md"), "Action items")
    assert section.split("\n") == ["## Action items", "", f"- {NONE}", ""]


def test_no_action_item_renders_no_empty_table_in_html():
    a = analyze_path(B008)
    rendered = render_postmortem(a, "html")
    start = rendered.index("<h2>Action items</h2>")
    section = rendered[start:rendered.index("<h2>", start + 1)]
    assert "<table>" not in section
    assert section.strip() == f"<h2>Action items</h2>\n<ul><li>{NONE}</li></ul>"


def test_action_items_still_render_their_table():
    """A session with one action item keeps the table and its row."""
    a = analyze_path(DATA / "rollout-2026-11-03T09-00-00-019c3a10-0000-7000-8000-000000000001.jsonl")
    items = postmortem_view(a)["action_items"]
    assert len(items) == 1
    lines = _md_section(render_postmortem(a, "md"), "Action items").split("\n")
    assert lines[2:4] == ["| action | type | source |", "|---|---|---|"]
    assert len([ln for ln in lines if ln.startswith("| ") and ln != "| action | type | source |"]) == 1
    assert NONE not in "\n".join(lines)
