"""A statement stopped with Ctrl-C at a Python prompt typed in a terminal (``python3`` then
``time.sleep(20)`` and the key) raises ``KeyboardInterrupt`` there, and the interpreter goes on
to its next prompt: the person's stop, not an error of the session. Before: the session's first
error was "traceback: KeyboardInterrupt", before the statement's real ``NameError``. The
typescript is bash 5.2.15 under util-linux script 2.38.1, Python 3.11's REPL."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

from tests.session.test_hardening55_ctrl_c_stop import REPL


def test_a_statement_stopped_at_a_python_prompt_is_no_error(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(REPL)
    doc = analyze_path(path).to_json()
    assert [(e["kind"], e["exception"]) for e in doc["errors"]] == [("traceback", "NameError")]
    assert {c["command"]: c["is_error"] for c in doc["commands"]}["python3 -q"] is False
