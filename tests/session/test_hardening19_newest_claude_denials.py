"""Calls a headless Claude Code run (`claude -p`, CI) never ran: asked for with no one to ask,
refused by a deny rule or by the auto mode classifier. See tests/data/transcripts_newest/README.md."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session.analysis import analyze_path

SESSION = Path(__file__).resolve().parents[1] / "data" / "transcripts_newest" / "c3d4e5f6-0000-4000-8000-00000000b005.jsonl"


def test_a_command_denied_four_times_is_no_loop_of_failures_on_the_host():
    doc = analyze_path(SESSION).to_json()
    assert [e["kind"] for e in doc["errors"]] == ["denied"] * 4
    # not run: no exit code, and no "same command failing 4 times on gpu01" loop or pivot
    assert [(c["exit_code"], c["is_error"]) for c in doc["commands"]] == [(None, True)] * 4
    assert doc["loops"] == [] and doc["pivots"] == []
