"""A fleet that ships `RevokedHostKeys` (a leaked or retired host key, listed in a file or in a
key revocation list made with `ssh-keygen -k`): ssh(1) refuses such a host whatever
known_hosts says ("Host key ED25519 SHA256:... revoked by file ..."), and refuses every host
when the file is missing (openssh-portable: sshconnect.c, verify_host_key). spec-debug read
the keyword and ignored it, so it logged in to the hosts `ssh` refused. The other hosts of the
run still run; the record names the refused one."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.sshd_fixture import SSH_KEYGEN, ClientSetup, SshServer, keygen

PLAYBOOK = "name: tiny\ndescription: t\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: 'true'\n"


def _run(cli: Callable[..., Any], tmp_path: Path, *hosts: str) -> tuple[Any, dict[str, dict[str, Any]]]:
    tmp_path.mkdir(exist_ok=True)
    playbook = tmp_path / "tiny.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    args = [arg for host in hosts for arg in ("--host", host)]
    done = cli("run", str(playbook), *args, "--batch", "--out", str(out))
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text())
    return done, {host["name"]: host for host in record["hosts"]}


def _ssh_refuses(client: ClientSetup, alias: str) -> bool:
    if shutil.which("ssh") is None:
        pytest.skip("no ssh(1) to compare with")
    done = subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", alias, "true"],
                          capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL, check=False)
    return done.returncode == 255 and "Host key verification failed" in done.stderr


def _host_public_key(server: SshServer) -> str:
    return Path(f"{server.host_key_path}.pub").read_text()


def test_a_host_whose_key_is_listed_in_revoked_host_keys_is_refused_and_the_others_run(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, sshd_factory: Callable[..., SshServer],
        tmp_path: Path) -> None:
    other = sshd_factory("gpu02")
    client.trust(other)
    revoked = client.home / ".ssh" / "revoked_host_keys"
    revoked.write_text("# retired 2026-11: disk sold\n\n" + _host_public_key(sshd))
    client.alias("gpu01", sshd, RevokedHostKeys=str(revoked))
    client.alias("gpu02", other, RevokedHostKeys=str(revoked))
    done, hosts = _run(cli, tmp_path, "gpu01", "gpu02")
    assert done.code == 3, done.stdout + done.stderr
    assert "is revoked by RevokedHostKeys" in hosts["gpu01"]["error"], hosts["gpu01"]
    assert hosts["gpu02"]["status"] == "passed", hosts["gpu02"]
    assert _ssh_refuses(client, "gpu01") and not _ssh_refuses(client, "gpu02")


def test_a_key_revocation_list_from_ssh_keygen_refuses_the_key_by_itself_or_by_its_fingerprint(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    for name, spec in (("by_key", _host_public_key(sshd)), ("by_hash", f"hash: {sshd.host_key_fingerprint}\n")):
        listed = tmp_path / f"{name}.spec"
        listed.write_text(spec)
        krl = tmp_path / f"{name}.krl"
        subprocess.run([SSH_KEYGEN, "-q", "-k", "-f", str(krl), str(listed)], check=True, capture_output=True)
        client.alias("gpu01", sshd, RevokedHostKeys=str(krl))
        done, hosts = _run(cli, tmp_path / name, "gpu01")
        assert done.code == 3 and "is revoked by RevokedHostKeys" in hosts["gpu01"]["error"], (name, hosts)
        assert _ssh_refuses(client, "gpu01")


def test_a_missing_revoked_host_keys_file_refuses_the_host_as_ssh_does(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    client.alias("gpu01", sshd, RevokedHostKeys=str(tmp_path / "not-there.krl"))
    done, hosts = _run(cli, tmp_path, "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    assert "cannot check the host key against RevokedHostKeys" in hosts["gpu01"]["error"], hosts["gpu01"]
    assert _ssh_refuses(client, "gpu01")


def test_an_empty_list_and_revoked_host_keys_none_refuse_nothing(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.write_text("")
    for value in (str(empty), "none"):
        client.alias("gpu01", sshd, RevokedHostKeys=value)
        done, hosts = _run(cli, tmp_path / f"run-{Path(value).name}", "gpu01")
        assert done.code == 0 and hosts["gpu01"]["status"] == "passed", (value, hosts)


def test_a_host_certificate_revoked_by_serial_is_refused(
        cli: Callable[..., Any], client: ClientSetup, tmp_path: Path) -> None:
    """Host CAs revoke a certificate by its serial (`serial: 7` in `ssh-keygen -k`'s input)."""
    ca = keygen(tmp_path / "host_ca", comment="corp host CA")
    server = SshServer(tmp_path / "certified", [client.key])
    server.workdir.mkdir(parents=True)
    keygen(server.host_key_path, comment="certified")
    subprocess.run([SSH_KEYGEN, "-q", "-s", str(ca), "-I", "gpu01-id", "-z", "7", "-h", "-n", "127.0.0.1",
                    f"{server.host_key_path}.pub"], check=True, capture_output=True)
    server.extra_config = f"HostCertificate {server.host_key_path}-cert.pub\n"
    with server:
        kind, blob = Path(f"{ca}.pub").read_text().split()[:2]
        client.known_hosts.write_text(f"@cert-authority 127.0.0.1 {kind} {blob}\n")
        spec = tmp_path / "serials.spec"
        spec.write_text("serial: 5-9\n")
        krl = tmp_path / "serials.krl"
        subprocess.run([SSH_KEYGEN, "-q", "-k", "-s", f"{ca}.pub", "-f", str(krl), str(spec)], check=True, capture_output=True)
        client.alias("gpu01", server, RevokedHostKeys=str(krl))
        done, hosts = _run(cli, tmp_path, "gpu01")
        assert done.code == 3, done.stdout + done.stderr
        assert "its host certificate (id 'gpu01-id', serial 7) is revoked" in hosts["gpu01"]["error"], hosts["gpu01"]
        assert _ssh_refuses(client, "gpu01")
