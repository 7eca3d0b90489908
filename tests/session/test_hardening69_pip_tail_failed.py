"""`pip install x 2>&1 | tail -3` that pip gave up on is a failed command, though its status is 0.

The pipeline's status is tail's 0 (bash(1), "Pipelines"), and pip's last words, now an error of
the session (test_hardening69_pip_tail_status), left the command itself a success
(commands[].is_error false): a session that retried the install three times showed no failed
call and no loop of failing runs, and the agent's failed_calls left it out. pip's give-up
(pip 26.3 cli/base_command.py: it logs the error and returns ERROR; no package was installed) is
the command's failure; its recorded status stays 0. A log of such an install read back runs no
pip, and stays a reading that went through.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

SID = "ab690000-0000-4000-8000-000000000695"
NOT_FOUND = "ERROR: No matching distribution found for sglang==9.9"
BOX = ("error: failed-wheel-build-for-install\n\n"
       "× Failed to build installable wheels for some pyproject.toml based projects\n╰─> flash-attn\n")


def _analyze(tmp_path: Path, runs: list[tuple[str, str]]):
    w = _Writer(SID, None, datetime(2026, 12, 6, 9, 0, tzinfo=timezone.utc))
    w.prompt("Install the engine")
    for command, output in runs:
        w.bash(command, output, exit_code=0)
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def test_the_install_pip_gave_up_on_failed(tmp_path: Path) -> None:
    a = _analyze(tmp_path, [("pip install sglang==9.9 2>&1 | tail -1", NOT_FOUND + "\n"),
                            ("python3 -m pip install flash-attn --no-build-isolation 2>&1 | tail -4", BOX),
                            ("pip3 --no-cache-dir install sglang==9.9 | tail -1", NOT_FOUND + "\n")])
    assert [(c.exit_code, c.is_error) for c in a.commands] == [(0, True), (0, True), (0, True)]
    assert [agent["failed_calls"] for agent in a.agents] == [3]


def test_the_same_install_retried_is_a_loop(tmp_path: Path) -> None:
    a = _analyze(tmp_path, [("pip install sglang==9.9 2>&1 | tail -1", NOT_FOUND + "\n")] * 3)
    assert [(lp.count, lp.error) for lp in a.loops] == [(3, NOT_FOUND)]


def test_a_log_of_it_read_back_did_not_fail(tmp_path: Path) -> None:
    a = _analyze(tmp_path, [("tail -1 /tmp/pip-install.log", NOT_FOUND + "\n"),
                            ("cat build.log | tail -4", BOX)])
    assert [(c.exit_code, c.is_error) for c in a.commands] == [(0, False), (0, False)]

