"""Ansible's `ternary` filter in playbooks.

Before: `--speculative-algorithm {{ use_eagle | bool | ternary('EAGLE3', 'NONE') }}`, the way
Ansible authors pick one of two values, failed `playbooks validate` with "No filter named
'ternary' (Ansible's own filters and tests do not exist here)".

Now `ternary(true_value, false_value[, none_value])` picks as Ansible's does (ansible
lib/ansible/plugins/filter/core.py, ternary): by the value's truth, none_value (if given) for a
None. A yes/no word written as text (`"no"`, `"false"`, `"0"`) is refused naming it: as text it
is true, so Ansible gives true_value for `"no"`, the opposite of what its author meant.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.playbook.templating import TemplateSite, render
from tests.conftest import run_cli

SITE = TemplateSite(step="serve", field="run")


@pytest.mark.parametrize("value, expected", [
    (True, "echo EAGLE3"), (False, "echo NONE"), (1, "echo EAGLE3"), (0, "echo NONE"), ("", "echo NONE"),
    ("eagle3", "echo EAGLE3"), ([], "echo NONE"),
])
def test_ternary_picks_by_the_values_truth(value, expected):
    assert render("echo {{ flag | ternary('EAGLE3', 'NONE') }}", {"flag": value}, SITE, shell=True) == expected


def test_a_none_takes_none_value_where_given_and_false_value_where_not():
    context = {"facts": {"algo": None}}
    assert render("echo {{ facts.algo | ternary('a', 'b', 'unset') }}", context, SITE, shell=True) == "echo unset"
    assert render("echo {{ facts.algo | ternary('a', 'b') }}", context, SITE, shell=True) == "echo b"


@pytest.mark.parametrize("value", ["no", "false", "Off", "0", "yes"])
def test_a_yes_or_no_written_as_text_is_refused(value):
    with pytest.raises(Exception) as caught:
        render("echo {{ flag | ternary('EAGLE3', 'NONE') }}", {"flag": value}, SITE, shell=True)
    assert f"ternary of the text {value!r}, which as text is true whatever it says" in str(caught.value)
    assert render("echo {{ flag | bool | ternary('EAGLE3', 'NONE') }}", {"flag": value}, SITE, shell=True) == (
        "echo EAGLE3" if value == "yes" else "echo NONE")


def test_a_playbook_with_ternary_validates_and_runs(tmp_path: Path, write_playbook):
    playbook = write_playbook("""\
name: ternary
vars:
  use_eagle: "yes"
steps:
  - id: flags
    run: echo "algo={{ use_eagle | bool | ternary('EAGLE3', 'NONE') }}"
    capture:
      - regex: 'algo=(?P<algo>\\S+)'
    expect:
      - that: "facts.algo == 'EAGLE3'"
""")
    checked = run_cli("playbooks", "validate", str(playbook))
    assert checked.code == 0, checked.stdout + checked.stderr
    ran = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    (step,) = json.loads(ran.stdout)["steps"]
    assert step["status"] == "passed", step
    assert step["facts"] == {"algo": "EAGLE3"}, step
