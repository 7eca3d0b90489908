"""Gemini API `Content` (`{role: user|model, parts}`), as Gemini CLI's `/chat save` checkpoint
holds it: its calls are commands and its responses their output, each response paired with its
call even without ids (two shell calls in one turn), and the CLI's own setup turn is no report.
Before, read as OpenAI chat: no command, no result, and the postmortem opened with "This is the
Gemini CLI. We are setting up the context for our chat." File: tests/data/transcripts_hardening19."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

CHECKPOINT = Path(__file__).parent.parent / "data" / "transcripts_hardening19" / "checkpoint-eagle3-accept.json"


def test_each_response_is_the_output_of_its_own_call():
    a = analyze_path(CHECKPOINT)
    assert [(c.host, c.exit_code, c.command) for c in a.commands] == [
        ("gpu01", 0, "ssh gpu01 'grep -c \"accept len\" /tmp/sglang.log'"),
        ("gpu01", 0, "ssh gpu01 'tail -n 4 /tmp/sglang.log'"),
        ("gpu01", 2, "ssh gpu01 'ls /models/eagle3-draft/config.jsn'"),
    ]
    crash = next(e for e in a.errors if e.exception == "IndexError")
    assert crash.file.endswith("/speculative/eagle_worker.py") and crash.line == 502
    # the decode line came back with the second call, and was measured from its output
    accept = [m for m in a.metrics if m.name == "accept_length"]
    assert [m.value for m in accept] == [1.02]
    assert all(m.seq == a.commands[1].result_seq for m in accept)


def test_the_clis_setup_turn_is_not_the_report():
    a = analyze_path(CHECKPOINT)
    assert [p.text for p in a.prompts] == [
        "EAGLE3 on gpu01 accepts almost nothing and then dies. Look at the server log."]


def test_the_same_history_on_one_line_is_read_the_same(tmp_path):
    """Before: a compact array (`JSON.stringify(history)`, or a program's own dump of the SDK's
    history) was a plain-text log, since a `model` turn was no chat message."""
    compact = tmp_path / "history.json"
    compact.write_text(json.dumps(json.loads(CHECKPOINT.read_text(encoding="utf-8"))), encoding="utf-8")
    a = analyze_path(compact)
    assert a.sessions[0]["format"] == "openai"
    assert [c.exit_code for c in a.commands] == [0, 0, 2]
