"""`ansible_ssh_timeout: 30.0` (a YAML float) or `ansible_ssh_timeout=+30` in an inventory was
refused as "not a whole number of seconds" and the run stopped, where Ansible takes both: its
config manager reads an integer option through Decimal and keeps any value whose fraction is
zero (ansible/ansible-core: lib/ansible/config/manager.py, ensure_type, 'integer':
`decimal.Decimal(value) == int(decimal_value)`; the ssh plugin's `timeout` is type integer).
Now read as Ansible reads it; `30.5`, `30s` and a negative time are still refused. The host
the timeout bounds is real: the fixture's sshd."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.hosts import open_transport, resolve_hosts
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientSetup, SshServer


@pytest.mark.parametrize(("written", "seconds"), [("30.0", "30"), ("'+30'", "30"), ("' 30 '", "30"), ("3e1", "30")])
def test_a_whole_number_ansible_takes_is_the_timeout(written: str, seconds: str, tmp_path: Path) -> None:
    inventory = tmp_path / "hosts.yml"
    inventory.write_text(f"all:\n  hosts:\n    gpu01:\n      ansible_ssh_timeout: {written}\n")
    [spec] = resolve_hosts([], [], inventory, None)
    assert spec.ssh_options.get("connecttimeout") == seconds


@pytest.mark.parametrize("written", ["30.5", "30s", "-5", ".nan", "'inf'"])
def test_what_ansible_or_ssh_refuses_is_refused(written: str, tmp_path: Path) -> None:
    inventory = tmp_path / "hosts.yml"
    inventory.write_text(f"all:\n  hosts:\n    gpu01:\n      ansible_ssh_timeout: {written}\n")
    with pytest.raises(UsageError) as refused:
        resolve_hosts([], [], inventory, None)
    assert "gpu01" in refused.value.message and "is not a whole number of seconds" in refused.value.message


def test_a_float_timeout_logs_in(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    inventory = tmp_path / "hosts.yml"
    inventory.write_text(f"all:\n  hosts:\n    gpu01:\n      ansible_host: 127.0.0.1\n      ansible_port: {sshd.port}\n"
                         f"      ansible_ssh_private_key_file: {client.key.path}\n      ansible_ssh_timeout: 10.0\n")
    client.trust(sshd)
    [spec] = resolve_hosts([], [], inventory, None)
    with open_transport(spec, client.options()) as transport:
        outcome, stdout, _ = run(transport, "echo logged-in")
        assert (outcome.exit_code, stdout.text()) == (0, "logged-in\n")
