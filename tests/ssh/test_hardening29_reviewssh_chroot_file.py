"""A ChrootDirectory that is a root-owned file: sshd ends every session with `chroot path
"/etc/hostname" is not a directory` (openssh-portable: session.c, safely_chroot, a fatal() without
the function's name). Round 29 named the chroot only for `safely_chroot: stat(...)`; this one was
still 'the account's shell is nologin or /bin/false, or a forced command'."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import RemoteShellError
from tests.sshd_fixture import ClientSetup


def test_a_chroot_that_is_a_file_is_named(client: ClientSetup, sshd_factory: Any, tmp_path: Path) -> None:
    jail = "/etc/hostname" if Path("/etc/hostname").is_file() else "/etc/passwd"  # root-owned, 0644
    server = sshd_factory("filechroot", extra_config=f"ChrootDirectory {jail}\n")
    client.trust(server)
    client.alias("jailed", server)
    with pytest.raises(RemoteShellError) as refused:
        SSHTransport.connect("jailed", client.options())
    assert "cannot enter the account's ChrootDirectory" in refused.value.message, refused.value
    assert "is not a directory" in refused.value.message and "nologin" not in (refused.value.hint or ""), refused.value
