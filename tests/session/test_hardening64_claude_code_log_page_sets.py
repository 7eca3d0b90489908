"""A folder of daaain/claude-code-log's pages alone (copied out of the project's folder, or written
with ``--output DIR``) often holds a session's pages in both formats (``--format md`` run after the
default HTML) and in variants (``session-<id>.agent.html`` for ``--depth agent``,
``session-<id>.compact.md`` for ``--compact``), as 1.7.0 wrote them for a session of mine
(``convert DIR``, ``--depth agent``, ``--format md``, ``--format md --compact``: eight pages).

Before: each of them was read as a session of its own: the one session four times, each command
and error counted three times."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

from test_hardening63_claude_code_log_html import PAGE
from test_hardening63_claude_code_log_md import TRANSCRIPT

HTML_COMMANDS = ["cd /srv && python -m pytest -q tests/test_x.py", "ls -la /srv", "ping -c 1 gpu01"]


def _commands(folder: Path) -> tuple[list[str], list[str]]:
    doc = analyze_path(folder).to_json()
    return [s["id"] for s in doc["sessions"]], [c["command"] for c in doc["commands"]]


def test_both_formats_and_variants_of_one_session(tmp_path: Path) -> None:
    for name in ("session-test_ses.html", "session-test_ses.agent.html", "combined_transcripts.html"):
        (tmp_path / name).write_text(PAGE, encoding="utf-8")
    for name in ("session-test_ses.md", "session-test_ses.compact.md", "combined_transcripts.md",
                 "combined_transcripts.compact.md"):
        (tmp_path / name).write_text(TRANSCRIPT, encoding="utf-8")
    assert _commands(tmp_path) == (["session-test_ses"], HTML_COMMANDS)


def test_the_markdown_alone_is_read(tmp_path: Path) -> None:
    (tmp_path / "session-test_ses.md").write_text(TRANSCRIPT, encoding="utf-8")
    (tmp_path / "session-test_ses.compact.md").write_text(TRANSCRIPT, encoding="utf-8")
    sessions, commands = _commands(tmp_path)
    assert sessions == ["session-test_ses"] and len(commands) == 3


def test_a_variant_alone_is_read(tmp_path: Path) -> None:
    (tmp_path / "session-test_ses.agent.html").write_text(PAGE, encoding="utf-8")
    assert _commands(tmp_path) == (["session-test_ses.agent"], HTML_COMMANDS)


def test_two_sessions_pages_are_both_read(tmp_path: Path) -> None:
    (tmp_path / "session-test_ses.html").write_text(PAGE, encoding="utf-8")
    (tmp_path / "session-other.md").write_text(TRANSCRIPT, encoding="utf-8")
    sessions, commands = _commands(tmp_path)
    assert sorted(sessions) == ["session-other", "session-test_ses"] and len(commands) == 6
