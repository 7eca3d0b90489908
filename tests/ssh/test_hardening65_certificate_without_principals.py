"""A user certificate signed without principals (`ssh-keygen -s CA -I id key.pub`, no -n): sshd
refuses it for a login its TrustedUserCAKeys trusts with the same "Permission denied" as a
wrong key (its log alone says "Certificate lacks principal list": openssh-portable,
auth2-pubkey.c, user_cert_trusted_ca; sshkey.c, sshkey_cert_check_authority, require_principal).
The message said only "tried: KEY with certificate KEY-cert.pub, KEY" and, for root, sent the
user to PermitRootLogin; it now says the certificate names no principals (real sshd)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any, Callable

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientSetup, SshServer, keygen


def _certified_key(tmp_path: Path) -> tuple[Path, Path]:
    ca, key = keygen(tmp_path / "user_ca"), keygen(tmp_path / "id_gpu")
    subprocess.run(["ssh-keygen", "-q", "-s", str(ca), "-I", "alice@lab", "-V", "-5m:+1h", f"{key}.pub"],
                   check=True, capture_output=True)  # no -n: no principals
    return ca, key


def test_a_certificate_without_principals_is_named_where_trusted_user_ca_keys_refuses_it(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path) -> None:
    ca, key = _certified_key(tmp_path)
    server = sshd_factory("ca-only", extra_config=f"TrustedUserCAKeys {ca}.pub\n")
    server.authorized_keys_path.write_text("")  # only certificates of the CA log in
    client.trust(server)
    client.alias("gpu01", server, IdentityFile=str(key))
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    error = record["hosts"][0]["error"]
    assert (f"{key} with certificate {key}-cert.pub (it names no principals (ssh-keygen -n), which sshd refuses for a "
            "certificate its TrustedUserCAKeys trusts (\"Certificate lacks principal list\"))") in error, error


def test_a_certificate_without_principals_still_logs_in_through_a_cert_authority_line(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path) -> None:
    # An authorized_keys `cert-authority` line does not require a principal (sshd 9.2): the
    # certificate is not refused for this alone, and the login goes through.
    ca, key = _certified_key(tmp_path)
    server = sshd_factory("ca-line")
    server.authorized_keys_path.write_text(f"cert-authority {Path(f'{ca}.pub').read_text().strip()}\n")
    client.trust(server)
    client.alias("gpu01", server, IdentityFile=str(key))
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr
