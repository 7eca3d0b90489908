"""A host whose home is read-only (a locked-down login node, a container started with
--read-only, and its /tmp too): the probe bundle has nowhere to go. OpenSSH's sftp-server answers EROFS with a
bare SSH2_FX_FAILURE, and the step said only "cannot upload to .cache/spec-debug/bundle-....pyz:
Failure". It says what that Failure means now, and the connection serves the next step.

The host is real: sshd in a private mount namespace where the login's home is an empty
read-only tmpfs mount."""

from __future__ import annotations

import os
import pwd
from pathlib import Path
from typing import Callable

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import RemoteFileError
from tests.ssh.test_hardening19_runtime_full_tmp import namespaced_sshd
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientSetup, SshServer


def test_an_upload_to_a_read_only_home_says_why_in_one_line(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    home = pwd.getpwuid(os.getuid()).pw_dir
    if tmp_path.is_relative_to(home):
        pytest.skip("the test's folder (sshd's config and keys) is under the home it hides")
    # The upload goes to the home; with /tmp writable or not, probes.bundle reports this error.
    setup = f"mount -t tmpfs -o ro,size=64k tmpfs {home}\n"
    server = namespaced_sshd("h30rohost", sshd_factory, tmp_path, monkeypatch, setup)
    client.trust(server)
    client.alias("gpu07", server)
    bundle = tmp_path / "bundle.pyz"
    bundle.write_bytes(b"PK\x05\x06" + bytes(18))
    with SSHTransport.connect("gpu07", client.options()) as transport:
        with pytest.raises(RemoteFileError) as refused:
            transport.put(bundle, ".cache/spec-debug/bundle-0123.pyz")  # as probes.bundle uploads it
        after = run(transport, "echo after")[1].text()
    message = refused.value.message
    assert message.startswith("gpu07: cannot upload to .cache/spec-debug/bundle-0123.pyz: Failure (") and "\n" not in message
    assert "read-only file system" in message, message  # was "...pyz: Failure"
    assert after == "after\n"
