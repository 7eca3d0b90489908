"""An ansible.cfg whose ssh_args hold ssh's own `%` tokens (`-o ControlPath=/tmp/cm-%r@%h:%p`, the
usual ControlMaster line) is read as Ansible reads it: every value as written.

Ansible reads ansible.cfg values raw (ansible/ansible: lib/ansible/config/manager.py,
get_ini_config_value: `p.get(section, key, raw=True)`), so `%r` reaches ssh, which expands it.
spec-debug read them through configparser's interpolation, which refuses a `%` not followed by
`%` or `(`: the error dropped the WHOLE file, and the team's remote_user, private_key_file and
remote_port were ignored with it, so every host was tried as the local user on port 22.

The hosts are real: the shared sshd, on its own port, reached through the CLI.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.runner.ansible_cfg import login_defaults
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = """
name: percent
steps:
  - id: hello
    run: echo "hello from {{ host }}"
"""

SSH_ARGS = "-o ControlMaster=auto -o ControlPersist=60s -o ControlPath=/tmp/cm-%r@%h:%p"


def test_ssh_args_with_percent_tokens_keep_the_rest_of_ansible_cfg(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ANSIBLE_CONFIG", "ANSIBLE_REMOTE_PORT", "ANSIBLE_SSH_ARGS"):
        monkeypatch.delenv(name, raising=False)
    project = tmp_path / "ansible"
    project.mkdir()
    (project / "hosts.ini").write_text(
        f"[gpus]\ngpu01 ansible_host={sshd.address} ansible_ssh_private_key_file={client.key.path}\n")
    (project / "ansible.cfg").write_text(
        f"[defaults]\nremote_port = {sshd.port}\n\n[ssh_connection]\nssh_args = {SSH_ARGS}\n")
    (project / "fleet.yaml").write_text(PLAYBOOK)
    result = cli("run", "fleet.yaml", "-i", "hosts.ini", "--batch", "--out", "runs", cwd=project)
    (run,) = (project / "runs").glob("*/run.json")
    (host,) = json.loads(run.read_text())["hosts"]
    assert host["status"] == "passed", (host, result.stderr)


def test_each_value_is_read_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ANSIBLE_REMOTE_USER", "ANSIBLE_PRIVATE_KEY_FILE", "ANSIBLE_SSH_ARGS"):
        monkeypatch.delenv(name, raising=False)
    cfg = tmp_path / "ansible.cfg"
    cfg.write_text("[defaults]\nremote_user = deploy\nprivate_key_file = ~/.ssh/fleet_%(x)s\n\n"
                   f"[ssh_connection]\nssh_args = {SSH_ARGS}\n")
    monkeypatch.setenv("ANSIBLE_CONFIG", str(cfg))
    assert login_defaults() == {"ansible_user": "deploy", "ansible_ssh_private_key_file": "~/.ssh/fleet_%(x)s",
                                "ansible_ssh_args": SSH_ARGS}
