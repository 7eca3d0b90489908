"""An upload under a folder that is a relative symbolic link to nothing (ln -s ../scratch/cache
.cache, made from inside the folder that holds it) gives a fix whose mkdir -p makes the
link's target: readlink says the target relative to the link's folder, and the hint said
`mkdir -p ../scratch/cache`, which the shell on the host runs from the login folder, making a
folder the link does not point to. Real hosts: sshd's own sftp-server, and an sshd without
SFTP (copies over `cat`); test_hardening25_ssh_upload_dangling_link holds the absolute case."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import RemoteFileError
from tests.ssh.test_hardening8_no_sftp import start_sftpless  # noqa: F401 - a fixture
from tests.sshd_fixture import ClientSetup, SshServer


@pytest.mark.parametrize("copies", ["sftp", "cat"])
def test_a_relative_dangling_links_fix_makes_its_target(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, start_sftpless: Any, copies: str
) -> None:
    if copies == "sftp":
        client.trust(sshd)
        client.alias("gpu", sshd)
    else:
        start_sftpless("gpu")
    payload = tmp_path / "bundle.pyz"
    payload.write_bytes(b"PK\x05\x06" + bytes(18))
    home = tmp_path / "users" / "me"
    home.mkdir(parents=True)
    os.symlink("../../scratch/me/cache", home / ".cache")
    with SSHTransport.connect("gpu", client.options()) as transport, pytest.raises(RemoteFileError) as refused:
        transport.put(payload, f"{home}/.cache/spec-debug/bundle.pyz")
    message, hint = refused.value.message, refused.value.hint or ""
    assert f"{home}/.cache is a symbolic link to ../../scratch/me/cache, which does not exist" in message, message
    assert f"mkdir -p {tmp_path}/scratch/me/cache on the host" in hint, hint
