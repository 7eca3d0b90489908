"""An sshd whose ChrootDirectory for the account does not exist accepts the login and ends
every session (`safely_chroot: stat("/srv/jail"): No such file or directory`, openssh-portable:
session.c). The error named a nologin shell or a ForceCommand; it names the chroot now."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import RemoteShellError
from tests.sshd_fixture import ClientSetup


# A root-owned file as the ChrootDirectory: `chroot path "/etc/hostname" is not a directory`, a
# fatal() without safely_chroot's name, was still called a nologin shell after f574d103.
@pytest.mark.parametrize("kind", ["missing", "a file"])
def test_a_missing_chroot_is_named_not_called_a_nologin_shell(kind: str, client: ClientSetup, sshd_factory: Any,
                                                              tmp_path: Path) -> None:
    # Not under /tmp: sshd refuses its modes first. /etc/hostname: root-owned, 0644.
    jail = f"/no-such-jail-{tmp_path.name}" if kind == "missing" else "/etc/hostname"
    server = sshd_factory("nochroot", extra_config=f"ChrootDirectory {jail}\n")
    client.trust(server)
    client.alias("jailed", server)
    with pytest.raises(RemoteShellError) as refused:
        SSHTransport.connect("jailed", client.options())
    assert "cannot enter the account's ChrootDirectory" in refused.value.message, refused.value
    assert jail in refused.value.message and "nologin" not in (refused.value.hint or ""), refused.value
