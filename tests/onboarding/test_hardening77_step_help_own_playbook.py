"""`?` at the `run --step` prompt named `spec-debug explain STEP` for a shipped step, and nothing
for a step of one's own playbook, though `spec-debug explain FILE STEP` walks through exactly
that step. It now names that command, with the playbook as `run` was given it; a long path is
put on a line of its own, never folded mid-path in an 80-column terminal."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import run_cli

WALK = """\
name: walk
steps:
  - id: first
    why: Shows the engine version.
    run: echo first-ran
  - id: second
    run: echo second-ran
"""


def _step_help(cwd, playbook: str) -> list[str]:
    env = {**os.environ, "COLUMNS": "80"}
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", playbook, "--host", "local", "--step",
                           "--out", str(cwd / "runs")], input="?\nq\n", capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120)
    assert proc.returncode == 3, proc.stdout + proc.stderr  # quit: aborted
    lines = (proc.stdout + proc.stderr).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  r, Enter"))
    end = next(i for i in range(start, len(lines)) if "quit (q)?" in lines[i])
    return lines[start + 3:end]


def test_help_names_explain_file_step_and_it_works(tmp_path):
    (tmp_path / "walk.yaml").write_text(WALK)
    assert _step_help(tmp_path, "walk.yaml") == ["  spec-debug explain walk.yaml first says more about this step"]
    shown = run_cli("explain", "walk.yaml", "first", cwd=tmp_path)
    assert shown.code == 0, shown.stderr
    assert "## 1. first (`first`)" in shown.stdout.splitlines()


def test_a_long_path_is_one_line_of_its_own(tmp_path):
    folder = tmp_path / "team plays" / "speculative-decoding-incident-playbooks"
    folder.mkdir(parents=True)
    (folder / "walk.yaml").write_text(WALK)
    path = "team plays/speculative-decoding-incident-playbooks/walk.yaml"
    assert _step_help(tmp_path, path) == [
        "  more about this step:", f"    spec-debug explain '{path}' first"]


FAILING = """\
name: fails
steps:
  - id: health
    why: The server must answer.
    run: "false"
"""


def test_a_failed_step_fix_names_the_explain_command_of_this_playbook(tmp_path):
    """SD001's fix said "Read the step's `why` (`spec-debug explain PLAYBOOK`)" at the step of a
    playbook whose path the user had typed; the step-through fills it in."""
    (tmp_path / "fails.yaml").write_text(FAILING)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "fails.yaml", "--host", "local", "--step",
                           "--out", str(tmp_path / "runs")], input="r\n", capture_output=True, text=True,
                          cwd=tmp_path, env={**os.environ, "COLUMNS": "200"}, timeout=120)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    said = (proc.stdout + proc.stderr).splitlines()
    assert ("    what to do: Read the step's `why` (`spec-debug explain fails.yaml health`) and its evidence; "
            "give the expectation a `finding:` with a specific code so the next report says what it means."
            in said), said
