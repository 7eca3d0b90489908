"""`run --step` (and `demo --step`): each step the user ran was told twice, once by the
step-through and once by the run's progress lines under it:

    → launch_flags ran; its checks found a problem:
      SD101 (warning): Speculation capped at one drafted token per round
        what to do: Serve with ...
    local  passed launch_flags (0.36 s)
    local         SD101 Speculation capped at one drafted token per round

"passed" right after "found a problem", and each finding twice. The step-through's account is
the one said now; a run without --step keeps its progress lines, and a step the prompt never
asked about (skipped by `when:`) still gets its progress line."""

from __future__ import annotations

import os
import re
import subprocess
import sys

CAPPED = ("python3 -m sglang.launch_server --model-path /nonexistent/target --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /nonexistent/draft --speculative-num-steps 1 "
          "--speculative-eagle-topk 1 --speculative-num-draft-tokens 2")

PLAYBOOK = """\
name: three
steps:
  - id: first
    run: echo one
  - id: second
    run: "false"
  - id: third
    when: "false"
    run: echo three
"""


def _said(tmp_path, args: list[str], answers: str) -> list[str]:
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", *args, "--host", "local", "--out", str(tmp_path / "runs")],
                          capture_output=True, text=True, cwd=tmp_path, input=answers, timeout=180,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})
    said = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", proc.stdout + proc.stderr)
    return [line for line in said.splitlines() if not line.startswith(("│", "╭", "╰", "spec-debug running"))]


def test_a_finding_of_a_step_run_at_the_prompt_is_told_once(tmp_path):
    lines = _said(tmp_path, ["perf_regression", "--step", "--var", f"server_cmdline={CAPPED}"], "r\nq\n")
    assert lines[1] == "→ launch_flags ran; its checks found a problem:", lines
    assert sum("Speculation capped at one drafted token per round" in line for line in lines) == 1, lines
    assert not any(re.match(r"\s*passed", line) for line in lines), lines


def test_a_command_step_is_told_once_and_a_when_skip_still_gets_its_line(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    lines = _said(tmp_path, ["p.yaml", "--step"], "r\nr\n")
    assert lines[:4] == [
        "run (r, Enter) / skip (s) / quit (q)? r",
        "→ first passed: its command exited 0 (a step with no expect: checks nothing more).",
        "run (r, Enter) / skip (s) / quit (q)? r",
        "→ second failed: exit code 1 (a step with no expect: passes when its command exits 0)",
    ], lines
    assert not any(re.match(r"\s*(passed|failed) (first|second)", line) for line in lines), lines
    # a when: skip is told in the step-through's words too (test_hardening72_step_skipped_arrow)
    assert "→ third skipped: when 'false' is false" in lines, lines
    assert not any(re.match(r"\s*skipped third", line) for line in lines), lines


def test_without_step_the_progress_lines_stay(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    lines = _said(tmp_path, ["p.yaml"], "")
    assert any(re.match(r"\s*passed first \(", line) for line in lines), lines
    assert any(re.match(r"\s*failed second \(", line) for line in lines), lines
