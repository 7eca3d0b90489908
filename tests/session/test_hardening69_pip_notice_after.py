"""pip up to 24.3 prints its version notice under the line that says it gave up.

pip 24.0 (cli/base_command.py, _main) checks for its own new release in a `finally` after the
command's error was logged, so `pip install sglang==9.9 2>&1 | tail -5` on an image with an old
pip ends "ERROR: No matching distribution found for sglang==9.9", a blank line, "[notice] A new
release of pip is available: 24.0 -> 25.3", "[notice] To update, run: pip install --upgrade pip"
(self_outdated_check.py, UpgradePrompt). The give-up was read from the last line only: the
notice hid it, and the install that never happened was no error (tail's status 0).
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors
from tests.session.incident_story import _Writer

NOTICE = ("\n[notice] A new release of pip is available: 24.0 -> 25.3\n"
          "[notice] To update, run: pip install --upgrade pip\n")
NOT_FOUND = "ERROR: No matching distribution found for sglang==9.9"
NO_WHEEL = ("ERROR: Could not build wheels for flashinfer, which is required to install pyproject.toml-based "
            "projects")


def _found(output, exit_code=0):
    return [(e.kind, e.message) for e in extract_errors(output, exit_code)]


def test_the_give_up_above_the_notice_is_the_error():
    out = ("ERROR: Could not find a version that satisfies the requirement sglang==9.9 (from versions: 0.5.6)\n"
           + NOT_FOUND + "\n" + NOTICE)
    assert _found(out) == [("tool_error", NOT_FOUND)]
    assert _found("  ERROR: Failed building wheel for flashinfer\n" + NO_WHEEL + "\n" + NOTICE) == \
        [("tool_error", NO_WHEEL)]


def test_an_install_that_went_through_with_the_notice_is_none():
    assert _found("Successfully installed sglang-0.5.23\n" + NOTICE) == []
    assert _found(NOTICE) == []


def test_the_command_failed(tmp_path: Path) -> None:
    sid = "ab690000-0000-4000-8000-000000000697"
    w = _Writer(sid, None, datetime(2026, 12, 6, 9, 0, tzinfo=timezone.utc))
    w.prompt("Install the engine")
    w.bash("pip install sglang==9.9 2>&1 | tail -4", NOT_FOUND + "\n" + NOTICE, exit_code=0)
    path = tmp_path / f"{sid}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(c.exit_code, c.is_error) for c in a.commands] == [(0, True)]
    assert [(e.kind, e.message) for e in a.errors] == [("tool_error", NOT_FOUND)]
