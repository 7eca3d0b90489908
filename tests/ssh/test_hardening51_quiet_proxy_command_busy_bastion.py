"""A fleet behind a bastion as Ansible's docs write it, `ProxyCommand ssh -W %h:%p -q bastion`,
run with more forks than the bastion's sshd lets in at once (MaxStartups, default 10:30:100,
against spec-debug's default of 16 forks). The bastion turns away the logins past the limit
before its banner; -q keeps that ssh(1) from saying so ("kex_exchange_identification:
Connection closed by remote host"), it exits 255 with nothing on stderr, and those hosts failed
as "exited with code 255", where the same ProxyCommand without -q is retried one login at a
time (test_hardening50_proxy_command_busy_bastion). A quiet ProxyCommand that failed saying
nothing is tried once more without -q, which either gets through or says why: turned away
(retried as above) or a reason to quote."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from tests.ssh.h49_helpers import run_tiny
from tests.ssh.test_hardening50_proxy_command_busy_bastion import assert_all_connect_through_busy_bastion
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer, keygen

StartServer = Callable[..., SshServer]


def test_many_hosts_through_one_busy_bastions_quiet_proxy_command_all_connect(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path) -> None:
    assert_all_connect_through_busy_bastion(cli, client, sshd_factory, tmp_path, "ssh -F {config} -W %h:%p -q bastion")


def test_a_quiet_proxy_command_refused_by_its_bastion_says_why(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """The retry without -q is what tells: the bastion's refusal is quoted, not "exited with code 255"."""
    with SshServer(tmp_path / "bastion", [ClientKey(keygen(tmp_path / "someone_else"))]) as bastion:
        client.trust(bastion)
        client.alias("bastion", bastion)
        client.alias("gpu01", sshd, ProxyCommand=f"ssh -F {client.config} -W %h:%p -q bastion")
        done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    assert "Permission denied (publickey" in record["hosts"][0]["error"], record["hosts"][0]["error"]
    assert bastion.log_tail().count("Connection closed by authenticating user") <= 2, bastion.log_tail()
