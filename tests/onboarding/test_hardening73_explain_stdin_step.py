"""`curl -s URL | spec-debug explain - hidden_layout`: `-` is how explain reads a playbook from
standard input (`explain -` walks through it), but with a step after it the dash was no
playbook: "explain takes one playbook, code or concept; got also: hidden_layout" and the rule
for quoting a concept. `explain /dev/stdin STEP` worked. Now `- STEP` gives that step, a slip
in the step gets the step hint (standard input is read once), and nothing piped in says so."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PLAYBOOK = "name: piped\nsteps:\n  - id: look\n    why: the first look\n    run: echo 1\n  - id: grab\n    fetch: {src: /etc/hostname}\n"


def explain(tmp_path: Path, *args: str, stdin: str | None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "spec_debug", "explain", *args], input=stdin,
                          stdin=subprocess.DEVNULL if stdin is None else None, capture_output=True, text=True,
                          cwd=tmp_path, timeout=120, env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200"})


def test_a_step_of_the_piped_playbook(tmp_path: Path) -> None:
    result = explain(tmp_path, "-", "grab", stdin=PLAYBOOK)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("# Walkthrough: `piped`, step `grab`\n")
    assert "echo 1" not in result.stdout


def test_a_slip_in_the_step_gets_the_step_hint(tmp_path: Path) -> None:
    result = explain(tmp_path, "-", "lok", stdin=PLAYBOOK)
    assert result.returncode == 2
    assert result.stderr.splitlines() == ["error: explain takes one playbook, code or concept; got also: lok",
                                          "  hint: the step 'look'? `spec-debug explain - look`"]


def test_nothing_piped_in_says_so(tmp_path: Path) -> None:
    result = explain(tmp_path, "-", "look", stdin=None)
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == "error: /dev/stdin:1:1: the playbook is empty"
