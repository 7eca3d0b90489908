"""claude-code-log's combined page (``combined_transcripts.html``, its default output beside the
session pages) holds every session of a project, each under a session header of its own
(``claude_code_log/html/templates/transcript.html``, ``render_message``: ``<div class='message
session-header' data-session-id='{{ message.session_id }}'>``, read at 0f7a525b); a fork's
branch is a ``session-header branch-header`` card inside its session (the repository's
``work/minimal-theme-dag.md``, 2.5: branch headers are children of the session header, their
session id ``{sid}@{uuid12}``). Named alone, the page was read as one session: days of separate
sessions one timeline, their commands and errors one session's, its main agent one agent. Each
session is now a session of its own, as a ChatGPT export's conversations are."""

from __future__ import annotations

from pathlib import Path

from test_hardening63_claude_code_log_html import _CLOSE, _FOOT, _OPEN, PAGE, _card

from spec_debug.session import analyze_path

_BRANCH = """    <div class='message-node'>
    <div class='message session-header branch-header' data-session-id='test_ses@0123456789ab' id='msg-d-20' style='margin-left: 2em'>
        <div class='header'>&#x21b3; Try the other fix</div>
    </div>
    <div class='children'>
""" + _card("user", "🤷 User", "16:20:00", "<p>try the other fix</p>", "20") + _OPEN + _card(
    "tool_use", "💻 Bash Patch", "16:20:05",
    "<div class='bash-tool-content'><pre class='bash-tool-command'>git apply fix2.patch</pre></div>", "21") + _CLOSE \
    + _card("tool_result", "🧰", "16:20:06", "<pre>ok</pre>", "22") + _CLOSE + _CLOSE + _CLOSE + _CLOSE
_OTHER = """    <div class="session-divider"></div>
    <div class='message-node'>
    <div class='message session-header' data-session-id='other_ses' id='msg-session-other_ses'>
        <div class='header'>Session: Lint the tree</div>
    </div>
    <div class='children'>
""" + _card("user", "🤷 User", "09:02:07", "<p>now lint it</p>", "30") + _OPEN + _card(
    "tool_use", "💻 Bash Lint", "09:04:07",
    "<div class='bash-tool-content'><pre class='bash-tool-command'>ruff check .</pre></div>", "31") + _CLOSE \
    + _card("tool_result error", "🚨 Error", "09:04:09", "<pre>E501 line too long</pre>", "32") + _CLOSE + _CLOSE + _CLOSE
# the first session's cards end before the page's last two closing divs (its children, its node)
COMBINED = PAGE.replace(_CLOSE + _FOOT, _BRANCH + _CLOSE + _OTHER + _FOOT)


def test_each_session_of_a_combined_page_is_a_session_of_its_own(tmp_path: Path) -> None:
    path = tmp_path / "combined_transcripts.html"
    path.write_text(COMBINED, encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert [(s["id"], s["title"]) for s in doc["sessions"]] == [("test_ses", "Fix the tests"),
                                                                 ("other_ses", "Lint the tree")]
    assert [(c["session"], c["command"], c["is_error"]) for c in doc["commands"]] == [
        ("test_ses", "cd /srv && python -m pytest -q tests/test_x.py", True),
        ("test_ses", "ls -la /srv", False),
        ("test_ses", "ping -c 1 gpu01", True),
        ("test_ses", "git apply fix2.patch", False),  # its branch's: the same session
        ("other_ses", "ruff check .", True),
    ]
    assert [(p["session"], p["text"]) for p in doc["prompts"]] == [
        ("test_ses", "Run the tests & fix what fails"), ("test_ses", "try the other fix"),
        ("other_ses", "now lint it")]
    assert sorted((a["session"], a["id"] == "main") for a in doc["agents"]) == [
        ("other_ses", True), ("test_ses", False), ("test_ses", True)]


def test_a_page_of_one_session_is_read_as_before(tmp_path: Path) -> None:
    path = tmp_path / "combined_transcripts.html"
    path.write_text(PAGE, encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert [s["id"] for s in doc["sessions"]] == ["combined_transcripts"]
    assert len(doc["commands"]) == 3


def test_a_folder_with_the_combined_page_alone(tmp_path: Path) -> None:
    # a scan of a folder holding the combined page only (no session pages beside it)
    (tmp_path / "combined_transcripts.html").write_text(COMBINED, encoding="utf-8")
    doc = analyze_path(tmp_path).to_json()
    assert sorted(s["id"] for s in doc["sessions"]) == ["other_ses", "test_ses"]
    assert sorted((c["session"], c["command"]) for c in doc["commands"])[-1] == ("test_ses", "ping -c 1 gpu01")


def test_each_session_is_read_from_its_own_lines(tmp_path: Path) -> None:
    # each session is read from its header's line to the next session's (not the whole page once
    # per session); its events keep the page's line numbers, and its line count is its own
    path = tmp_path / "combined_transcripts.html"
    path.write_text(COMBINED, encoding="utf-8")
    doc = analyze_path(path).to_json()
    rows = COMBINED.split("\n")
    other = next(n for n, row in enumerate(rows, 1) if "data-session-id='other_ses'" in row)
    lint = next(n for n, row in enumerate(rows, 1) if "data-uuid='31'" in row)
    assert [(c["command"], c["line"]) for c in doc["commands"] if c["session"] == "other_ses"] == [
        ("ruff check .", lint)]
    assert [(s["id"], s["lines"]) for s in doc["sessions"]] == [
        ("test_ses", other - 1 - next(n for n, row in enumerate(rows, 1) if "data-session-id='test_ses'" in row) + 1),
        ("other_ses", len(rows) - other + (0 if COMBINED.endswith("\n") else 1))]
