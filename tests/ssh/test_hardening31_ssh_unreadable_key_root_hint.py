"""A root login that fails because the key file could not be read here is not blamed on sshd.

The "many hosts refuse root logins (sshd PermitRootLogin no): log in as your own user" hint
was added whenever anything was "tried", and `tried` also lists key files that never reached
the host: an empty file, a PuTTY .ppk, a damaged key, a lone .pub with no agent. The host then
refused nothing, the error said why the file was unusable, and the hint sent the reader to
change the login user instead. A key the host did refuse still gets the hint. Real sshd.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer

PPK = "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: laptop\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIH\nxx\n"


@pytest.mark.parametrize("kind", ["empty", "ppk", "damaged", "lone_pub"])
def test_a_key_file_unreadable_here_gets_no_permit_root_login_hint(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, kind: str
) -> None:
    path = tmp_path / f"id_{kind}"
    if kind == "empty":
        path.write_text("")
    elif kind == "ppk":
        path.write_text(PPK)
    elif kind == "damaged":
        path.write_bytes(client.key.path.read_bytes()[:200])
    else:
        path = tmp_path / "id_lone.pub"
        shutil.copy(str(client.key.path) + ".pub", path)
    path.chmod(0o600)
    client.alias("gpu", sshd, User="root", IdentityFile=str(path))
    with pytest.raises(AuthenticationError) as failed:
        SSHTransport.connect("gpu", client.options())
    assert str(path.name) in failed.value.message, failed.value.message  # the file and why: the cause
    assert "PermitRootLogin" not in (failed.value.hint or ""), failed.value.hint
    assert "IdentityFile" in (failed.value.hint or ""), failed.value.hint


def test_a_key_the_host_refused_still_gets_the_root_login_hint(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    stranger = ClientKey.create(tmp_path / "stranger")  # a real key, not in authorized_keys
    client.alias("gpu", sshd, User="root", IdentityFile=str(stranger.path))
    with pytest.raises(AuthenticationError) as failed:
        SSHTransport.connect("gpu", client.options())
    assert "PermitRootLogin" in (failed.value.hint or ""), failed.value.hint
