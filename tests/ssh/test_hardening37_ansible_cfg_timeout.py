"""`timeout` in ansible.cfg, and $ANSIBLE_TIMEOUT / $ANSIBLE_SSH_TIMEOUT, are the inventory hosts'
connect timeout, below the inventory's ansible_ssh_timeout.

Ansible's ssh plugin reads its timeout option from [defaults] and [ssh_connection] `timeout` and
from those variables (ansible/ansible: lib/ansible/plugins/connection/ssh.py, DOCUMENTATION). A
fleet that gives its hung hosts 1 s there waited the default 15 s on each here.

The hung host is real: a TCP listener that never sends the SSH banner.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.errors import TransportError, UsageError
from spec_debug.runner.hosts import open_transport, resolve_hosts
from tests.sshd_fixture import ClientSetup, StallingServer, returns_within

_ENV = ("ANSIBLE_CONFIG", "ANSIBLE_TIMEOUT", "ANSIBLE_SSH_TIMEOUT")


@pytest.mark.parametrize(("cfg", "env", "expected"), [
    ("[defaults]\ntimeout = 1\n", {}, "1"),
    ("[defaults]\ntimeout = 30\n[ssh_connection]\ntimeout = 1\n", {}, "1"),
    ("[defaults]\ntimeout = 30\n", {"ANSIBLE_TIMEOUT": "1"}, "1"),
])
def test_the_ansible_cfg_timeout_bounds_the_wait_for_a_hung_host(
        cfg: str, env: dict[str, str], expected: str, client: ClientSetup, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _ENV:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    (tmp_path / "ansible.cfg").write_text(cfg)
    monkeypatch.chdir(tmp_path)
    with StallingServer() as hung:
        inventory = tmp_path / "hosts.ini"
        inventory.write_text(f"[gpus]\ngpu07 ansible_host={hung.address} ansible_port={hung.port}\n"
                             f"gpu08 ansible_host={hung.address} ansible_port={hung.port} ansible_ssh_timeout=7\n")
        specs = {spec.name: spec for spec in resolve_hosts([], [], inventory, None)}
        assert specs["gpu08"].ssh_options.get("connecttimeout") == "7"  # the inventory's own wins
        assert specs["gpu07"].ssh_options.get("connecttimeout") == expected
        with pytest.raises(TransportError) as failed:
            returns_within(30, lambda: open_transport(specs["gpu07"], client.options()), "the connect")
        assert "within 1 s" in failed.value.message, failed.value.message


@pytest.mark.parametrize(("line", "said"), [
    ("timeout = 30s", "[defaults] timeout (for the inventory {inventory}): host gpu07: ansible_ssh_timeout '30s' is not a whole number"),
    ("remote_port = ssh", "[defaults] remote_port (for the inventory {inventory}): host gpu07: ansible_port 'ssh' is not a number"),
])
def test_a_bad_value_in_ansible_cfg_is_refused_naming_ansible_cfg(
        line: str, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It was refused as the inventory's ("hosts.ini: host gpu07: ansible_port 'ssh'"), an
    inventory that sets no port."""
    for name in (*_ENV, "ANSIBLE_REMOTE_PORT"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "ansible.cfg").write_text(f"[defaults]\n{line}\n")
    monkeypatch.chdir(tmp_path)
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\ngpu07 ansible_host=127.0.0.1\n")
    with pytest.raises(UsageError) as refused:
        resolve_hosts([], [], inventory, None)
    expected = f"{tmp_path / 'ansible.cfg'} " + said.format(inventory=inventory)
    assert refused.value.message.startswith(expected), refused.value.message
