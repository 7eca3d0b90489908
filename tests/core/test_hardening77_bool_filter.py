"""Ansible's `bool` filter in playbooks and inventories.

Before: `when: enable_eagle | bool`, `that: facts.cuda_graph | bool`, the way Ansible authors
turn a yes/no var into a boolean, failed `playbooks validate` with "No filter named 'bool'
(Ansible's own filters and tests do not exist here)"; and an inventory's `ansible_become: "{{
needs_root | bool }}"` could not render, so the become warning was not given at all.

Now `bool` reads as Ansible's does (ansible lib/ansible/plugins/filter/core.py, to_bool):
yes/on/true/1 true, no/off/false/0 false, in any case, the numbers 1 and 0, a bool itself; the
empty text false, as a capture's `type: bool` reads it. A value that is none of those (Ansible
gives False with a deprecation warning) fails the check naming the value, where it would have
skipped a step or passed a check without a word; a None (a capture that matched nothing) is
refused as `| int` refuses it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.playbook.templating import TemplateSite, evaluate_condition, render
from spec_debug.runner.hosts import resolve_hosts
from tests.conftest import run_cli

SITE = TemplateSite(step="s", field="when")


@pytest.mark.parametrize("value, expected", [
    (True, True), (False, False), ("yes", True), ("Yes", True), ("ON", True), ("true", True), ("1", True),
    ("no", False), ("Off", False), ("FALSE", False), ("0", False), ("", False), (" yes\n", True),
    (1, True), (0, False), (1.0, True), (0.0, False),
])
def test_bool_reads_the_words_ansible_reads(value, expected):
    assert evaluate_condition("flag | bool", {"flag": value}, SITE) is expected
    assert render("echo {{ flag | bool }}", {"flag": value}, SITE, shell=True) == f"echo {str(expected).lower()}"


@pytest.mark.parametrize("value, said", [
    ("enabled", "bool() of 'enabled', which is not a yes or no"),
    ("y", "bool() of 'y', which is not a yes or no"),
    (2, "bool() of 2, which is not a yes or no"),
])
def test_a_value_that_is_no_yes_or_no_is_refused_naming_it(value, said):
    with pytest.raises(Exception) as caught:
        evaluate_condition("flag | bool", {"flag": value}, SITE)
    assert said in str(caught.value), str(caught.value)


@pytest.mark.parametrize("expression", ["facts.flag | bool", "facts.flag | default(true) | bool"])
def test_a_missing_value_is_refused_naming_it(expression):
    """Jinja's default passes a None through: read as false, `default(true)` would have been
    ignored without a word."""
    with pytest.raises(Exception) as caught:
        evaluate_condition(expression, {"facts": {"flag": None}}, SITE)
    assert "facts.flag is None" in str(caught.value), str(caught.value)
    assert evaluate_condition("facts.flag is not none and facts.flag | bool", {"facts": {"flag": None}}, SITE) is False


PLAYBOOK = """\
name: bools
vars:
  use_eagle: "yes"
steps:
  - id: probe
    run: echo "graphs={graphs}"
    when: use_eagle | bool
    capture:
      - regex: 'graphs=(?P<graphs>\\S+)'
        type: str
    expect:
      - that: "facts.graphs | bool"
"""


def test_a_playbook_with_bool_validates_and_runs(tmp_path: Path, write_playbook):
    playbook = write_playbook(PLAYBOOK.format(graphs="On"))
    checked = run_cli("playbooks", "validate", str(playbook))
    assert checked.code == 0, checked.stdout + checked.stderr
    ran = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    (step,) = json.loads(ran.stdout)["steps"]
    assert step["status"] == "passed", step
    ran = run_cli("run", str(write_playbook(PLAYBOOK.format(graphs="enabled"))), "--host", "local",
                  "--out", str(tmp_path / "runs2"), "--json")
    (step,) = json.loads(ran.stdout)["steps"]
    assert step["status"] == "error", step
    assert "bool() of 'enabled', which is not a yes or no" in step["message"], step["message"]
    skipped = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs3"), "--json",
                      "--var", "use_eagle=off")
    (step,) = json.loads(skipped.stdout)["steps"]
    assert step["status"] == "skipped", step


def test_an_inventory_become_through_bool_is_warned_of(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)  # no ansible.cfg of the working directory
    monkeypatch.setenv("ANSIBLE_CONFIG", str(tmp_path / "none.cfg"))
    inv = tmp_path / "hosts.yml"
    inv.write_text("all:\n  vars:\n    needs_root: 'yes'\n    ansible_become: \"{{ needs_root | bool }}\"\n"
                   "  hosts:\n    gpu01:\n      ansible_user: ops\n    gpu02:\n      ansible_user: ops\n"
                   "      needs_root: 'no'\n")
    said: list[str] = []
    resolve_hosts([], [], inv, None, warn=said.append)
    assert said == [
        f"{inv}: ansible_become is set for gpu01 (as root, by sudo), which spec-debug does not do: steps run as "
        "the login user (ops), and a step that needs root fails (Permission denied); write `sudo -n` into that "
        "step's command, or log in as root (ansible_user)"]
