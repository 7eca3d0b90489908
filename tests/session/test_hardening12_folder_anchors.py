"""A folder's postmortem links each [msg k:N] to its own session's entry: on the real folder of
Claude Code sessions in tests/data (daaain/claude-code-log fixtures; README there), whose
sessions each count their messages from 0 and are listed by time, not by file name, every link
has exactly one anchor and no two sessions share one."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem

FOLDER = Path(__file__).resolve().parents[1] / "data" / "transcripts" / "claude-code"


def test_every_link_of_a_folder_postmortem_has_one_anchor_of_its_own_session() -> None:
    a = analyze_path(FOLDER)
    listed = [s["id"] for s in postmortem_view(a)["sessions"]]
    assert len(listed) >= 3 and listed != [s["id"] for s in a.sessions]  # listed by time, not by name
    html = render_postmortem(a, "html")
    ids = re.findall(r'id="(msg-[^"]*)"', html)
    links = set(re.findall(r'href="#(msg-[^"]*)"', html))
    assert ids and not [i for i, n in Counter(ids).items() if n > 1]
    assert links <= set(ids)
    assert all(re.fullmatch(r"msg-\d+-\d+", i) for i in ids)  # session-qualified, never a bare msg-N
    assert {int(i.split("-")[1]) for i in ids} == set(range(1, len(listed) + 1))
    md = render_postmortem(a, "md")
    md_ids = re.findall(r'<a id="(msg-[^"]*)"></a>', md)
    assert sorted(md_ids) == sorted(ids)
    assert set(re.findall(r"\]\(#(msg-[^)]*)\)", md)) <= set(md_ids)


def test_a_single_session_keeps_its_plain_message_numbers() -> None:
    md = render_postmortem(analyze_path(FOLDER / "representative_messages.jsonl"), "md")
    assert re.search(r"\[\[msg \d+\]\]\(#msg-\d+\)", md) and "msg k:N" not in md
