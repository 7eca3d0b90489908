"""A Qwen Code session (~/.qwen/projects/<slug>/chats/<sessionId>.jsonl) is read as one. Its
envelope is Claude Code's but its messages are Gemini API content (`parts`): read as Claude Code,
every record was of an unknown type, with no command and no error. File and its source:
tests/data/transcripts_hardening19 (README there)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path

SESSION = Path(__file__).parent.parent / "data" / "transcripts_hardening19" / "8e2f4a6c-1b3d-4f5e-9a7b-2c4d6e8f0a1b.jsonl"


def test_a_qwen_session_has_its_commands_exit_codes_and_crash():
    a = analyze_path(SESSION)
    assert a.sessions[0]["format"] == "qwen-code"
    assert [(c.host, c.port, c.exit_code) for c in a.commands] == [("gpu01", None, 0), ("gpu01", 2222, 255)]
    assert a.commands[0].command == "ssh gpu01 'tail -n 8 /tmp/sglang.log'"
    crash = next(e for e in a.errors if e.exception == "RuntimeError")
    assert crash.file.endswith("/sglang/srt/model_executor/model_runner.py") and crash.line == 1460
    assert "--mem-fraction-static" in crash.message
    assert [e.kind for e in a.errors if e.kind == "connection"] == ["connection"]


def test_every_record_is_kept_and_the_compression_is_a_compaction():
    a = analyze_path(SESSION)
    records = [line for line in SESSION.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert a.sessions[0]["lines"] == len(records)
    assert a.stats["unknown_types"] == 0 and a.stats["lines_skipped"] == 0
    assert a.stats["compactions"] == 1
    assert a.stats["tool_calls"] == 3  # two shell calls and a read_file answered by a {text} part


def test_forcing_claude_code_on_it_is_refused():
    with pytest.raises(UsageError) as err:
        analyze_path(SESSION, input_format="claude")
    assert "Qwen Code session" in str(err.value)


def test_a_session_cut_after_its_first_reply_is_still_qwen_code(tmp_path):
    """Qwen Code writes system records (ui_telemetry, attribution_snapshot) after each reply;
    counted as Claude Code's, they outvoted the messages in a short head (a session that died
    early, or one read while it runs), and its commands were lost."""
    head = tmp_path / SESSION.name
    head.write_text("\n".join(SESSION.read_text(encoding="utf-8").splitlines()[:4]) + "\n", encoding="utf-8")
    a = analyze_path(head)
    assert a.sessions[0]["format"] == "qwen-code"
    assert [c.command for c in a.commands] == ["ssh gpu01 'tail -n 8 /tmp/sglang.log'"]
