"""A step whose `requires:` var was given as spaces alone (`--var "server_log= $SERVER_LOG"` with
the shell variable unset, a `.env` line `SERVER_LOG= `, a var file's `server_log: " "`) counted
as given: the step ran `tail -n 5 ' '`, failed with "exit code 1" and SD001 blamed the host,
where `--var server_log=` was skipped with "--var server_log is empty: give it a value". Text of
only whitespace names no path, URL or token: `requires:` now counts it as empty, says what was
given ("--var server_log is empty (\" \"): give it a value") and `explain` reads it the same.
Real `spec-debug run --host local` runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spec_debug.playbook.models import is_empty_var

REPO = Path(__file__).resolve().parents[2]
PLAYBOOK = ('name: q\nvars:\n  server_log: ""\nsteps:\n  - id: tail_log\n    requires: [server_log]\n'
            '    run: tail -n 5 {{ server_log }}\n')


def _run(tmp_path: Path, *extra: str) -> tuple[int, dict]:
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "COLUMNS": "250", "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "-o", "runs", *extra],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120, env=env)
    return proc.returncode, json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())


@pytest.mark.parametrize(("value", "shown"), [(" ", '" "'), ("\t \n", '"\\t \\n"')])
def test_a_var_of_spaces_is_skipped_as_empty(tmp_path: Path, value: str, shown: str) -> None:
    code, record = _run(tmp_path, "--var", f"server_log={value}")
    assert code == 0
    said = f"--var server_log is empty ({shown}): give it a value"
    assert [(s["id"], s["status"], s["message"]) for s in record["steps"]] == [
        ("tail_log", "skipped", f"skipped: {said} to run this step")]
    assert [(f["code"], f["title"]) for f in record["findings"]] == [("SD004", f"Not checked: {said} to run 1 more step(s)")]


def test_a_var_file_value_of_spaces_is_skipped_as_empty(tmp_path: Path) -> None:
    (tmp_path / "vars.yaml").write_text('server_log: "  "\n')
    code, record = _run(tmp_path, "--var-file", "vars.yaml")
    assert code == 0
    assert record["steps"][0]["status"] == "skipped"
    # as a var file's `server_log: ""` is told, naming the file (test_hardening76_requires_var_file_empty)
    assert record["steps"][0]["message"] == ('skipped: server_log is empty ("  ") in --var-file vars.yaml: give it a '
                                             'value to run this step')


def test_a_value_with_text_around_spaces_still_runs(tmp_path: Path) -> None:
    (tmp_path / "my log.txt").write_text("ready\n")
    code, record = _run(tmp_path, "--var", "server_log=my log.txt")
    assert code == 0
    assert [(s["status"], s["stdout"]) for s in record["steps"]] == [("passed", "ready\n")]


@pytest.mark.parametrize(("value", "empty"), [(" ", True), ("\n", True), ("", True), (None, True), ([], True),
                                              ({}, True), (" x ", False), (0, False), (False, False), ([" "], False)])
def test_is_empty_var(value: object, empty: bool) -> None:
    assert is_empty_var(value) is empty
