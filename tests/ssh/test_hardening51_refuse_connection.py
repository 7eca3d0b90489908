"""`RefuseConnection` (OpenSSH 10.1+) in a block that applies: ssh(1) stops before it connects
and prints the keyword's argument ("RefuseConnection: prod hosts: use the change process";
openssh-portable: readconf.c, oRefuseConnection), the way a team keeps a fleet's production
hosts out of reach of day-to-day logins (`Match originalhost prod-*`). spec-debug knew the keyword and
ignored it, and ran the playbook on the production hosts. Now such a host is refused without a
connection and the record says why; the other hosts run."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientSetup, SshServer, StallingServer


def test_a_host_the_config_refuses_is_never_connected_to_and_the_others_run(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    with StallingServer() as production:
        client.alias("gpu01", sshd)
        with open(client.config, "a") as config:
            config.write(f"Host prod-gpu01\n  HostName {production.address}\n  Port {production.port}\n  ConnectTimeout 2\n"
                         'Match originalhost prod-*\n  RefuseConnection "prod hosts: use the change process"\n')
        done, record = run_tiny(cli, tmp_path, "run", "--hosts", "gpu01,prod-gpu01", "-F", str(client.config))
        accepted = len(production._accepted)
    hosts = {host["name"]: host for host in record["hosts"]}
    assert done.code == 3, done.stdout + done.stderr
    assert hosts["gpu01"]["status"] == "passed", hosts["gpu01"]
    assert "RefuseConnection: prod hosts: use the change process" in hosts["prod-gpu01"]["error"], hosts["prod-gpu01"]
    assert accepted == 0
