"""`remote_port` in ansible.cfg, and $ANSIBLE_REMOTE_PORT, are the inventory hosts' port.

Ansible's ssh plugin takes its port from [defaults] remote_port and $ANSIBLE_REMOTE_PORT, below
the inventory's ansible_port / ansible_ssh_port (ansible/ansible: lib/ansible/plugins/connection/
ssh.py, DOCUMENTATION, option `port`). A fleet whose sshd listens on another port says so once
there; spec-debug tried every host on 22 (or the ssh config's Port): "connection refused".

The hosts are real: the shared sshd, on its own port, reached through the CLI.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = """
name: remote_port
description: one shell step per host
steps:
  - id: hello
    title: Say hello
    why: proves the host was reached on its port
    run: echo "hello from {{ host }}"
"""


def _hosts(cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path, cfg: str,
           closed: int) -> dict[str, dict[str, Any]]:
    project = tmp_path / "ansible"
    project.mkdir()
    reach = f"ansible_host={sshd.address} ansible_ssh_private_key_file={client.key.path}"
    # gpu02's own port (a closed one) still wins over ansible.cfg's
    (project / "hosts.ini").write_text(f"[gpus]\ngpu01 {reach}\ngpu02 {reach} ansible_port={closed}\n")
    (project / "ansible.cfg").write_text(cfg)
    (project / "fleet.yaml").write_text(PLAYBOOK)
    cli("run", "fleet.yaml", "-i", "hosts.ini", "--batch", "--out", "runs", cwd=project)
    (run,) = (project / "runs").glob("*/run.json")
    return {h["name"]: h for h in json.loads(run.read_text())["hosts"]}


def test_remote_port_in_ansible_cfg_is_the_hosts_port(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, closed_port: Callable[[], int]) -> None:
    for name in ("ANSIBLE_CONFIG", "ANSIBLE_REMOTE_PORT"):
        monkeypatch.delenv(name, raising=False)
    closed = closed_port()
    hosts = _hosts(cli, client, sshd, tmp_path, f"[defaults]\nremote_port = {sshd.port}   ; our sshd\n", closed)
    assert hosts["gpu01"]["status"] == "passed", hosts
    assert hosts["gpu02"]["status"] == "error" and str(closed) in hosts["gpu02"]["error"], hosts["gpu02"]


def test_ansible_remote_port_in_the_environment_wins_over_ansible_cfg(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, closed_port: Callable[[], int]) -> None:
    monkeypatch.delenv("ANSIBLE_CONFIG", raising=False)
    monkeypatch.setenv("ANSIBLE_REMOTE_PORT", str(sshd.port))
    closed = closed_port()
    hosts = _hosts(cli, client, sshd, tmp_path, f"[defaults]\nremote_port = {closed_port()}\n", closed)
    assert hosts["gpu01"]["status"] == "passed", hosts
