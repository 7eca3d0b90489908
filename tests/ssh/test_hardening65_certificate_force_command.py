"""A user certificate that forces a command (`ssh-keygen -O force-command=...`: a CA role for
backups or a single tool): sshd runs that command in place of every other, as it runs
ForceCommand (openssh-portable: session.c, do_exec). The run failed with "the login shell did
not run the command" and a hint that guessed at nologin shells, sshd_config and rc files on the
host; the certificate that logged in says it itself (real sshd)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientSetup, SshServer, keygen


def _certified_key(tmp_path: Path, *options: str) -> tuple[Path, Path]:
    ca, key = keygen(tmp_path / "user_ca"), keygen(tmp_path / "id_gpu")
    subprocess.run(["ssh-keygen", "-q", "-s", str(ca), "-I", "backup@lab", "-n", "root", "-V", "-5m:+1h",
                    *[arg for option in options for arg in ("-O", option)], f"{key}.pub"], check=True, capture_output=True,
                   env={**os.environ, "TZ": "UTC"})
    return ca, key


@pytest.mark.parametrize(("command", "shown"), [("/bin/true", "no output"), ("echo backups only", "it printed 'backups only'")])
def test_a_certificate_that_forces_a_command_is_named(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
        command: str, shown: str) -> None:
    ca, key = _certified_key(tmp_path, f"force-command={command}")
    server = sshd_factory("ca-only", extra_config=f"TrustedUserCAKeys {ca}.pub\n")
    server.authorized_keys_path.write_text("")  # only certificates of the CA log in
    client.trust(server)
    client.alias("gpu01", server, IdentityFile=str(key))
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    host = record["hosts"][0]
    assert host["error"] == (
        f"gpu01: the login shell did not run the command: the certificate that logged in ({key} with certificate "
        f"{key}-cert.pub) forces the command {command!r} in place of every other, its force-command option "
        f"(exit code 0, {shown})"
    ), host["error"]
    assert "get a certificate without force-command" in host["hint"] and "nologin" not in host["hint"], host["hint"]


def test_a_certificate_with_other_options_still_runs_commands(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path) -> None:
    ca, key = _certified_key(tmp_path, "source-address=127.0.0.0/8", "no-pty")
    server = sshd_factory("ca-only", extra_config=f"TrustedUserCAKeys {ca}.pub\n")
    server.authorized_keys_path.write_text("")
    client.trust(server)
    client.alias("gpu01", server, IdentityFile=str(key))
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr


def test_the_certificate_that_logged_in_is_named_without_the_doubts_of_its_offer(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path) -> None:
    # No principals (no -n): TrustedUserCAKeys would refuse it, an authorized_keys cert-authority
    # line lets it in. The offer noted the doubt; the login went through, so the error does not.
    ca, key = keygen(tmp_path / "user_ca"), keygen(tmp_path / "id_gpu")
    subprocess.run(["ssh-keygen", "-q", "-s", str(ca), "-I", "backup@lab", "-V", "-5m:+1h", "-O", "force-command=/bin/true",
                    f"{key}.pub"], check=True, capture_output=True)
    server = sshd_factory("ca-line")
    server.authorized_keys_path.write_text(f"cert-authority {Path(f'{ca}.pub').read_text().strip()}\n")
    client.trust(server)
    client.alias("gpu01", server, IdentityFile=str(key))
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    assert record["hosts"][0]["error"] == (
        f"gpu01: the login shell did not run the command: the certificate that logged in ({key} with certificate "
        f"{key}-cert.pub) forces the command '/bin/true' in place of every other, its force-command option "
        "(exit code 0, no output)"
    ), record["hosts"][0]["error"]
