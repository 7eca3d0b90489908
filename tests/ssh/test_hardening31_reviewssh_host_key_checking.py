"""`ansible_host_key_checking` / `ansible_ssh_host_key_checking` read as Ansible reads them.

Ansible's ssh plugin takes its host_key_checking option from either variable, the last one set
winning, and an empty one (None) as not set (ansible/ansible: lib/ansible/config/manager.py,
_loop_entries); the option is of type boolean, which takes y/yes/on/1/true/t (any case) as true
and every other value as false, with no error (ensure_type: boolean(value, strict=False)).
Round 31 refused any value outside Ansible's strict lists, a bare `ansible_host_key_checking:`
('None is not a valid boolean') included, which stopped the whole inventory that ansible runs;
and took the first variable set where Ansible takes the last.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.runner.hosts import resolve_hosts


def options_of(tmp_path: Path, host_lines: str, group_lines: str = "") -> dict[str, dict[str, str]]:
    inventory = tmp_path / "hosts.yml"
    inventory.write_text(
        "all:\n  children:\n    cloud:\n      hosts:\n        gpu01:\n          ansible_host: 10.0.0.1\n"
        f"{host_lines}        gpu02:\n          ansible_host: 10.0.0.2\n"
        + (f"      vars:\n{group_lines}" if group_lines else "")
    )
    return {spec.name: spec.ssh_options for spec in resolve_hosts([], [], inventory, None)}


def test_a_bare_variable_is_unset(tmp_path: Path) -> None:
    assert options_of(tmp_path, "          ansible_host_key_checking:\n",
                      "        ansible_ssh_host_key_checking: ~\n") == {"gpu01": {}, "gpu02": {}}


def test_a_bare_host_variable_leaves_the_group_value(tmp_path: Path) -> None:
    """The host's empty value is skipped; the group's `false` is the one set (None is no value)."""
    options = options_of(tmp_path, "          ansible_ssh_host_key_checking:\n",
                         "        ansible_host_key_checking: false\n")
    assert options["gpu01"] == {"stricthostkeychecking": "no"}


@pytest.mark.parametrize(("first", "last", "off"), [("false", "true", False), ("true", "false", True), ("'no'", "'Yes'", False)])
def test_the_last_variable_set_wins(first: str, last: str, off: bool, tmp_path: Path) -> None:
    options = options_of(tmp_path, f"          ansible_host_key_checking: {first}\n          ansible_ssh_host_key_checking: {last}\n")
    assert options["gpu01"] == ({"stricthostkeychecking": "no"} if off else {})


@pytest.mark.parametrize("value", ["maybe", "''", "2", "'1.0'", "0.0"])
def test_a_value_ansible_does_not_know_is_false(value: str, tmp_path: Path) -> None:
    options = options_of(tmp_path, "", f"        ansible_host_key_checking: {value}\n")
    assert options == {"gpu01": {"stricthostkeychecking": "no"}, "gpu02": {"stricthostkeychecking": "no"}}


@pytest.mark.parametrize("value", ["true", "' ON '", "t", "Y", "1", "1.0"])
def test_a_true_value_keeps_checking(value: str, tmp_path: Path) -> None:
    assert options_of(tmp_path, f"          ansible_host_key_checking: {value}\n")["gpu01"] == {}


def test_a_template_leaves_checking_on(tmp_path: Path) -> None:
    """spec-debug evaluates no Jinja; checking on (as before the variable was read) is the safe
    reading, where refusing it stopped every host of the inventory."""
    options = options_of(tmp_path, "          ansible_host_key_checking: \"{{ lookup('env', 'HKC') | default(true) }}\"\n")
    assert options == {"gpu01": {}, "gpu02": {}}
