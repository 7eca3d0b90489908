"""A terminal log's `echo $?` after a pipeline whose failure its last command hid: `pip install
sglang==9.9 2>&1 | tail -1` then `echo $?` prints tail's 0 (bash(1), "Pipelines": the status of a
pipeline is its last command's). The analyzer reads `echo $?` as the status of the command before
it, and a 0 as "the shell says it succeeded": the install that pip gave up on, and a `make | tail
-1` ending in make's `*** ... Error 2`, were read as failed from their output, then as succeeded.
A tool that records the status (Claude Code's Bash: 0) kept them failed (pip_gave_up,
build_gave_up); the terminal log now does too. A 0 after an output that only read as failed
(a last "Error: ..." line a program went on from) still undoes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

PIPELINES = [
    ("pip install sglang==9.9 2>&1 | tail -1", "ERROR: No matching distribution found for sglang==9.9"),
    ("make -j8 2>&1 | tail -1", "make: *** [Makefile:12: kernels.o] Error 2"),
    ("python -m pytest tests/ 2>&1 | tail -1", "==================== 1 failed, 12 passed in 3.21s ===================="),
]


@pytest.mark.parametrize("command, last", PIPELINES)
def test_an_echoed_zero_after_a_hidden_failure_is_the_pipes(tmp_path: Path, command: str, last: str) -> None:
    path = tmp_path / "session.log"
    path.write_text(f"root@gpu01:~/spec# {command}\n{last}\nroot@gpu01:~/spec# echo $?\n0\nroot@gpu01:~/spec# \n")
    analysis = analyze_path(path)
    run, echo = analysis.commands
    assert (run.command, run.exit_code, run.is_error) == (command, 0, True)
    assert (echo.command, echo.is_error) == ("echo $?", False)
    assert [e.command_seq for e in analysis.errors] == [run.seq]


def test_an_echoed_zero_still_undoes_a_failure_read_from_the_output_alone(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text("root@gpu01:~/spec# python3 check_draft.py\nchecking layers\nError: layer 31 missing, using 30\n"
                    "root@gpu01:~/spec# echo $?\n0\nroot@gpu01:~/spec# \n")
    run, _ = analyze_path(path).commands
    assert (run.exit_code, run.is_error) == (0, False)
