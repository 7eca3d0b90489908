"""`run --step` with scripted answers (piped stdin) echoes each answer after the question so the
transcript reads. The echo and the "please answer" line printed the answer as rich markup: an
answer `[/x]` raised MarkupError and ended the host's run as an internal error, `[red]s` showed
as a red "s"; an ESC[8m in it reached the terminal and concealed what followed. The answer is
now printed as text, its controls as control pictures, as the command above it is."""

from __future__ import annotations

import json
import os
import subprocess
import sys

PLAYBOOK = """\
name: simple
steps:
  - id: hello
    title: Say hello
    run: echo hi
"""


def _step(tmp_path, answers: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    return subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "--step", "--json"],
                          capture_output=True, text=True, cwd=tmp_path, input=answers,
                          timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})


def test_an_answer_that_looks_like_markup_is_refused_not_a_crash(tmp_path):
    proc = _step(tmp_path, "[/x]\n[red]s\nr\n")
    said = proc.stdout + proc.stderr
    assert "MarkupError" not in said and "internal error" not in said
    assert "please answer r, s or q (got '[/x]')" in said
    assert "please answer r, s or q (got '[red]s')" in said
    record = json.loads((next((tmp_path / "runs").iterdir()) / "run.json").read_text())
    assert [s["status"] for s in record["steps"]] == ["passed"]
    assert [h["status"] for h in record["hosts"]] == ["passed"]


def test_controls_in_an_answer_are_shown_not_acted_on(tmp_path):
    proc = _step(tmp_path, "\x1b[8mr\nr\n")
    said = proc.stdout + proc.stderr
    assert "\x1b" not in said
    assert "? \u241b[8mr" in said
