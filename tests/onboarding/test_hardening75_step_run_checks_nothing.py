"""`run --step`: a `run:` step with no `expect:` and no `findings:` said "→ first passed:
everything this step checks looks healthy." It checks nothing but its exit code; the sentence
claimed checks the step does not have, and the user took "healthy" for a verdict on the host.
It now says what passing meant: "→ first passed: its command exited 0 (a step with no expect:
checks nothing more)." (its failure already said "a step with no expect: passes when its
command exits 0"). (Its `findings:` are what a non-zero exit reports.) A step with `expect:` or `until:` keeps its words."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RAN = "its command exited 0 (a step with no expect: checks nothing more)."
HEALTHY = "everything this step checks looks healthy."


def _said(tmp_path: Path, playbook: str, answers: str) -> list[str]:
    (tmp_path / "p.yaml").write_text(playbook)
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "COLUMNS": "200", "NO_COLOR": "1",
           "TERM": "dumb"}
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "--step", "-o", "runs"],
                          capture_output=True, text=True, cwd=tmp_path, input=answers, timeout=120, env=env)
    lines = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", proc.stdout + proc.stderr).splitlines()
    return [line for line in lines if line.startswith("→ ")]


def test_a_run_step_without_checks_says_it_exited_0(tmp_path: Path) -> None:
    playbook = ("name: p\nsteps:\n  - id: first\n    run: echo one\n"
                "  - id: second\n    run: echo two\n    expect:\n      - contains: two\n"
                "  - id: third\n    run: echo three\n    findings:\n      - code: SD001\n        title: never\n")
    assert _said(tmp_path, playbook, "r\nr\nr\n") == [
        f"→ first passed: {RAN}",
        f"→ second passed: {HEALTHY}",
        f"→ third passed: {RAN}",
    ]


def test_a_step_with_until_keeps_its_words(tmp_path: Path) -> None:
    playbook = "name: p\nsteps:\n  - id: wait\n    run: echo ready\n    until: \"'ready' in stdout\"\n"
    assert _said(tmp_path, playbook, "r\n") == [f"→ wait passed: {HEALTHY}"]
