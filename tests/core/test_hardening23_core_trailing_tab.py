"""A tab after a value in a playbook: `run: echo hi<TAB>` (an editor's trailing tab), a tab
before a `# comment`, `run:<TAB>echo`. YAML 1.2.2 (6.2, separation spaces) allows a tab there;
PyYAML refuses it (yaml/pyyaml issues 306 and 450), and real files hit it (a trailing tab
broke unitedstates/contact-congress, pull 1748). The hint said "YAML indents with spaces only",
which sent the user to an indentation that is fine. Now it names the tab's place; a tab in
the indentation keeps the indentation hint. Through the real CLI."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def _validate(tmp_path, text: str) -> str:
    (tmp_path / "p.yaml").write_text(text)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "playbooks", "validate", "p.yaml"], capture_output=True,
                          text=True, cwd=tmp_path, timeout=120, env={**os.environ, "COLUMNS": "400"})
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    return " ".join(proc.stderr.split())


@pytest.mark.parametrize(("line", "where", "hint"), [
    ("    run: echo hi\t\n", "p.yaml:4:17", "a tab at the end of the line, after 'hi' (the YAML reader here refuses one there): remove it"),
    ("    run: echo hi\t# say hi\n", "p.yaml:4:17", "a tab after 'hi' (the YAML reader here takes only spaces between words outside quotes): replace it with a space"),
    ("    run:\techo hi\n", "p.yaml:4:9", "a tab after 'run:'"),
])
def test_a_tab_after_a_value_is_named_as_such(tmp_path, line, where, hint):
    said = _validate(tmp_path, "name: tab\nsteps:\n  - id: a\n" + line)
    assert f"error: {where}: YAML syntax error" in said
    assert hint in said
    assert "indents with spaces only" not in said


def test_a_tab_in_the_indentation_keeps_the_indentation_hint(tmp_path):
    said = _validate(tmp_path, "name: tab\nsteps:\n\t- id: a\n\t  run: echo hi\n")
    assert "p.yaml:3:1" in said and "hint: YAML indents with spaces only: replace the tab here with spaces" in said
