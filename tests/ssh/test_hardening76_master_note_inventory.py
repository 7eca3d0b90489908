"""A refused login of an inventory host while ssh(1) keeps a master connection open for it: the
hint says first that `ssh gpu` rides that master (ssh_control_master), then the login's own hint,
into which the inventory's names go (hosts._with_inventory_login_hint: "check User and
IdentityFile in your ssh config, and ansible_user and ansible_ssh_private_key_file in hosts.ini").

Before: the inventory's names went into the first "in your ssh config" of the whole hint, the
master note's own: "(ControlMaster and ControlPath in your ssh config, and ansible_user and
ansible_ssh_private_key_file in hosts.ini (or remote_user and private_key_file in ansible.cfg))",
as if the inventory set the master, and the login's own "check User and IdentityFile in your
ssh config" was left unnamed. Now the master note is kept as written and the names go into the
login's hint. Real sshd (key then password), real ssh(1) master.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from spec_debug.errors import AuthenticationError
from spec_debug.runner.hosts import HostSpec, _with_inventory_login_hint
from tests.ssh.test_hardening73_control_master import PASSWORD_HINT, TINY, master_host, socket_dir  # noqa: F401

NOTE = ("`ssh gpu` logs in through the master connection ssh(1) keeps open at /tmp/cm/ab12 (ControlMaster and ControlPath "
        "in your ssh config), so it asks for nothing while that connection lasts; spec-debug cannot share it and logs in anew")


def test_the_inventory_names_go_into_the_logins_hint_not_the_master_note() -> None:
    refused = AuthenticationError("gpu: authentication failed", hint=f"{NOTE}; check User and IdentityFile in your ssh config")
    named = _with_inventory_login_hint(refused, HostSpec(name="gpu", address="gpu", inventory="hosts.ini"))
    assert named.hint == (f"{NOTE}; check User and IdentityFile in your ssh config, and ansible_user and "
                          "ansible_ssh_private_key_file in hosts.ini (or remote_user and private_key_file in ansible.cfg)")


def test_a_master_note_alone_is_left_as_written() -> None:
    refused = AuthenticationError("gpu: authentication failed", hint=f"{NOTE}; {PASSWORD_HINT}")
    assert _with_inventory_login_hint(refused, HostSpec(name="gpu", address="gpu", inventory="hosts.ini")) is refused


def test_a_refused_inventory_host_with_an_open_master(cli: Callable[..., Any], master_host: Path, socket_dir: Path,
                                                      tmp_path: Path) -> None:
    [socket_path] = socket_dir.iterdir()
    (tmp_path / "hosts.ini").write_text("gpu\n")
    (tmp_path / "tiny.yaml").write_text(TINY)
    out = tmp_path / "out"
    done = cli("run", str(tmp_path / "tiny.yaml"), "-i", str(tmp_path / "hosts.ini"), "-F", str(master_host), "--batch",
               "--out", str(out), env={"ANSIBLE_CONFIG": str(tmp_path / "none.cfg")})
    assert done.code == 3, done.stdout + done.stderr
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    [host] = json.loads((run_dir / "run.json").read_text())["hosts"]
    assert host["hint"] == NOTE.replace("/tmp/cm/ab12", str(socket_path)) + "; " + PASSWORD_HINT
