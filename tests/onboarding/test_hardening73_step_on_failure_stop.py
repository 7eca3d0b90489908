"""A step with `on_failure: stop` that failed ended the host's run, and the steps after it were
recorded as skipped ("not run: step 'first' failed with on_failure: stop") without a word on
the console: `run --step` asked about no further step and went straight to the verdict, and a
plain run listed only the failed step. Each of those steps is now told as the other skips are:
"→ second skipped: step 'first' failed with on_failure: stop" at --step, "skipped second not
run: ..." on the progress lines. run.json is as before."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

PLAYBOOK = """\
name: st
steps:
  - id: first
    run: "false"
    on_failure: stop
  - id: second
    run: echo two
  - id: third
    run: echo three
"""


def _run(tmp_path: Path, *extra: str, answers: str = "") -> tuple[list[str], dict]:
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "-o", "runs", *extra],
                          capture_output=True, text=True, cwd=tmp_path, input=answers, timeout=120,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})
    assert proc.returncode == 1, proc.stderr
    record = json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", proc.stdout + proc.stderr).splitlines(), record


def test_step_through_tells_the_steps_the_stop_left_out(tmp_path: Path) -> None:
    lines, record = _run(tmp_path, "--step", answers="r\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("→ first failed: exit code 1"))
    told = [line for line in lines[at + 1:] if line.startswith("→ ")]
    assert told == ["→ second skipped: step 'first' failed with on_failure: stop",
                    "→ third skipped: step 'first' failed with on_failure: stop"], lines
    assert [(s["id"], s["status"], s["message"]) for s in record["steps"]][1:] == [
        ("second", "skipped", "not run: step 'first' failed with on_failure: stop"),
        ("third", "skipped", "not run: step 'first' failed with on_failure: stop")]


def test_a_plain_run_lists_them_too(tmp_path: Path) -> None:
    lines, _ = _run(tmp_path)
    assert "skipped second not run: step 'first' failed with on_failure: stop" in lines, lines
    assert "skipped third not run: step 'first' failed with on_failure: stop" in lines, lines
