"""A command the person ran with ``!`` is handed to the model as ``<user_shell_command><command>CMD
</command><result>\\nExit code: N\\nDuration: S seconds\\n{warning}Output:\\nOUT\\n</result>`` where a
long output adds a truncation warning line before ``Output:`` (openai/codex ``codex-rs/core/src/context/
user_shell_command.rs`` ``body``: ``original_token_count.map(truncation_warning)``; the warning reads
``Warning: truncated output (original token count: N)``, ``codex-rs/utils/output-truncation``). With it,
the warning and the ``Output:`` label were read as the command's output. Now the result is the output."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.events import MAIN_AGENT, ReadStats
from spec_debug.session.formats import codex
from spec_debug.session.formats.common import Cursor

OUT = "[2026-01-02 03:04:05] Traceback (most recent call last):\nRuntimeError: CUDA out of memory"


def _results(path: Path, body: str) -> list[tuple]:
    text = f"<user_shell_command>\n<command>\ntail -n 200 server.log\n</command>\n<result>\n{body}\n</result>\n</user_shell_command>"
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/srv",
                          "originator": "codex_cli_rs", "cli_version": "0.160.0"}},
             {"timestamp": "2026-01-02T03:05:01.000Z", "type": "response_item",
              "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}}]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    events = list(codex.read(path, Cursor(session="s", agent=MAIN_AGENT, file=str(path)), ReadStats()))
    return [(e.exit_code, e.text) for e in events if e.kind == "tool_result"]


def test_a_truncation_warning_is_not_the_output(tmp_path: Path) -> None:
    body = f"Exit code: 0\nDuration: 0.0123 seconds\nWarning: truncated output (original token count: 9120)\nOutput:\n{OUT}"
    # was [(0, "Warning: truncated output (original token count: 9120)\nOutput:\n" + OUT)]
    assert _results(tmp_path / "rollout.jsonl", body) == [(0, OUT)]


def test_without_the_warning_as_before(tmp_path: Path) -> None:
    assert _results(tmp_path / "rollout.jsonl", f"Exit code: 1\nDuration: 0.0123 seconds\nOutput:\n{OUT}") == [(1, OUT)]


def test_a_warning_the_command_printed_stays_output(tmp_path: Path) -> None:
    out = "Warning: truncated output is expected\nOutput:\ndone"
    assert _results(tmp_path / "rollout.jsonl", f"Exit code: 0\nDuration: 0.0123 seconds\nOutput:\n{out}") == [(0, out)]
