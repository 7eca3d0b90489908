"""`?` at the step-through prompt (the help key of git add -p and other step-by-step prompts) was
"please answer r, s or q (got '?')": a newcomer asking what skip or quit does to the run was told
only the letters again. `?` (or h, help) now says what each answer does and asks again; an answer
it does not know points at `?`."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

from rich.console import Console

from spec_debug.playbook.loader import load_playbook, load_playbook_text
from spec_debug.stepthrough import TerminalGate

WALK = """
name: walk
steps:
  - id: first
    why: Shows the engine version.
    run: echo first-ran
  - id: second
    run: echo second-ran
"""


def _gate(answers: str) -> tuple[TerminalGate, io.StringIO]:
    out = io.StringIO()
    return TerminalGate(Console(file=out, width=100, color_system=None), stdin=io.StringIO(answers)), out


def test_question_mark_explains_the_answers_then_asks_again():
    gate, out = _gate("?\ns\n")
    step = load_playbook_text(WALK).steps[0]
    assert gate.before_step("gpu01", step, "echo first-ran") == "skip"
    said = out.getvalue()
    assert "please answer" not in said
    assert "  r, Enter  run this step on gpu01 now, then see what it found\n" in said
    assert "  s         skip it: it is recorded as skipped and the next step is asked about\n" in said
    assert "  q         quit: no more steps, on any host; the record keeps those so far\n" in said
    # asked twice: before and after the help
    assert said.count("quit (q)?") == 2
    # a step of one's own playbook is not a shipped step `explain` knows
    assert "spec-debug explain first" not in said


def test_help_of_a_shipped_step_names_its_explain_command():
    step = next(s for s in load_playbook("perf_regression").playbook.steps if s.id == "hidden_layout")
    for word in ("h", "HELP", " ? "):
        gate, out = _gate(f"{word}\nq\n")
        assert gate.before_step("local", step, "echo x") == "quit"
        assert "  spec-debug explain hidden_layout says more about this step\n" in out.getvalue()


def test_a_step_of_ones_own_with_a_shipped_step_id_is_not_sent_to_explain():
    own = load_playbook_text("name: mine\nsteps:\n  - id: engine\n    why: Our own check.\n    run: echo x\n").steps[0]
    gate, out = _gate("?\nq\n")
    assert gate.before_step("local", own, "echo x") == "quit"
    assert "spec-debug explain" not in out.getvalue()
    shipped = next(s for s in load_playbook("perf_regression").playbook.steps if s.id == "engine")
    gate, out = _gate("?\nq\n")
    assert gate.before_step("local", shipped, "echo x") == "quit"
    assert "  spec-debug explain engine says more about this step\n" in out.getvalue()


def test_the_help_fits_an_80_column_terminal():
    out = io.StringIO()
    gate = TerminalGate(Console(file=out, width=80, color_system=None), stdin=io.StringIO("?\nq\n"))
    step = next(s for s in load_playbook("perf_regression").playbook.steps if s.id == "reference_forward")
    gate.before_step("demo-gpu01", step, "echo x")
    lines = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  r, Enter"))
    end = next(i for i in range(start, len(lines)) if "quit (q)?" in lines[i])
    # one line each, none folded onto a next line
    assert [line.split()[0] for line in lines[start:end]] == ["r,", "s", "q", "spec-debug"], lines[start:end]


def test_an_unknown_answer_points_at_the_help_key():
    gate, out = _gate("maybe\nr\n")
    step = load_playbook_text(WALK).steps[0]
    assert gate.before_step("local", step, "echo first-ran") == "run"
    assert "please answer r, s or q (got 'maybe'); ? says what each does\n" in out.getvalue()


def test_help_in_a_piped_run_keeps_the_record(tmp_path):
    (tmp_path / "walk.yaml").write_text(WALK)
    proc = subprocess.run(
        [sys.executable, "-m", "spec_debug", "run", "walk.yaml", "--host", "local", "--step", "--out", "runs"],
        input="?\nr\n?\nq\n", capture_output=True, text=True, cwd=tmp_path, timeout=60,
        env={**os.environ, "COLUMNS": "120", "NO_COLOR": "1"},
    )
    out = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", proc.stdout + proc.stderr)
    assert out.count("  s         skip it:") == 2, out
    assert proc.returncode == 3, out  # quit before the end
    record = json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())
    steps = {s["id"]: s for s in record["steps"]}
    assert steps["first"]["status"] == "passed"
    assert "first-ran" in steps["first"]["stdout"]
    assert "second-ran" not in (steps.get("second") or {}).get("stdout", "")


def test_the_readme_names_the_help_key():
    from pathlib import Path

    readme = " ".join((Path(__file__).resolve().parents[2] / "README.md").read_text().split())
    assert "then run / skip / quit, `?` says what each does)" in readme
