"""An upload (the probe bundle, to ~/.cache/spec-debug) under a folder that is a symbolic link
to nothing says so.

Home quotas on GPU clusters are small, so ~/.cache is often a link to a scratch or project disk;
scratch is purged, or not mounted on every node. The SFTP stat of the path follows the link (no
such file), the mkdir then meets the link itself, and OpenSSH's sftp-server answers EEXIST as a
bare SSH_FX_FAILURE: the step said "cannot upload to ...: Failure", and the hint blamed a
read-only or full home. Where sshd offers no SFTP, the upload's `mkdir -p` said "File exists".
The hosts are real: sshd's own sftp-server, and an sshd without SFTP (copies over `cat`),
over a real dangling link.
"""

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
def test_an_upload_under_a_dangling_link_names_the_link_and_its_target(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, start_sftpless: Any, copies: str
) -> None:
    if copies == "sftp":
        client.trust(sshd)
        client.alias("gpu", sshd)
    else:
        start_sftpless("gpu")
    payload = tmp_path / "bundle.pyz"
    payload.write_bytes(b"PK\x05\x06" + bytes(18))
    home = tmp_path / "home-on-host"
    home.mkdir()
    purged = tmp_path / "scratch" / "cache"
    os.symlink(purged, home / ".cache")
    with SSHTransport.connect("gpu", client.options()) as transport, pytest.raises(RemoteFileError) as refused:
        transport.put(payload, f"{home}/.cache/spec-debug/bundle.pyz")
    message, hint = refused.value.message, refused.value.hint or ""
    assert f"{home}/.cache is a symbolic link to {purged}, which does not exist" in message, message
    assert "Failure" not in message and "\n" not in message
    assert f"mkdir -p {purged}" in hint, hint
