"""`ansible_become`, `ansible_become_user` and `ansible_become_method` written as templates over
the inventory's vars, as Ansible renders them (`ansible_become_user: "{{ svc_user }}"` with
svc_user in group_vars).

Before: the become warning showed the template text as the user ("as {{ svc_user }}, by sudo
... log in as {{ svc_user }} (ansible_user)"), warned where the template named the login user
itself, and said nothing of `ansible_become: "{{ needs_root }}"`. Now they are rendered from
the inventory's vars as the connection variables are: the warning names the user, says nothing
where that is the login user, and a `become` template that renders true is warned of. One that
cannot render from the inventory (a var of the play) is not refused (become is only warned of):
the warning says the user is the one that template names.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.runner.hosts import resolve_hosts

SAID = ("(as {user}, by {method}), which spec-debug does not do: steps run as the login user ({login}), and a "
        "step that needs {need} fails (Permission denied); write `sudo -n` into that step's command, or log in "
        "as {need} (ansible_user)")


def _warnings(inventory: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    monkeypatch.chdir(tmp_path)  # no ansible.cfg of the working directory
    monkeypatch.setenv("ANSIBLE_CONFIG", str(tmp_path / "none.cfg"))
    said: list[str] = []
    resolve_hosts([], [], inventory, None, warn=said.append)
    return said


def test_a_become_user_template_is_rendered_from_the_inventory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inv = tmp_path / "hosts.yml"
    inv.write_text("all:\n  vars:\n    svc_user: vllm\n    how: su\n    ansible_become: true\n"
                   "    ansible_become_user: \"{{ svc_user }}\"\n    ansible_become_method: \"{{ how }}\"\n"
                   "  hosts:\n    gpu01:\n      ansible_user: ops\n")
    assert _warnings(inv, monkeypatch, tmp_path) == [
        f"{inv}: ansible_become is set for gpu01 " + SAID.format(user="vllm", method="su", login="ops", need="vllm")]


def test_a_template_naming_the_login_user_says_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inv = tmp_path / "hosts.ini"
    inv.write_text("gpu01 ansible_user=ops ansible_become=true ansible_become_user='{{ ansible_user }}'\n")
    assert _warnings(inv, monkeypatch, tmp_path) == []


def test_a_become_template_that_renders_true_is_warned_of(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inv = tmp_path / "hosts.yml"
    inv.write_text("all:\n  vars:\n    needs_root: true\n  hosts:\n    gpu01:\n      ansible_user: ops\n"
                   "      ansible_become: \"{{ needs_root }}\"\n    gpu02:\n      ansible_user: ops\n"
                   "      ansible_become: \"{{ not needs_root }}\"\n")
    assert _warnings(inv, monkeypatch, tmp_path) == [
        f"{inv}: ansible_become is set for gpu01 " + SAID.format(user="root", method="sudo", login="ops", need="root")]


def test_a_template_of_the_plays_vars_is_said_to_be_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inv = tmp_path / "hosts.yml"
    inv.write_text("all:\n  hosts:\n    gpu01:\n      ansible_user: ops\n      ansible_become: true\n"
                   "      ansible_become_user: \"{{ play_user }}\"\n")
    assert _warnings(inv, monkeypatch, tmp_path) == [
        f"{inv}: ansible_become is set for gpu01 " + SAID.format(
            user="the user '{{ play_user }}' names, a template spec-debug cannot render from the inventory",
            method="sudo", login="ops", need="that user")]


def test_an_env_lookup_in_become_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`ansible_become_user: "{{ lookup('env', 'SVC_USER') }}"`, read as in the connection
    variables; unset, it stays a template, named as one."""
    inv = tmp_path / "hosts.yml"
    inv.write_text("all:\n  hosts:\n    gpu01:\n      ansible_user: ops\n      ansible_become: \"{{ lookup('env', 'BECOME') }}\"\n"
                   "      ansible_become_user: \"{{ lookup('env', 'SVC_USER') }}\"\n")
    monkeypatch.setenv("BECOME", "yes")
    monkeypatch.setenv("SVC_USER", "sglang")
    assert _warnings(inv, monkeypatch, tmp_path) == [
        f"{inv}: ansible_become is set for gpu01 " + SAID.format(user="sglang", method="sudo", login="ops", need="sglang")]
    monkeypatch.delenv("SVC_USER")
    assert _warnings(inv, monkeypatch, tmp_path) == [
        f"{inv}: ansible_become is set for gpu01 " + SAID.format(
            user="the user \"{{ lookup('env', 'SVC_USER') }}\" names, a template spec-debug cannot render from the inventory",
            method="sudo", login="ops", need="that user")]
