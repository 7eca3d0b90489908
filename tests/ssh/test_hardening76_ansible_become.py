"""An inventory's `ansible_become` (and ansible.cfg's [privilege_escalation] become), which
Ansible honours by running each task as ansible_become_user (root unless set) through
ansible_become_method (sudo unless set): spec-debug does not become, and now says so.

Before: the variables were dropped with the other ansible_* ones, silently: a fleet whose
group_vars/all says `ansible_become: true` ran every step as the login user, and a step that
needs root failed "Permission denied" with nothing to say why. Now a warning on stderr names
where it is set, the hosts, the user it asks for and what to do instead (`sudo -n` in the step,
or log in as that user), and the host's record (and so the report) keeps it. Not refused: the
shipped playbooks need no root, and a refusal would stop every inventory that sets it for all
hosts. Nothing is said where the login user is the become user already, or become is false.
Real sshd: the steps run, as the login user.
"""

from __future__ import annotations

import getpass
import json
from pathlib import Path

import pytest

from spec_debug.runner.hosts import resolve_hosts
from tests.conftest import run_cli
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = "name: tiny\ndescription: t\nsteps:\n  - id: who\n    title: who\n    why: who\n    run: id -un\n"

SAID = ("(as {user}, by {method}), which spec-debug does not do: steps run as the login user ({login}), and a "
        "step that needs {user} fails (Permission denied); write `sudo -n` into that step's command, or log in "
        "as {user} (ansible_user)")


def _warnings(inventory: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    monkeypatch.chdir(tmp_path)  # no ansible.cfg of the working directory
    monkeypatch.setenv("ANSIBLE_CONFIG", str(tmp_path / "none.cfg"))
    said: list[str] = []
    resolve_hosts([], [], inventory, None, warn=said.append)
    return said


def test_become_in_group_vars_is_said_once_for_the_hosts_that_share_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inv = tmp_path / "hosts.ini"
    inv.write_text("[gpus]\ngpu01\ngpu02\ngpu03 ansible_become_user=sglang ansible_become_method=su\n"
                   "[gpus:vars]\nansible_user=ops\nansible_become=yes\n")
    assert _warnings(inv, monkeypatch, tmp_path) == [
        f"{inv}:7: ansible_become is set for gpu01, gpu02 " + SAID.format(user="root", method="sudo", login="ops"),
        f"{inv}:7: ansible_become is set for gpu03 " + SAID.format(user="sglang", method="su", login="ops"),
    ]


@pytest.mark.parametrize("line", [
    "gpu01 ansible_user=root ansible_become=true",  # root already
    "gpu01 ansible_user=svc ansible_become=true ansible_become_user=svc",
    "gpu01 ansible_become=false",
    "gpu01 ansible_become=no ansible_become_user=root",
    "gpu01 ansible_become_user=root",  # a user to become, but no become
])
def test_nothing_is_said_where_nothing_would_change(line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inv = tmp_path / "hosts.ini"
    inv.write_text(line + "\n")
    assert _warnings(inv, monkeypatch, tmp_path) == []


def test_ansible_cfg_become_is_said_with_its_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inv = tmp_path / "hosts.yml"
    inv.write_text("all:\n  hosts:\n    gpu01:\n      ansible_user: ops\n")
    cfg = tmp_path / "ansible.cfg"
    cfg.write_text("[privilege_escalation]\nbecome = True\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ANSIBLE_CONFIG", str(cfg))
    said: list[str] = []
    resolve_hosts([], [], inv, None, warn=said.append)
    assert said == [f"{cfg} [privilege_escalation] become (for the inventory {inv}): ansible_become is set for gpu01 "
                    + SAID.format(user="root", method="sudo", login="ops")]


def test_a_run_says_it_and_keeps_it_in_the_record(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    me = getpass.getuser()
    inv = tmp_path / "hosts.yml"
    inv.write_text(f"all:\n  vars:\n    ansible_become: true\n    ansible_become_user: sglang\n  hosts:\n    gpu01:\n"
                   f"      ansible_host: 127.0.0.1\n      ansible_port: {sshd.port}\n      ansible_user: {me}\n"
                   f"      ansible_ssh_private_key_file: {client.key.path}\n")
    (tmp_path / "pb.yaml").write_text(PLAYBOOK)
    done = run_cli("run", str(tmp_path / "pb.yaml"), "-i", str(inv), "--batch", "-F", str(client.config),
                   "--out", str(tmp_path / "runs"),
                   env={"HOME": str(client.home), "ANSIBLE_CONFIG": str(tmp_path / "none.cfg")})
    assert done.code == 0, (done.stdout, done.stderr)
    said = f"{inv}: ansible_become is set for gpu01 " + SAID.format(user="sglang", method="sudo", login=me)
    assert f"warning: {said}\n" in done.stderr
    (run_dir,) = [p for p in (tmp_path / "runs").iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text())
    assert [step["stdout"] for step in record["steps"]] == [f"{me}\n"]
    assert record["hosts"][0]["warnings"] == [said]


def test_the_login_user_of_the_ssh_config_counts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No ansible_user: the ssh config's User is the login (`Host gpu01 / User root` under
    `ansible_become: true` logs in as root already), and the local user for a local host."""
    me = getpass.getuser()
    config = tmp_path / "ssh_config"
    config.write_text("Host gpu01\n  User root\nHost gpu02\n  User ops\n")
    inv = tmp_path / "hosts.ini"
    inv.write_text(f"gpu01\ngpu02\ngpu03\nhere ansible_connection=local ansible_become_user={me}\n"
                   "[all:vars]\nansible_become=true\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ANSIBLE_CONFIG", str(tmp_path / "none.cfg"))
    said: list[str] = []
    specs = resolve_hosts([], [], inv, None, warn=said.append, ssh_config=config)
    assert said == [
        f"{inv}:6: ansible_become is set for gpu02 " + SAID.format(user="root", method="sudo", login="ops"),
        f"{inv}:6: ansible_become is set for gpu03 " + SAID.format(user="root", method="sudo", login=me),
    ] if me != "root" else [f"{inv}:6: ansible_become is set for gpu02 " + SAID.format(user="root", method="sudo", login="ops")]
    assert {spec.name: list(spec.warnings) for spec in specs} == {
        "gpu01": [], "gpu02": [said[0]], "gpu03": said[1:], "here": []}
