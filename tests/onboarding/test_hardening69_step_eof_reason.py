"""`run --step` whose stdin closed at the prompt (a CI job or cron line that kept --step,
`</dev/null`, a pipe of answers that ran out) said "end of input (stdin closed): quitting" on the
terminal, but recorded the run as `abort_reason: "quit in step-through mode"`: report.md's
verdict read "Run aborted (quit in step-through mode)" and the host "aborted before its first
step: quit in step-through mode", as if someone had typed q. The record now says the stdin
closed; a q typed at the prompt is still recorded as a quit."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

PLAYBOOK = """\
name: two
steps:
  - id: first
    run: echo one
  - id: second
    run: echo two
"""


def _run(tmp_path, answers: str | None) -> tuple[int, str, dict, str]:
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "--step"],
                          capture_output=True, text=True, cwd=tmp_path,
                          **({"input": answers} if answers is not None else {"stdin": subprocess.DEVNULL}),
                          timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})
    run_dir = next((tmp_path / "runs").iterdir())
    record = json.loads((run_dir / "run.json").read_text())
    said = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", proc.stdout + proc.stderr)
    return proc.returncode, said, record, (run_dir / "report.md").read_text()


def test_stdin_closed_at_the_first_prompt_is_recorded_as_such(tmp_path):
    code, said, record, report = _run(tmp_path, None)
    assert code == 3, said
    assert record["status"] == "aborted"
    assert record["abort_reason"] == "stdin closed at the step-through prompt"
    assert "> **Verdict:** Run aborted (stdin closed at the step-through prompt);" in report
    assert "host local aborted before its first step: stdin closed at the step-through prompt" in said
    assert "quit in step-through mode" not in said + report


def test_answers_that_run_out_keep_the_step_that_ran(tmp_path):
    code, said, record, _ = _run(tmp_path, "r\n")
    assert code == 3, said
    assert [(s["id"], s["status"]) for s in record["steps"]] == [("first", "passed")]
    assert record["abort_reason"] == "stdin closed at the step-through prompt"


def test_a_typed_q_is_still_a_quit(tmp_path):
    code, said, record, report = _run(tmp_path, "r\nq\n")
    assert code == 3, said
    assert record["abort_reason"] == "quit in step-through mode"
    assert "> **Verdict:** Run aborted (quit in step-through mode);" in report
