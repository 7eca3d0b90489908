"""`RevokedHostKeys /etc/ssh/revoked_hosts.krl ~/.ssh/revoked_hosts`: the fleet's list beside a
person's own, several files in one line as OpenSSH 10.3 reads them, each checked
(openssh-portable: readconf.c, oRevokedHostKeys; sshconnect.c, verify_host_key). Read as one
file name with a space in it, that file did not exist and every host was refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientSetup, SshServer


def test_every_file_of_revoked_host_keys_is_checked(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, sshd_factory: Callable[..., SshServer],
        tmp_path: Path) -> None:
    other = sshd_factory("gpu02")
    client.trust(other)
    fleet_list, own_list = tmp_path / "fleet_revoked", tmp_path / "own_revoked"
    fleet_list.write_text("# nothing revoked fleet-wide yet\n")
    own_list.write_text(Path(f"{sshd.host_key_path}.pub").read_text())
    files = f"{fleet_list} {own_list}"
    client.alias("gpu01", sshd, RevokedHostKeys=files)
    client.alias("gpu02", other, RevokedHostKeys=files)
    done, record = run_tiny(cli, tmp_path, "run", "--hosts", "gpu01,gpu02", "-F", str(client.config))
    hosts = {host["name"]: host for host in record["hosts"]}
    assert done.code == 3, done.stdout + done.stderr
    assert f"is revoked by RevokedHostKeys {own_list}" in hosts["gpu01"]["error"], hosts["gpu01"]
    assert hosts["gpu02"]["status"] == "passed", hosts["gpu02"]
