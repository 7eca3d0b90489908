"""`ansible_ssh_timeout` in an inventory is the connect timeout, as Ansible's ssh connection
plugin makes it: `-o ConnectTimeout=N` after ssh_args and before ssh_common_args and
ssh_extra_args (ansible/ansible: lib/ansible/plugins/connection/ssh.py, option `timeout`,
_build_command). It was dropped with the other ansible_* variables: a fleet inventory that
gives its hung hosts 3 s (`ansible_ssh_timeout=3`) waited the default 15 s on each here."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.errors import TransportError, UsageError
from spec_debug.runner.hosts import open_transport, resolve_hosts
from tests.sshd_fixture import ClientSetup, StallingServer, returns_within


def test_the_inventory_timeout_bounds_the_wait_for_a_hung_host(client: ClientSetup, tmp_path: Path) -> None:
    with StallingServer() as hung:
        inventory = tmp_path / "hosts.ini"
        inventory.write_text(f"[gpus]\ngpu07 ansible_host={hung.address} ansible_port={hung.port} ansible_ssh_timeout=1\n")
        [spec] = resolve_hosts([], [], inventory, None)
        assert spec.ssh_options.get("connecttimeout") == "1"
        with pytest.raises(TransportError) as failed:
            returns_within(60, lambda: open_transport(spec, client.options()), "the connect")
        assert "within 1 s" in failed.value.message, failed.value.message


def test_ssh_args_come_first_and_the_timeout_beats_common_args(tmp_path: Path) -> None:
    inventory = tmp_path / "hosts.yml"
    inventory.write_text(
        "all:\n  hosts:\n"
        "    a:\n      ansible_ssh_timeout: 5\n      ansible_ssh_args: -o ConnectTimeout=9\n"
        "    b:\n      ansible_ssh_timeout: 5\n      ansible_ssh_common_args: -o ConnectTimeout=9\n"
        "    c:\n      ansible_ssh_common_args: -o ConnectTimeout=9\n"
    )
    specs = {spec.name: spec for spec in resolve_hosts([], [], inventory, None)}
    assert [specs[name].ssh_options.get("connecttimeout") for name in "abc"] == ["9", "5", "9"]


def test_a_timeout_that_is_not_a_number_is_refused_with_its_host(tmp_path: Path) -> None:
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("gpu01 ansible_ssh_timeout=30s\n")
    with pytest.raises(UsageError) as refused:
        resolve_hosts([], [], inventory, None)
    assert "gpu01" in refused.value.message and "ansible_ssh_timeout '30s' is not a whole number of seconds" in refused.value.message


def test_a_templated_timeout_is_named_as_a_template(tmp_path: Path) -> None:
    inventory = tmp_path / "hosts.yml"
    inventory.write_text("all:\n  hosts:\n    gpu01:\n      ansible_ssh_timeout: \"{{ slow_timeout }}\"\n")
    with pytest.raises(UsageError) as refused:
        resolve_hosts([], [], inventory, None)
    # rendered over the host's vars since round 37: slow_timeout is defined nowhere
    assert "host gpu01: ansible_ssh_timeout: " in refused.value.message and "'slow_timeout' is undefined" in refused.value.message, \
        refused.value.message


def test_ansible_timeout_counts_too_after_ansible_ssh_timeout(tmp_path: Path) -> None:
    """Ansible's PlayContext takes the first of ansible_ssh_timeout, ansible_timeout
    (lib/ansible/constants.py, MAGIC_VARIABLE_MAPPING) and hands it to the ssh plugin."""
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\ngpu01 ansible_timeout=7\ngpu02 ansible_timeout=7 ansible_ssh_timeout=4\n")
    specs = {spec.name: spec for spec in resolve_hosts([], [], inventory, None)}
    assert [specs[name].ssh_options.get("connecttimeout") for name in ("gpu01", "gpu02")] == ["7", "4"]
