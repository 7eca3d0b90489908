"""Review of today's two load/run-time rules on real runs (--host local, the real CLI).

3a5bf8f made `facts.x | float` of a capture that matched nothing the step's error (missing
evidence), not 0. An author who answered the missing capture with Jinja's default filter,
`facts.accept | default(0) | float` (Ansible's habit: there a missing result is undefined), got
the error too: default passes a None through, so the strict float saw it. The default is the
author's answer to absence, and the check decides as before.

2fbe74c refused `steps.ID.FIELD` for a field no step result has. A result is a dict, so its
methods (`steps.a.get('status')`, `steps.a.items()`) read it and ran before; they were refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from spec_debug.playbook.templating import STEP_RESULT_FIELDS, TemplateError, TemplateSite, evaluate

PLAYBOOK = """\
name: absence
steps:
  - id: accept
    run: 'echo "{line}"'
    capture:
      - name: accept
        regex: 'accept length: (?P<accept>[0-9.]+)'
        type: str
    expect:
      - that: "{that}"
        finding: SD101
"""


def _cli(tmp_path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=tmp_path,
                          timeout=180, env={**os.environ, "COLUMNS": "400"})


def _codes(tmp_path, line: str, that: str) -> list[str]:
    (tmp_path / "p.yaml").write_text(PLAYBOOK.format(line=line, that=that))
    proc = _cli(tmp_path, "run", "p.yaml", "--host", "local")
    assert "Traceback" not in proc.stderr, proc.stderr
    [record] = (tmp_path / "runs").glob("*/run.json")
    return [f["code"] for f in json.loads(record.read_text())["findings"]]


@pytest.mark.parametrize(("that", "raised"), [
    ("facts.accept | default(0) | float > 2", True),  # was SD003 'facts.accept is None'
    ("facts.accept | d(3) | int > 2", True),
    ("facts.accept is none or facts.accept | float > 2", False),
    ("not facts.accept", False),
])
def test_a_check_that_answers_absence_itself_still_decides(tmp_path, that, raised):
    codes = _codes(tmp_path, "no metrics yet", that)
    assert ("SD101" in codes) is raised and "SD003" not in codes


def test_a_bare_float_of_nothing_is_still_missing_evidence(tmp_path):
    codes = _codes(tmp_path, "no metrics yet", "facts.accept | float > 2")
    assert "SD003" in codes and "SD101" not in codes


def test_a_step_results_dict_methods_still_load_and_run(tmp_path):
    (tmp_path / "p.yaml").write_text(
        "name: r\nsteps:\n  - id: a\n    run: echo a\n  - id: b\n"
        "    when: \"steps.a.get('status') == 'passed'\"\n"
        "    run: echo \"{{ steps.a.keys() | sort | join(',') }}\"\n")
    proc = _cli(tmp_path, "playbooks", "validate", "p.yaml")
    assert proc.returncode == 0, proc.stderr
    proc = _cli(tmp_path, "run", "p.yaml", "--host", "local")
    [record] = (tmp_path / "runs").glob("*/run.json")
    [_, b] = json.loads(record.read_text())["steps"]
    # What a result holds is what validate accepts (templating.STEP_RESULT_FIELDS, engine._step_view).
    assert b["status"] == "passed" and b["stdout"].strip() == ",".join(sorted(STEP_RESULT_FIELDS)), b


def test_a_number_filter_of_a_none_that_is_no_fact_says_how_to_guard_it():
    # `that: steps.serve.exit_code | int == 0` after a step that timed out (exit_code None):
    # was "TypeError: int() of None", no word of the fix.
    with pytest.raises(TemplateError, match=r"int\(\) of None \(a value that is not set\): test it with 'is not none' "
                                            r"first, or give a default: \| int\(0\)"):
        evaluate("steps.serve.exit_code | int == 0", {"steps": {"serve": {"exit_code": None}}}, TemplateSite("b", "that"))
