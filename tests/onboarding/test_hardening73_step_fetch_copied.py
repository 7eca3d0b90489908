"""`run --step`: a fetch step that copied a file said "→ grab passed: everything this step
checks looks healthy." A fetch checks nothing; the sentence said nothing of what it did, and the
newcomer went looking in the run folder for the file. It now says what was copied, as run.json
names it (relative to the run folder): "→ grab passed: copied artifacts/local/hostname (in the
run folder)."; many files are named three at a time, then counted. A step that runs a command
keeps its words."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path


def _said(tmp_path: Path, playbook: str, answers: str) -> tuple[list[str], dict]:
    (tmp_path / "p.yaml").write_text(playbook)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "--step", "-o", "runs"],
                          capture_output=True, text=True, cwd=tmp_path, input=answers, timeout=120,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})
    record = json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", proc.stdout + proc.stderr).splitlines(), record


def test_a_fetch_says_the_file_it_copied(tmp_path: Path) -> None:
    (tmp_path / "server.log").write_text("decode 12 tok/s\n")
    lines, record = _said(tmp_path, f"name: p\nsteps:\n  - id: first\n    run: echo one\n"
                                    f"  - id: grab\n    fetch: {{src: {tmp_path / 'server.log'}}}\n", "r\nr\n")
    assert "→ first passed: its command exited 0 (a step with no expect: checks nothing more)." in lines, lines
    assert "→ grab passed: copied artifacts/local/server.log (in the run folder)." in lines, lines
    grab = next(s for s in record["steps"] if s["id"] == "grab")
    assert grab["artifacts"] == ["artifacts/local/server.log"]


def test_many_files_are_named_three_then_counted(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for name in ("a", "b", "c", "d", "e"):
        (logs / f"{name}.log").write_text(name)
    lines, _ = _said(tmp_path, f"name: p\nsteps:\n  - id: grab\n    fetch: {{src: '{logs}/*.log', dest: logs/}}\n", "r\n")
    assert ("→ grab passed: copied artifacts/local/logs/a.log, artifacts/local/logs/b.log, "
            "artifacts/local/logs/c.log and 2 more files (in the run folder).") in lines, lines
