"""In a folder of sessions, each session whose every call failed is named and linked.

`spec-debug analyze` of a folder holding three sessions whose one call failed (a background
launch, a Codex `exec` refused by plan mode, an nvidia-smi that could not reach the driver: the
sessions in tests/data/transcripts_newest) had What went wrong say "Every tool call of the main
session failed (1)." three times: three lines alike, none saying which session nor linking
where. Each now names its session and links its failures ("[msg 6:5]"); a postmortem of one
session says it as before."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem

NEWEST = Path(__file__).resolve().parents[1] / "data" / "transcripts_newest"


def _wrong(md: str) -> list[str]:
    return md.split("### What went wrong\n\n")[1].split("\n\n")[0].splitlines()


def test_each_failed_session_of_a_folder_is_named() -> None:
    md = render_postmortem(analyze_path(NEWEST), "md")
    assert [line for line in _wrong(md) if line.startswith("- Every tool call")] == [
        "- Every tool call of session c3d4e5f6-0000-4000-8000-00000000b006 failed (1) [[msg 6:5]](#msg-6-5).",
        "- Every tool call of session codex-exec-plan-mode failed (1) [[msg 9:5]](#msg-9-5).",
        "- Every tool call of session rollout-2026-11-03T10-00-00-019c3a10-0000-7000-8000-000000000002 failed (1) "
        "[[msg 11:3]](#msg-11-3)."]
    for anchor in ("msg-6-5", "msg-9-5", "msg-11-3"):  # each link has its supporting entry
        assert f'<a id="{anchor}"></a>' in md, anchor


def test_one_session_says_it_as_before() -> None:
    md = render_postmortem(analyze_path(NEWEST / "c3d4e5f6-0000-4000-8000-00000000b006.jsonl"), "md")
    assert "- Every tool call of the main session failed (1)." in _wrong(md)
