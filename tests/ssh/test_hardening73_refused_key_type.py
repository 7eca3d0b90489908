"""A host whose sshd refuses ed25519 keys (`PubkeyAcceptedAlgorithms -ssh-ed25519*`, as FIPS
policies and STIG-hardened images set it) refuses the user's ed25519 key with the same
"Permission denied" as a wrong key; OpenSSH 9.2's server-sig-algs still lists ssh-ed25519, so
nothing the client sees tells the two apart. Only sshd's log says "signature algorithm
ssh-ed25519 not in PubkeyAcceptedAlgorithms" (openssh-portable: auth2-pubkey.c).

Before: "authentication failed" with a hint naming User, IdentityFile and AllowUsers/DenyUsers,
and the right key was checked over and over. Now, where every key offered was ed25519, the hint
also names the refused key type, that log line, and the way out (an RSA or ECDSA key, which
logs in there: shown below against the same sshd). Real sshd, real keys.
"""

from __future__ import annotations

import os
import pwd
import subprocess
from pathlib import Path
from typing import Callable

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import SSH_KEYGEN, ClientKey, ClientSetup, SshServer

FIPS = "PubkeyAcceptedAlgorithms -ssh-ed25519*,sk-ssh-ed25519*\n"
TYPE_CLAUSE = (", or not take ed25519 keys at all (PubkeyAcceptedAlgorithms without ssh-ed25519, as FIPS policies set it: "
               "its log says \"not in PubkeyAcceptedAlgorithms\"), where an RSA or ECDSA key logs in: ask its admin")


def _ecdsa_key(directory: Path) -> Path:
    path = directory / "id_ecdsa"
    subprocess.run([SSH_KEYGEN, "-q", "-t", "ecdsa", "-N", "", "-C", "fips", "-f", str(path)], check=True)
    return path


def test_an_ed25519_key_refused_for_its_type_names_the_type(
        client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path) -> None:
    server = sshd_factory("fips", extra_config=FIPS)
    client.trust(server)
    client.alias("gpu-fips", server)
    with pytest.raises(AuthenticationError) as refused:
        SSHTransport.connect("gpu-fips", client.options())
    said, hint = refused.value.message, refused.value.hint or ""
    user = pwd.getpwuid(os.getuid()).pw_name
    assert said == f"gpu-fips: authentication failed for {user}@127.0.0.1:{server.port} (tried: {client.key.path})", said
    assert hint.endswith(TYPE_CLAUSE), hint  # was `...its log says "not allowed because"): ask its admin`
    assert "signature algorithm ssh-ed25519 not in PubkeyAcceptedAlgorithms" in server.log_tail()

    # the way out the hint names: an ECDSA key in the same authorized_keys logs in
    ecdsa = _ecdsa_key(tmp_path)
    with open(server.authorized_keys_path, "a") as keys:
        keys.write(Path(f"{ecdsa}.pub").read_text())
    client.alias("gpu-fips", server, IdentityFile=str(ecdsa))
    SSHTransport.connect("gpu-fips", client.options()).close()


def test_a_refused_key_of_another_type_keeps_the_hint_as_it_was(
        client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path) -> None:
    server = sshd_factory("fips-ecdsa", extra_config=FIPS)
    client.trust(server)
    client.alias("gpu-fips", server, IdentityFile=str(_ecdsa_key(tmp_path)))  # not in authorized_keys
    with pytest.raises(AuthenticationError) as refused:
        SSHTransport.connect("gpu-fips", client.options())
    hint = refused.value.hint or ""
    assert hint.endswith('DenyUsers: its log says "not allowed because"): ask its admin'), hint
    assert "ed25519" not in hint, hint


def test_the_plain_wrong_ed25519_key_is_hinted_too(
        client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path) -> None:
    """Nothing the client sees parts a wrong ed25519 key from a refused type: both are named."""
    other = ClientKey.create(tmp_path / "other")
    server = sshd_factory("plain")
    client.trust(server)
    client.alias("gpu-plain", server, IdentityFile=str(other.path))
    with pytest.raises(AuthenticationError) as refused:
        SSHTransport.connect("gpu-plain", client.options())
    assert (refused.value.hint or "").endswith(TYPE_CLAUSE)
