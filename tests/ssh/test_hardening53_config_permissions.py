"""An ssh config someone else could write: ~/.ssh/config world-writable (a `chmod 777 -R ~` to
"fix" something, a home copied off a FAT drive or a tarball), owned by another user (a home
set up by root with `cp`), or an included file like that. ssh(1) stops before connecting, "Bad
owner or permissions on ~/.ssh/config" (openssh-portable: readconf.c, SSHCONF_CHECKPERM), as such
a file can carry a ProxyCommand another user wrote, which runs as you. spec-debug read it
silently and ran it. Now it stops as ssh(1) does, naming the file, why, and the chmod; `-F FILE`
and a group-writable file whose group holds only its owner (Debian's OpenSSH) stay accepted as
ssh(1) accepts them."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.runner.ssh_config_modes import _group_holds_only
from tests.ssh.h49_helpers import PLAYBOOK
from tests.sshd_fixture import ClientSetup, SshServer


def _ssh_reads(config: Path, tmp_path: Path) -> bool:
    """Whether ssh(1) reads `config` with its owner and mode checked: as a file an Include names
    (ssh(1) checks ~/.ssh/config of the passwd entry, not of $HOME)."""
    if shutil.which("ssh") is None:
        pytest.skip("no ssh(1) to compare with")
    wrapper = tmp_path / "wrapper.conf"
    wrapper.write_text(f"Include {config}\n")
    done = subprocess.run(["ssh", "-F", str(wrapper), "-G", "target"], capture_output=True, text=True, timeout=30,
                          stdin=subprocess.DEVNULL, check=False)
    return done.returncode == 0


def _run(cli: Callable[..., Any], tmp_path: Path, *extra: str) -> Any:
    (tmp_path / "tiny.yaml").write_text(PLAYBOOK)
    return cli("run", str(tmp_path / "tiny.yaml"), "--host", "target", "--batch", "--out", str(tmp_path / "runs"), *extra)


def test_a_world_writable_ssh_config_is_refused_as_ssh_refuses_it(
        cli: Callable[..., Any], client: ClientSetup, tmp_path: Path) -> None:
    client.config.chmod(0o666)
    assert not _ssh_reads(client.config, tmp_path)
    done = _run(cli, tmp_path)
    assert done.code == 3, done.stdout + done.stderr
    assert f"ssh config {client.config}: bad owner or permissions (mode 0666: anyone can write it)" in done.stderr, done.stderr
    assert f"hint: `chmod go-w {client.config}" in done.stderr, done.stderr
    client.config.chmod(0o644)
    assert _run(cli, tmp_path).code == 0


def test_an_included_file_owned_by_another_user_is_refused(
        cli: Callable[..., Any], client: ClientSetup, tmp_path: Path) -> None:
    if os.getuid() != 0:
        pytest.skip("giving a file to another user needs root")
    included = client.home / ".ssh" / "hosts.conf"
    included.write_text("Host nothing-here\n  Port 2222\n")
    os.chown(included, pwd.getpwnam("nobody").pw_uid, -1)
    client.config.write_text(f"Include {included}\n" + client.config.read_text())
    assert not _ssh_reads(client.config, tmp_path)
    done = _run(cli, tmp_path)
    assert done.code == 3, done.stdout + done.stderr
    assert f"ssh config {included}: bad owner or permissions (owned by nobody, not by you or root)" in done.stderr, done.stderr
    assert f"run spec-debug as nobody, whose file it is, or `sudo chown root {included}`" in done.stderr, done.stderr


def test_the_user_config_owned_by_another_user_is_refused_with_the_way_out(
        cli: Callable[..., Any], client: ClientSetup, tmp_path: Path) -> None:
    # `sudo -E spec-debug ...` keeps HOME: root read alice's ~/.ssh/config, whose ProxyCommand
    # alice could make run as root. ssh(1) as root reads root's own file.
    if os.getuid() != 0:
        pytest.skip("giving a file to another user needs root")
    os.chown(client.config, pwd.getpwnam("nobody").pw_uid, -1)
    done = _run(cli, tmp_path)
    assert done.code == 3, done.stdout + done.stderr
    assert f"run spec-debug as nobody, whose file it is, or pass `-F {client.config}` to read it anyway" in done.stderr
    assert _run(cli, tmp_path, "--ssh-config", str(client.config)).code == 0


def test_a_file_named_with_dash_f_is_not_checked_as_ssh_does_not(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    own = tmp_path / "shared.conf"
    own.write_text(client.config.read_text())
    own.chmod(0o666)
    done = _run(cli, tmp_path, "--ssh-config", str(own))
    assert done.code == 0, done.stdout + done.stderr


def test_a_group_writable_config_whose_group_is_its_owner_alone_is_read(
        cli: Callable[..., Any], client: ClientSetup, tmp_path: Path) -> None:
    info = client.config.stat()
    if not _group_holds_only(info.st_gid, os.getuid(), info.st_uid):
        pytest.skip("the file's group holds other users here")
    client.config.chmod(0o664)
    assert _ssh_reads(client.config, tmp_path) or shutil.which("ssh") is None
    done = _run(cli, tmp_path)
    assert done.code == 0, done.stdout + done.stderr


def test_a_world_writable_config_on_a_read_only_mount_is_not_sent_to_chmod(
        cli: Callable[..., Any], client: ClientSetup, tmp_path: Path) -> None:
    # A ConfigMap mounted as ~/.ssh/config with defaultMode 0666 (kubelet mounts it read-only):
    # `chmod go-w` fails there, and the hint must say what works.
    if os.getuid() != 0:
        pytest.skip("needs root to mount")
    volume = client.home / ".ssh" / "mounted"
    volume.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(volume)], check=False,
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        config = volume / "config"
        config.write_text(client.config.read_text())
        config.chmod(0o666)
        subprocess.run(["mount", "-o", "remount,ro", str(volume)], check=True, capture_output=True)
        client.config.unlink()
        client.config.symlink_to(config)
        done = _run(cli, tmp_path)
        assert done.code == 3, done.stdout + done.stderr
        assert "chmod cannot fix it: it lies on a read-only mount" in done.stderr, done.stderr
        assert "install -m 600" in done.stderr and "chmod go-w" not in done.stderr, done.stderr
    finally:
        subprocess.run(["umount", str(volume)], check=False, capture_output=True)
