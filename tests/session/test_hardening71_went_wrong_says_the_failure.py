""""What went wrong" says what failed where the error has no exception's name.

The postmortem grouped the session's errors by exception name, else by kind: "1× IndexError
[msg 4]" names the failure, but "1× exit_code [msg 6]", "1× connection [msg 5]" and "1×
agent_error [msg 11]" did not say which command failed or how (a reviewer had to open the
supporting entry of each). A kind's line now quotes its first error's message; an exception's
line stays as it was."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem
from tests.session.incident_story import _Writer

DATA = Path(__file__).resolve().parents[1] / "data" / "transcripts_hardening19"


def test_a_failed_command_is_said() -> None:
    view = postmortem_view(analyze_path(DATA / "checkpoint-eagle3-accept.json"))
    assert view["went_wrong"] == [
        "1× IndexError [msg 4]",
        # counted in words since hardening 72 (test_hardening72_went_wrong_in_words), as the timeline says it
        "1 failed command [msg 6] — exit status 2: ls: cannot access '/models/eagle3-draft/config.jsn': "
        "No such file or directory"]


def test_a_connection_and_an_agent_error_are_said() -> None:
    analysis = analyze_path(DATA / "session-2026-10-02T08-00-5d2c1e6a.jsonl")
    assert postmortem_view(analysis)["went_wrong"] == [
        "1× AttributeError [msg 2]",
        "1 failed connection [msg 5] — ssh: connect to host gpu01 port 2222: Connection refused",
        "1× agent_error [msg 11] — [API Error: got status: 429 Too Many Requests. Please wait and try again later.]"]
    md = render_postmortem(analysis, "md")
    assert "- 1 failed connection [[msg 5]](#msg-5) — ssh: connect to host gpu01 port 2222: Connection refused\n" in md


def test_several_of_a_kind_quote_the_first(tmp_path) -> None:
    w = _Writer("71710000-0000-4000-8000-0000000000e1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Why is gpu01 unreachable?")
    w.bash("ssh gpu01 nvidia-smi", "ssh: connect to host gpu01 port 22: No route to host", exit_code=255)
    w.bash("ssh gpu02 nvidia-smi", "ssh: connect to host gpu02 port 22: Connection timed out", exit_code=255)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    wrong = postmortem_view(analyze_path(path))["went_wrong"]
    (line,) = [x for x in wrong if "connection" in x]
    assert line.startswith("2 failed connections [msg ") and line.endswith(
        " — the first: ssh: connect to host gpu01 port 22: No route to host"), wrong
