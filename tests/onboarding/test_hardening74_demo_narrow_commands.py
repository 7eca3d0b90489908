"""`spec-debug demo` in a narrow pane (COLUMNS=50, a tmux split) ended with "Now run the fixed
configuration: spec-debug demo" and "--healthy" on the next line, and "Walk through what each
step checked: spec-debug explain" with "perf_regression" below it: the command a newcomer copies
from the line was cut. Each suggested command is now one line, as the verdict line already is."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli


def test_the_demos_next_commands_stay_whole_in_a_narrow_terminal(tmp_path: Path) -> None:
    result = run_cli("demo", "--out", str(tmp_path / "runs"), cwd=tmp_path, env={"COLUMNS": "50"}, timeout=300)
    assert result.code == 1, result.stderr
    lines = result.stderr.splitlines()
    assert lines[-2:] == [
        "Now run the fixed configuration: spec-debug demo --healthy",
        "Walk through what each step checked: spec-debug explain perf_regression",
    ]
