"""The Markdown walkthrough of a playbook with no description, no vars, or a step with no
"It needs / runs only when" line had runs of two and three blank lines (under the title, before
the first step, after each command block). Each paragraph is now one blank line from the next;
the words are as before."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

BARE = """\
name: bare
steps:
  - id: a
    run: echo hi
  - id: b
    why: because
    requires: [model]
    run: echo {{ model }}
vars:
  model: ""
"""


def _explain(cwd, playbook: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "explain", playbook], capture_output=True, text=True,
                          cwd=cwd, timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_a_bare_playbook_has_no_runs_of_blank_lines(tmp_path):
    (tmp_path / "bare.yaml").write_text(BARE.replace("vars:\n  model: \"\"\n", "").replace("    requires: [model]\n", "")
                                     .replace("{{ model }}", "b"))
    text = _explain(tmp_path, "bare.yaml")
    assert "\n\n\n" not in text, text
    assert text.startswith("# Walkthrough: `bare`\n\nRun it with")
    assert "```sh\necho hi\n```\n\n**Healthy:**" in text


def test_a_requirement_line_keeps_its_own_paragraph(tmp_path):
    (tmp_path / "bare.yaml").write_text(BARE)
    text = _explain(tmp_path, "bare.yaml")
    assert "\n\n\n" not in text, text
    assert "```\n\nIt needs `--var model=...` (skipped with a note otherwise).\n\n**Healthy:**" in text
    assert "before it runs.\n\n## Inputs (vars)\n" in text


@pytest.mark.parametrize("name", ["host_smoke", "perf_regression", "drafter_accuracy", "hidden_state_format"])
def test_shipped_walkthroughs_have_no_runs_of_blank_lines(tmp_path, name):
    assert "\n\n\n" not in _explain(tmp_path, name)
