"""A user certificate carrying a critical option sshd does not know (`ssh-keygen -O
critical:NAME=VALUE`, as a CA role may add its own): PROTOCOL.certkeys has the validating side
refuse such a certificate, and sshd does, with the same "Permission denied" as a wrong key (its
log alone says the option "is not supported": openssh-portable, auth-options.c,
cert_option_list). The message said only "tried: KEY with certificate KEY-cert.pub, KEY"; it
now names the option (real sshd)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientSetup, SshServer, keygen


def _certified_key(tmp_path: Path, *options: str) -> tuple[Path, Path]:
    ca, key = keygen(tmp_path / "user_ca"), keygen(tmp_path / "id_gpu")
    subprocess.run(["ssh-keygen", "-q", "-s", str(ca), "-I", "alice@lab", "-n", "root", "-V", "-5m:+1h",
                    *[arg for option in options for arg in ("-O", option)], f"{key}.pub"], check=True, capture_output=True)
    return ca, key


def test_a_certificate_with_an_unknown_critical_option_names_it(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path) -> None:
    ca, key = _certified_key(tmp_path, "critical:gpu-role@example.com=inference")
    server = sshd_factory("ca-only", extra_config=f"TrustedUserCAKeys {ca}.pub\n")
    server.authorized_keys_path.write_text("")  # only certificates of the CA log in
    client.trust(server)
    client.alias("gpu01", server, IdentityFile=str(key))
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    error = record["hosts"][0]["error"]
    assert (f"{key} with certificate {key}-cert.pub (it carries the critical option gpu-role@example.com, which OpenSSH's "
            "sshd does not know and so refuses the certificate)") in error, error
    assert "get a new certificate" in done.stderr and "PermitRootLogin" not in done.stderr, done.stderr


@pytest.mark.parametrize("options", [("extension:gpu-role@example.com=inference",), ("source-address=127.0.0.0/8", "no-pty")])
def test_a_certificate_with_known_critical_options_or_any_extension_logs_in(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
        options: tuple[str, ...]) -> None:
    # An unknown extension is ignored (PROTOCOL.certkeys): only critical options refuse.
    ca, key = _certified_key(tmp_path, *options)
    server = sshd_factory("ca-only", extra_config=f"TrustedUserCAKeys {ca}.pub\n")
    server.authorized_keys_path.write_text("")
    client.trust(server)
    client.alias("gpu01", server, IdentityFile=str(key))
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr
