"""A fleet that logs in by user certificate (sshd TrustedUserCAKeys; Vault, step-ca, Teleport
issue them for a day): the certificate expired overnight, or was issued for other principals
than the login user. sshd refuses it with the same "Permission denied" as a wrong key (its log
alone says "Certificate invalid: expired" / "name is not a listed principal": openssh-portable,
auth2-pubkey.c, user_cert_trusted_ca; sshkey.c, sshkey_cert_check_authority). The message said
only "tried: KEY with certificate KEY-cert.pub, KEY", and the hint pointed at root logins and
the host's admin. It now says why the certificate cannot log in, which the certificate itself
tells (`ssh-keygen -L -f`), and to get a new one."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h49_helpers import PLAYBOOK, run_tiny
from tests.sshd_fixture import ClientSetup, SshServer, keygen, write_ssh_config


def _certified_key(tmp_path: Path, principals: str, validity: str) -> tuple[Path, Path]:
    ca, key = keygen(tmp_path / "user_ca"), keygen(tmp_path / "id_gpu")
    subprocess.run(["ssh-keygen", "-q", "-s", str(ca), "-I", "alice@lab", "-n", principals, "-V", validity,
                    f"{key}.pub"], check=True, capture_output=True,
                   env={**os.environ, "TZ": "UTC"})  # -V's dates are local time
    return ca, key


@pytest.mark.parametrize(("principals", "validity", "said"), [
    ("root", "20200101:20200102", "expired at 2020-01-02 00:00:00 UTC"),
    ("alice,bob", "-5m:+1h", "is for alice, bob, not for root"),
    ("root", "+1d:+2d", "is not valid before "),
], ids=["expired", "other-principals", "not-yet-valid"])
def test_a_certificate_the_host_must_refuse_is_named_with_the_reason(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
        principals: str, validity: str, said: str) -> None:
    ca, key = _certified_key(tmp_path, principals, validity)
    server = sshd_factory("ca-only", extra_config=f"TrustedUserCAKeys {ca}.pub\n")
    server.authorized_keys_path.write_text("")  # only certificates of the CA log in
    client.trust(server)
    client.alias("gpu01", server, IdentityFile=str(key))
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    error = record["hosts"][0]["error"]
    assert f"certificate {key}-cert.pub" in error and said in error, error
    if principals == "root":  # other principals a host may map (AuthorizedPrincipalsFile): not refused for that alone
        assert "get a new certificate" in done.stderr, done.stderr
        assert "PermitRootLogin" not in done.stderr, done.stderr


def test_a_valid_certificate_still_logs_in(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path) -> None:
    ca, key = _certified_key(tmp_path, "root", "-5m:+1h")
    server = sshd_factory("ca-only", extra_config=f"TrustedUserCAKeys {ca}.pub\n")
    server.authorized_keys_path.write_text("")
    client.trust(server)
    client.alias("gpu01", server, IdentityFile=str(key))
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr


def test_an_expired_certificate_held_by_ssh_agent_is_named_too(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
        agent_at: Callable[[Path, list[str]], Path]) -> None:
    """`ssh-add KEY` loads KEY-cert.pub beside it too, and `tsh login` or `step ssh login` put
    the certificate straight into the agent: the agent offers it as an identity of its own."""
    ca, key = _certified_key(tmp_path, "root", "20200101:20200102")
    socket_path = agent_at(tmp_path / "agent.sock", [str(key)])
    server = sshd_factory("ca-only", extra_config=f"TrustedUserCAKeys {ca}.pub\n")
    server.authorized_keys_path.write_text("")
    client.trust(server)
    client.hosts["gpu01"] = {"HostName": server.address, "Port": server.port, "UserKnownHostsFile": str(client.known_hosts)}
    write_ssh_config(client.config, client.hosts)
    (tmp_path / "tiny.yaml").write_text(PLAYBOOK)
    done = cli("run", str(tmp_path / "tiny.yaml"), "--host", "gpu01", "--batch", "--out", str(tmp_path / "runs"),
               env={"SSH_AUTH_SOCK": str(socket_path)})
    assert done.code == 3, done.stdout + done.stderr
    assert "it expired at 2020-01-02 00:00:00 UTC" in done.stderr, done.stderr
    assert "get a new certificate" in done.stderr, done.stderr
