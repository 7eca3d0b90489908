"""A private key others may read, on a mount where chmod cannot change that: a Kubernetes secret
volume (tmpfs, read-only, mode 0644 unless the pod says otherwise). ssh(1) ignores the key for
its mode (openssh-portable: sshkey.c, sshkey_perm_ok); the refusal's hint said `chmod 600 KEY`,
which fails there ("Read-only file system"), as it changes nothing on WSL's /mnt/c or a vfat
stick. The hint now says why chmod will not do and how to give ssh(1) a copy it takes."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from spec_debug.runner.key_file_mount import chmod_cannot_fix, mount_of
from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientSetup, SshServer, keygen


@pytest.fixture
def secret_volume(tmp_path: Path) -> Iterator[Path]:
    """A read-only tmpfs holding a key of mode 0644, as kubelet mounts a secret."""
    if os.getuid() != 0:
        pytest.skip("needs root to mount")
    volume = tmp_path / "secret"
    volume.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(volume)], check=False,
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        keygen(volume / "id_ed25519").chmod(0o644)
        subprocess.run(["mount", "-o", "remount,ro", str(volume)], check=True, capture_output=True)
        yield volume / "id_ed25519"
    finally:
        subprocess.run(["umount", str(volume)], check=False, capture_output=True)


def test_a_refused_key_on_a_read_only_mount_is_not_sent_to_chmod(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path, secret_volume: Path) -> None:
    assert subprocess.run(["chmod", "600", str(secret_volume)], capture_output=True, check=False).returncode != 0
    client.alias("gpu01", sshd, IdentityFile=str(secret_volume))
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    error = record["hosts"][0]["error"]
    assert f"ssh(1) ignores {secret_volume}: its mode 0644 lets others read it" in error, error
    assert "read-only mount" in error, error
    assert "`chmod 600" not in done.stderr, done.stderr
    assert f"`install -D -m 600 {secret_volume} ~/.ssh/id_ed25519`" in done.stderr, done.stderr
    assert "defaultMode: 0400" in done.stderr, done.stderr


def test_a_key_on_a_writable_mount_keeps_the_chmod_hint(tmp_path: Path) -> None:
    key = keygen(tmp_path / "lab_ed25519")
    key.chmod(0o644)
    assert chmod_cannot_fix(str(key)) is None


def test_a_secret_mounted_as_the_ssh_directory_is_copied_somewhere_writable(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """A pod that mounts the secret at ~/.ssh itself: "copy it into your ~/.ssh" cannot be done there."""
    if os.getuid() != 0:
        pytest.skip("needs root to mount")
    ssh_dir = client.home / ".ssh"
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(ssh_dir)], check=False,
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        key = keygen(ssh_dir / "id_ed25519")
        key.chmod(0o644)
        client.trust(sshd)  # known_hosts and config anew, on the mount that hides them
        client.alias("gpu01", sshd, IdentityFile=str(key))
        subprocess.run(["mount", "-o", "remount,ro", str(ssh_dir)], check=True, capture_output=True)
        done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
        assert done.code == 3, done.stdout + done.stderr
        assert "read-only mount" in record["hosts"][0]["error"], record["hosts"][0]
        assert f"`install -D -m 600 {key} /tmp/id_ed25519`" in done.stderr, done.stderr
        assert "~/.ssh/id_ed25519`" not in done.stderr, done.stderr
    finally:
        subprocess.run(["umount", str(ssh_dir)], check=False, capture_output=True)


# /proc/self/mountinfo lines as WSL 1, WSL 2 (without and with `metadata`) and a desktop's USB
# stick write them (proc(5); the \134 is mountinfo's escape for a backslash).
_MOUNTINFO = """\
25 1 8:32 / / rw,relatime - ext4 /dev/sdc rw,discard,errors=remount-ro
98 25 0:58 / /mnt/c rw,noatime - 9p C:\\134 rw,dirsync,aname=drvfs;path=C:\\;uid=1000;gid=1000;symlinkroot=/mnt/,mmap,access=client,msize=65536,trans=fd,rfd=5,wfd=5
99 25 0:59 / /mnt/d rw,noatime - 9p D:\\134 rw,dirsync,aname=drvfs;path=D:\\;metadata;uid=1000;gid=1000;symlinkroot=/mnt/,mmap,access=client,msize=65536,trans=fd,rfd=5,wfd=5
100 25 0:60 / /mnt/e rw,noatime - drvfs E:\\134 rw,case=off
101 25 8:17 / /media/me/STICK rw,nosuid,nodev,relatime - vfat /dev/sdb1 rw,uid=1000,gid=1000,fmask=0022,dmask=0022,codepage=437
"""


@pytest.mark.parametrize(("key", "keeps_modes", "wsl_drive"), [
    ("/mnt/c/Users/me/.ssh/id_ed25519", False, True),
    ("/mnt/d/keys/id_ed25519", True, True),  # mounted with metadata: chmod works there
    ("/mnt/e/id_rsa", False, True),
    ("/media/me/STICK/id_ed25519", False, False),
    ("/home/me/.ssh/id_ed25519", True, False),
])
def test_windows_drives_and_usb_sticks_are_told_from_linux_filesystems(
        tmp_path: Path, key: str, keeps_modes: bool, wsl_drive: bool) -> None:
    table = tmp_path / "mountinfo"
    table.write_text(_MOUNTINFO)
    mount = mount_of(key, str(table))
    assert mount is not None and (mount.keeps_modes, mount.wsl_drive, mount.read_only) == (keeps_modes, wsl_drive, False), mount
