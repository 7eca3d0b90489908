"""Quoted values in ansible.cfg: Ansible drops one pair of quotes around a text setting read from
an INI file (ansible/ansible: lib/ansible/config/manager.py, ensure_type with an `ini` origin;
lib/ansible/parsing/quoting.py, unquote), so `remote_user = "ubuntu"` logs in as ubuntu and
`private_key_file = "~/.ssh/lab.pem"` names that file.

Before: the values were taken with their quotes: the login went as `"root"`, with the key file
`"/…/id"` that does not exist, and every host failed "authentication failed" where `ansible all
-m ping` logs in. Now the text settings (remote_user, private_key_file, ssh_args,
ssh_common_args, ssh_extra_args, become_user, become_method) lose their quotes as in Ansible;
numbers and booleans keep them (Ansible reads `remote_port = "2222"` as no number, and
`host_key_checking = "True"` as false), and the environment's values are taken as given.
Real sshd: the run logs in with the quoted user and key.
"""

from __future__ import annotations

import getpass
import json
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.runner.ansible_cfg import login_defaults
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = "name: tiny\ndescription: t\nsteps:\n  - id: who\n    title: who\n    why: who\n    run: id -un\n"


@pytest.fixture(autouse=True)
def _no_ansible_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ANSIBLE_CONFIG", "ANSIBLE_REMOTE_USER", "ANSIBLE_PRIVATE_KEY_FILE", "ANSIBLE_REMOTE_PORT",
                 "ANSIBLE_SSH_ARGS", "ANSIBLE_SSH_COMMON_ARGS", "ANSIBLE_SSH_EXTRA_ARGS", "ANSIBLE_HOST_KEY_CHECKING",
                 "ANSIBLE_SSH_HOST_KEY_CHECKING", "ANSIBLE_TIMEOUT", "ANSIBLE_SSH_TIMEOUT", "ANSIBLE_BECOME",
                 "ANSIBLE_BECOME_USER", "ANSIBLE_BECOME_METHOD"):
        monkeypatch.delenv(name, raising=False)


def test_text_settings_lose_their_quotes_numbers_and_booleans_keep_them(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = tmp_path / "ansible.cfg"
    cfg.write_text(
        "[defaults]\n"
        'remote_user = "ubuntu"\n'
        "private_key_file = '~/.ssh/lab key.pem'\n"
        'remote_port = "2222"\n'
        'host_key_checking = "True"\n'
        "[ssh_connection]\n"
        'ssh_args = "-o ProxyJump=bastion"\n'
        "ssh_common_args = \"-o 'User=x'\" \n"  # configparser strips the blank: quotes end the value
        'ssh_extra_args = "-A\\"\n'  # an escaped closing quote: kept, as unquote keeps it
        "[privilege_escalation]\n"
        "become_user = 'sglang'\n"
        'become_method = "sudo\n'  # one quote: kept
    )
    monkeypatch.setenv("ANSIBLE_CONFIG", str(cfg))
    assert login_defaults() == {
        "ansible_user": "ubuntu",
        "ansible_ssh_private_key_file": "~/.ssh/lab key.pem",
        "ansible_port": '"2222"',
        "ansible_host_key_checking": '"True"',
        "ansible_ssh_args": "-o ProxyJump=bastion",
        "ansible_ssh_common_args": "-o 'User=x'",
        "ansible_ssh_extra_args": '"-A\\"',
        "ansible_become_user": "sglang",
        "ansible_become_method": '"sudo',
    }


def test_the_environment_is_taken_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANSIBLE_CONFIG", str(tmp_path / "none.cfg"))
    monkeypatch.setenv("ANSIBLE_REMOTE_USER", '"ops"')
    assert login_defaults() == {"ansible_user": '"ops"'}


def test_a_run_logs_in_with_the_quoted_user_and_key(cli: Callable[..., Any], client: ClientSetup, sshd: SshServer,
                                                     tmp_path: Path) -> None:
    me = getpass.getuser()
    project = tmp_path / "ansible"
    project.mkdir()
    (project / "hosts.ini").write_text(f"[gpus]\ngpu01 ansible_host={sshd.address} ansible_port={sshd.port}\n")
    (project / "ansible.cfg").write_text(f'[defaults]\nremote_user = "{me}"\nprivate_key_file = "{client.key.path}"\n')
    (project / "pb.yaml").write_text(PLAYBOOK)
    done = cli("run", "pb.yaml", "-i", "hosts.ini", "--batch", "--out", "runs", cwd=project)
    assert done.code == 0, (done.stdout, done.stderr)
    (run,) = (project / "runs").glob("*/run.json")
    record = json.loads(run.read_text())
    assert [step["stdout"] for step in record["steps"]] == [f"{me}\n"]
