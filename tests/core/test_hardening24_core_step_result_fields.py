"""`when: steps.a.ok` (Ansible's `result is succeeded`, `result.rc`): a step's result has no such
field. validate said 'ok', and at run time every host failed as 'internal error: UndefinedError:
'dict object' has no attribute 'ok'' (the expression gave an Undefined, whose truth test raised
outside the expression's error handling), losing the rest of the host's steps. Now validate
names the field meant, and a run-time read of a missing field is the step's own error.
Through the real CLI."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from spec_debug.playbook.templating import TemplateError, TemplateSite, evaluate


def _cli(tmp_path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=tmp_path,
                          timeout=120, env={**os.environ, "COLUMNS": "400"})


@pytest.mark.parametrize(("when", "said", "hint"), [
    ("steps.a.ok", "steps.a.ok, but a step's result has no 'ok'", "write steps.a.status == 'passed'"),
    ("steps['a'].rc == 0", "steps.a.rc, but a step's result has no 'rc'", "write steps.a.exit_code"),
    ("steps.a.exitcode == 0", "steps.a.exitcode, but a step's result has no 'exitcode'", "a step's result has status, exit_code, stdout, stderr"),
])
def test_a_field_no_step_result_has_is_refused_at_load(tmp_path, when, said, hint):
    (tmp_path / "p.yaml").write_text(f"name: r\nsteps:\n  - id: a\n    run: echo a\n  - id: b\n    when: \"{when}\"\n"
                                     "    run: echo b\n")
    proc = _cli(tmp_path, "playbooks", "validate", "p.yaml")
    text = " ".join(proc.stderr.split())
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "error: p.yaml:6:11: step 'b' reads " + said in text and f"hint: {hint}" in text


def test_the_fields_a_step_has_still_load(tmp_path):
    (tmp_path / "p.yaml").write_text("name: r\nsteps:\n  - id: a\n    run: echo a\n  - id: b\n"
                                     "    when: steps.a.status == 'passed' and steps.a.exit_code == 0 and 'a' in steps.a.stdout\n"
                                     "    run: echo b\n")
    assert _cli(tmp_path, "playbooks", "validate", "p.yaml").returncode == 0


def test_a_missing_field_at_run_time_is_the_sites_error_not_an_undefined():
    with pytest.raises(TemplateError, match="'dict object' has no attribute 'ok'"):
        evaluate("steps.a.ok", {"steps": {"a": {"status": "passed"}}}, TemplateSite("b", "when"))
