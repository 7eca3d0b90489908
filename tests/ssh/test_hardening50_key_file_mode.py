"""A private key file others can read (mode 0644: copied with `cp` from a share, unpacked from
a tarball): ssh(1) ignores it ("WARNING: UNPROTECTED PRIVATE KEY FILE!", "bad permissions:
ignore key": openssh-portable, sshkey.c, sshkey_perm_ok), spec-debug offers it. Where the host
then refused us, the message said only that the key was tried, and the hint sent the reader to
`ssh -v` and, "if ssh(1) is refused too", to the host's admin: ssh(1) was refused for the mode
alone. The message names the mode and the chmod."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientSetup, SshServer, keygen


@pytest.mark.parametrize("mode", [0o644, 0o640])
def test_a_refused_key_that_ssh_would_ignore_for_its_mode_is_named_with_the_chmod(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path, mode: int) -> None:
    lab_key = keygen(tmp_path / "lab_ed25519")
    lab_key.chmod(mode)
    client.alias("gpu01", sshd, IdentityFile=str(lab_key))
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    error = record["hosts"][0]["error"]
    assert f"ssh(1) ignores {lab_key}: its mode 0{mode:o} lets others read it" in error, error
    assert f"`chmod 600 {lab_key}`" in done.stderr, done.stderr


def test_a_key_of_another_owner_is_not_named_for_its_mode(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """ssh(1) checks the mode only of a key file the user owns (sshkey_perm_ok)."""
    if os.getuid() != 0:
        pytest.skip("needs root to give the file away")
    lab_key = keygen(tmp_path / "lab_ed25519")
    lab_key.chmod(0o644)
    os.chown(lab_key, 65534, 65534)
    client.alias("gpu01", sshd, IdentityFile=str(lab_key))
    done, _ = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    assert "chmod 600" not in done.stderr, done.stderr
