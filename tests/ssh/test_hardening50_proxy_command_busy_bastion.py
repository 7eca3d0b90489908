"""A fleet behind a bastion reached the classic way, `ProxyCommand ssh -W %h:%p bastion` (what
Ansible's docs give for ansible_ssh_common_args): every host starts its own ssh(1) to the
bastion, all at once with --forks, and the bastion's sshd turns away those past MaxStartups
(default 10:30:100) before its banner. That ssh(1) exits 255 saying
"kex_exchange_identification: Connection closed by remote host" / "Connection reset by BASTION
port 22". 6 of 8 hosts failed as "ProxyCommand ... exited with code 255", the bastion fine
and the next run failing the same way; a ProxyJump fleet, or hosts reached directly, retry such
a refusal one login at a time (ssh_startups). So does a ProxyCommand's."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from tests.ssh.test_fleet_faults import _BusyBastion, load_run
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]


def test_many_hosts_through_one_busy_bastions_proxy_command_all_connect(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path) -> None:
    assert_all_connect_through_busy_bastion(cli, client, sshd_factory, tmp_path, "ssh -F {config} -W %h:%p bastion")


def assert_all_connect_through_busy_bastion(cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer,
                                            tmp_path: Path, proxy_command: str) -> None:
    """Eight hosts, each reached through `proxy_command` (`{config}`: the client's ssh config) to
    a bastion that lets 2 unauthenticated logins in at once, run with 8 forks: all pass."""
    bastion = _BusyBastion(tmp_path / "busy-bastion", [client.key]).start()
    try:
        client.trust(bastion)
        client.alias("bastion", bastion)
        names = [f"gpu{index:02d}" for index in range(1, 9)]
        for index, name in enumerate(names):
            node = sshd_factory(name) if index < 2 else None  # two real nodes, the rest names of the second
            if node is not None:
                client.trust(node)
                server = node
            client.alias(name, server, ProxyCommand=proxy_command.format(config=client.config))
        playbook = tmp_path / "tiny.yaml"
        playbook.write_text("name: tiny\ndescription: t\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: echo ok\n")
        out = tmp_path / "runs"
        result = cli("run", str(playbook), "--hosts", "gpu[01-08]", "--forks", "8", "-F", str(client.config), "--batch",
                     "--out", str(out))
    finally:
        bastion.stop()
    _, record = load_run(out)
    assert result.code == 0, [h["error"] for h in record["hosts"] if h["error"]]
    assert [h["status"] for h in record["hosts"]] == ["passed"] * 8
