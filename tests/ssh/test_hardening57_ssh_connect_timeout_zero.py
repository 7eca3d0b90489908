"""`ConnectTimeout 0` (or `--connect-timeout 0`) was read as our 15 s default: the opposite of
what it says to ssh(1), where 0 is no timeout of its own, a blocking connect() that waits as long
as the kernel does (openssh-portable: misc.c, timeout_connect: "No timeout: just do a blocking
connect()"; `ssh -G -o ConnectTimeout=0 h` keeps 0). A user who wrote 0 for a slow link had the
host failed after 15 s. Now 0 waits as long as Linux's own connect does: 127 s with the default
tcp_syn_retries 6 (Documentation/networking/ip-sysctl.rst, tcp_syn_retries), still bounded so a
hung host does not hold the run. The login is real: the fixture's sshd."""

from __future__ import annotations

from pathlib import Path

from spec_debug.runner.hosts import open_transport, resolve_hosts
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target
from tests.ssh.test_hardening19_review_config_newer_openssh import write_config
from tests.ssh.test_hardening31_ssh_ansible_ssh_args import write_inventory
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientSetup, SshServer


def test_connect_timeout_zero_waits_as_long_as_the_kernel(tmp_path: Path) -> None:
    config = load_ssh_config(write_config(tmp_path, "Host gpu01\n  ConnectTimeout 0\n"))
    assert resolve_target("gpu01", config).connect_timeout_s == 127.0
    plain = load_ssh_config(write_config(tmp_path, "Host gpu01\n  User u\n"))
    assert resolve_target("gpu01", plain, connect_timeout_s=0.0).connect_timeout_s == 127.0  # --connect-timeout 0
    assert resolve_target("gpu01", plain).connect_timeout_s == 15.0  # unset: the default as before


def test_connect_timeout_zero_logs_in(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    inventory = write_inventory(tmp_path, sshd, client.key, "        ansible_ssh_common_args: '-o ConnectTimeout=0'\n")
    [spec] = resolve_hosts(["gpu01"], [], inventory, None)
    with open_transport(spec, client.options()) as transport:
        outcome, stdout, _ = run(transport, "echo logged-in")
        assert (outcome.exit_code, stdout.text()) == (0, "logged-in\n")
