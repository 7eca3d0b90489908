"""The Impact table does not call a number the report stated "measured once".

A session that measured nothing its user's report stated ("EAGLE-3 on gpu01 gives 54.8 tok/s and
accept length 1.2", or Claude Code's "why is accept length 1.0 on gpu01?" in
tests/data/transcripts_newest) had the Summary say "Throughput was stated, not measured in the
session" (hardening 62), but the Impact table under it read "throughput | 54.8 tok/s | — (measured
once)" and the Resolution "No change in the session was followed by a rise in measured
throughput", as if a benchmark had read it and no change raised it. A row of stated numbers alone
now says "— (stated, not measured)" (its JSON row has "stated": true), and the Resolution says
no throughput was measured. A row the session measured keeps "— (measured once)"."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem
from tests.session.incident_story import _Writer

NEWEST = Path(__file__).resolve().parents[1] / "data" / "transcripts_newest"
LOG = ("[2026-03-02 08:00:01] Decode batch. #running-req: 1, #token: 412, token usage: 0.01, accept len: 1.02, "
       "gen throughput (token/s): 94.7, #queue-req: 0")


def _analysis(tmp_path: Path, *outputs: tuple[str, str]):
    w = _Writer("73730000-0000-4000-8000-0000000000d1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 on gpu01 gives 54.8 tok/s and accept length 1.2, please find out why")
    w.bash("ssh gpu01 'nvidia-smi --query-gpu=memory.used --format=csv'", "memory.used [MiB]\n70123 MiB")
    for command, output in outputs:
        w.bash(command, output)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def _section(md: str, heading: str) -> list[str]:
    return [line for line in md.split(f"## {heading}\n\n")[1].split("\n## ")[0].splitlines() if line]


def test_numbers_the_report_stated_are_not_measured(tmp_path: Path) -> None:
    analysis = _analysis(tmp_path)
    view = postmortem_view(analysis)
    assert [(r["name"], r["readings"], r["stated"]) for r in view["impact"]["rows"]] == [
        ("throughput", 1, True), ("accept_length", 1, True)]
    md = render_postmortem(analysis, "md")
    assert _section(md, "Impact")[2:] == [
        "| throughput | 54.8 tok/s [[msg 0]](#msg-0) | — (stated, not measured) | 1 | gpu01 |",
        "| accept_length | 1.2 tokens [[msg 0]](#msg-0) | — (stated, not measured) | 1 | gpu01 |"]
    assert _section(md, "Resolution") == ["- No throughput was measured in the session, so no change was seen to raise it."]
    assert "- Throughput was stated, not measured in the session: 54.8 tok/s [[msg 0]](#msg-0)." in md  # as it was
    html = render_postmortem(analysis, "html")
    assert html.count("— (stated, not measured)") == 2 and "measured once" not in html
    assert "<li>No throughput was measured in the session, so no change was seen to raise it.</li>" in html


def test_a_claude_code_question_is_no_reading() -> None:
    md = render_postmortem(analyze_path(NEWEST / "c3d4e5f6-0000-4000-8000-00000000b003.jsonl"), "md")
    assert "| accept_length | 1 tokens [[msg 5]](#msg-5) | — (stated, not measured) | 1 | gpu01 |" in md, md


def test_a_measured_reading_is_still_measured_once(tmp_path: Path) -> None:
    analysis = _analysis(tmp_path, ("ssh gpu01 'tail -n 1 /var/log/sglang.log'", LOG))
    md = render_postmortem(analysis, "md")
    assert _section(md, "Impact")[2:] == [
        "| throughput | 94.7 tok/s [[msg 4]](#msg-4) | — (measured once) | 1 | gpu01 |",
        "| accept_length | 1.02 tokens [[msg 4]](#msg-4) | — (measured once) | 1 | gpu01 |"]
    assert [r["stated"] for r in postmortem_view(analysis)["impact"]["rows"]] == [False, False]
