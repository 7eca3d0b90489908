"""`demo --step` quit at a later prompt: after running launch_flags (which found SD101) and
quitting at engine's prompt, the demo's last lines were "SD101 ..." and "ABORTED: 1 error(s) ·
report: ...", naming none of the seven steps the quit came before, so the verdict read as the
whole playbook's. `run --step` has said "  not reached: ..." there since round 75; the demo
now says the same line, under its verdict, and only when the run stopped."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys


def _demo(tmp_path, answers: str) -> tuple[int, list[str], dict]:
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "demo", "--step", "--out", str(tmp_path / "runs")],
                          capture_output=True, text=True, cwd=tmp_path, input=answers, timeout=240,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})
    record = json.loads((next((tmp_path / "runs").iterdir()) / "run.json").read_text())
    said = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", proc.stdout + proc.stderr).splitlines()
    return proc.returncode, said, record


def _after_verdict(lines: list[str]) -> list[str]:
    at = next(i for i, line in enumerate(lines) if line.startswith(("ABORTED:", "PASSED:", "FAILED:")))
    return lines[at:]


def test_run_one_step_then_quit_names_the_steps_not_reached(tmp_path):
    code, lines, record = _demo(tmp_path, "r\nq\n")
    assert code == 3, lines
    assert [(s["id"], s["status"]) for s in record["steps"]] == [("launch_flags", "passed")]
    tail = _after_verdict(lines)
    assert tail[0].startswith("ABORTED: 1 error(s) · report: "), tail
    assert tail[1:] == ["  not reached: engine, configs, vocab, hidden_layout, reference_forward and 2 more",
                        "Walk through what each step checked: spec-debug explain perf_regression"], tail


def test_skip_then_quit_lists_the_choice_then_what_was_not_reached(tmp_path):
    code, lines, record = _demo(tmp_path, "s\nq\n")
    assert code == 3, lines
    tail = _after_verdict(lines)
    assert tail[1:3] == ["  skipped (your choice): launch_flags",
                         "  not reached: engine, configs, vocab, hidden_layout, reference_forward and 2 more"], tail
