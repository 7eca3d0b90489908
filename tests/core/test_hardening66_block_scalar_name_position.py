"""An undefined name inside a script written over several lines is named at its own line.

`run: |` (or `>`, or a quoted value folded over lines) with `{{ prot }}` ten lines down the
script was refused at the key's line and column (`7:10`, the `|`): the author had to search the
script for the typo. The error now names the line and column of the name itself; a one-line
value keeps its own position, as before."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text

HEAD = "name: health\nvars:\n  port: 30000\nsteps:\n  - id: health\n"


def _refused(text: str) -> PlaybookError:
    with pytest.raises(PlaybookError) as raised:
        load_playbook_text(HEAD + text, source="p.yaml")
    return raised.value


@pytest.mark.parametrize(("run", "line"), [
    ("    run: |\n      echo start\n      echo {{ port }}\n      curl -s http://localhost:{{ prot }}/health\n", 9),
    ("    run: >\n      echo start &&\n      echo {{ port }} &&\n      curl -s http://localhost:{{ prot }}/health\n", 9),
    ('    run: "echo start &&\n      echo {{ port }} &&\n      curl -s http://localhost:{{ prot }}/health"\n', 8),
])
def test_a_typo_down_a_script_is_named_at_its_line(run, line):
    error = _refused(run)
    assert str(error).startswith(f"p.yaml:{line}:35: undefined variable 'prot' in step 'health'"), str(error)
    assert error.hint == "did you mean 'port'?"


def test_a_typo_in_a_finding_remediation_block_is_named_at_its_line():
    error = _refused("    run: echo {{ port }}\n    findings:\n      - code: SD900\n        remediation: |\n"
                     "          restart the server\n          on port {{ prto }} ({{ host }})\n")
    assert str(error).startswith("p.yaml:11:22: undefined variable 'prto' in the remediation of the finding"), str(error)


def test_a_name_only_in_a_later_step_is_not_taken_for_this_ones():
    # The name is found only within this value's lines: not at step two's `{{ prot }}`.
    error = _refused("    run: |\n      echo {{ port }} {{\n      prot }}\n  - id: two\n    run: echo {{ prot }}\n")
    assert str(error).startswith("p.yaml:6:10: undefined variable 'prot' in step 'health'"), str(error)


def test_a_one_line_value_keeps_its_position():
    error = _refused("    run: echo {{ port }} {{ prot }}\n")
    assert str(error).startswith("p.yaml:6:10: undefined variable 'prot'"), str(error)
