"""Two IdentityFile lines, the first an encrypted key (the one the host knows), the second a
plain key it does not know (an old ~/.ssh/id_rsa, a CI key). Under --batch the encrypted key
was skipped without a word and the error named only the plain key ("tried: id_plain"), as if
the encrypted one had been offered and refused, and it pointed at root logins. ssh -v says
it skipped it (openssh-portable: sshconnect2.c, "no passphrase given, try next key"); the
message now says so and the hint says how to load it, as the one-key case already did."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.errors import AuthenticationError
from tests.sshd_fixture import ClientSetup, SshServer, keygen


def test_a_skipped_encrypted_key_is_named_when_another_key_was_refused(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    locked = keygen(tmp_path / "id_locked", passphrase="secret")
    plain = keygen(tmp_path / "id_plain")
    server = sshd_factory("h32locked")
    server.authorized_keys_path.write_text(Path(f"{locked}.pub").read_text())
    client.trust(server)
    client.alias("gpu", server, IdentityFile=[str(locked), str(plain)])
    with pytest.raises(AuthenticationError) as caught:
        SSHTransport.connect("gpu", client.options(batch=True))
    message, hint = caught.value.message, caught.value.hint or ""
    assert "id_plain" in message
    assert "id_locked" in message and "encrypted" in message, message
    assert f"ssh-add {locked}" in hint, hint
