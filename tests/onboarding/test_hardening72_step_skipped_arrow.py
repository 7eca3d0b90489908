"""`run --step`: a step the runner skipped without asking (a `requires:` var not given, a
`when:` that is false) was told as a bare progress line between the step-through's "→" lines:

    → first passed: everything this step checks looks healthy.
    skipped needs_x provide --var x=... to run this step
    skipped third when 'false' is false

It is now told in the step-through's words, "→ needs_x skipped: provide --var x=... to run
this step" (on a fleet "→ needs_x on b skipped: ..."), as every other step result at --step."""

from __future__ import annotations

import os
import re
import subprocess
import sys

PLAYBOOK = """\
name: four
vars:
  x: ""
steps:
  - id: first
    run: echo one
  - id: needs_x
    requires: [x]
    run: echo "{{ x }}"
  - id: third
    when: "false"
    run: echo three
  - id: fourth
    run: echo four
"""


def _said(tmp_path, *extra: str) -> list[str]:
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "--step", *extra],
                          capture_output=True, text=True, cwd=tmp_path, input="r\nr\n", timeout=120,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", proc.stdout + proc.stderr).splitlines()


def test_skipped_steps_are_told_with_the_arrow(tmp_path):
    lines = _said(tmp_path)
    at = lines.index("→ first passed: its command exited 0 (a step with no expect: checks nothing more).")
    assert lines[at + 1:at + 3] == ["→ needs_x skipped: provide --var x=... to run this step",
                                    "→ third skipped: when 'false' is false"], lines
    assert not any(line.startswith("skipped ") for line in lines), lines


def test_a_given_var_runs_the_step(tmp_path):
    lines = _said(tmp_path, "--var", "x=hello")
    assert not any("needs_x skipped" in line for line in lines), lines
    assert "→ third skipped: when 'false' is false" in lines, lines


def test_a_fleet_names_the_host_and_an_empty_command_is_told_too(tmp_path):
    (tmp_path / "p.yaml").write_text("name: p\nsteps:\n  - id: one\n    run: echo one\n  - id: two\n"
                                     "    when: \"false\"\n    run: echo two\n  - id: three\n    run: \"\"\n")
    (tmp_path / "hosts.ini").write_text("[gpus]\na ansible_connection=local\nb ansible_connection=local\n")
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "-i", "hosts.ini", "--step", "--out", "runs"],
                          capture_output=True, text=True, cwd=tmp_path, input="r\nr\n", timeout=120,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})
    lines = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", proc.stdout + proc.stderr).splitlines()
    empty = "skipped: its command is empty (`run:` rendered to nothing: is a var it uses empty?)"
    assert [line for line in lines if line.startswith("→ ")] == [
        "→ one on a passed: its command exited 0 (a step with no expect: checks nothing more).",
        "→ two on a skipped: when 'false' is false",
        f"→ three on a {empty}",
        "→ one on b passed: its command exited 0 (a step with no expect: checks nothing more).",
        "→ two on b skipped: when 'false' is false",
        f"→ three on b {empty}",
    ], lines
    assert not any(line.lstrip().startswith("skipped ") for line in lines), lines
