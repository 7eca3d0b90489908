"""Hosts whose sshd has no SFTP at all still get the probe bundle and give back files.

A hardened sshd_config without a `Subsystem sftp` line, or an image whose sshd names an
sftp-server that is not installed (Alpine's openssh-server without openssh-sftp-server),
runs commands fine; `scp -O` copies files there over a plain command. Before, every probe
step and fetch failed there (SD003, "the host offers no working SFTP").
"""

from __future__ import annotations

import os
import shutil
import subprocess
from functools import partial
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import RemoteFileError
from tests.ssh.h8_helpers import SftpLineServer
from tests.ssh.test_hardening9_login_rc import RcServer
from tests.ssh.test_fleet_faults import (
    PROBE_PLAYBOOK,
    assert_clean_cli,
    by_id,
    load_run,
)
from tests.sshd_fixture import ClientKey, ClientSetup

SSH = shutil.which("ssh")


@pytest.fixture
def start_sftpless(tmp_path: Path, client_key: ClientKey, client: ClientSetup) -> Any:
    started: list[SftpLineServer] = []

    def start(name: str, subsystem: str = "", rc_file: str = "") -> SftpLineServer:
        """rc_file: a file every session's bash reads first (BASH_ENV: test_hardening9_login_rc)."""
        server_type = partial(RcServer, rc_file=rc_file) if rc_file else SftpLineServer
        server = server_type(tmp_path / f"sshd-{name}", [client_key], subsystem=subsystem).start()
        started.append(server)
        client.trust(server)
        client.alias(name, server)
        return server

    yield start
    for server in started:
        server.stop()


def sftp_refused_by_openssh(client: ClientSetup, alias: str, tmp_path: Path) -> str:
    """What OpenSSH's sftp client says to the same host: the fault is the host's, not ours."""
    if shutil.which("sftp") is None:
        pytest.skip("OpenSSH sftp client not installed")
    done = subprocess.run(["sftp", "-F", str(client.config), "-b", "-", alias], input="pwd\n", capture_output=True, text=True,
                          timeout=30, check=False)
    assert done.returncode != 0
    return done.stderr


@pytest.mark.parametrize("subsystem", ["", "/usr/lib/ssh/sftp-server-not-installed"], ids=["no-subsystem-line", "server-not-installed"])
def test_a_probe_and_a_fetch_run_on_a_host_whose_sshd_has_no_sftp(
    cli: Callable[..., Any], client: ClientSetup, start_sftpless: Any, tmp_path: Path, subsystem: str
) -> None:
    # The sessions start in an empty home of their own: in this machine's home (the account's,
    # which every other SSH test's run uploads to) a copy of the bundle is found, and nothing
    # went over `cat` at all whenever another test had run first.
    home = tmp_path / "host-home"
    home.mkdir()
    (tmp_path / "rc").write_text(f"cd {home} && export HOME={home}\n")
    start_sftpless("nosftp", subsystem, rc_file=str(tmp_path / "rc"))
    said = sftp_refused_by_openssh(client, "nosftp", tmp_path)
    assert ("subsystem request failed" if not subsystem else "Connection closed") in said, said
    playbook = tmp_path / "first_look.yaml"
    playbook.write_text(PROBE_PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "nosftp", "-F", str(client.config), "--batch", "--out", str(out))
    assert_clean_cli(result)
    assert result.code == 0, result.stdout + result.stderr
    run_dir, record = load_run(out)
    steps = by_id(record, "nosftp")
    assert [steps[s]["status"] for s in ("host_info", "shell", "fetch_note", "after")] == ["passed"] * 4, steps
    assert steps["host_info"]["facts"], steps["host_info"]  # the probe ran: the bundle arrived whole
    [bundle] = (home / ".cache" / "spec-debug").glob("bundle-*.pyz")  # uploaded by this run, over `cat`
    assert steps["host_info"]["command"].split()[1] == f".cache/spec-debug/{bundle.name}", steps["host_info"]["command"]
    assert not list(bundle.parent.glob("*.part-*"))
    assert not [f for f in record["findings"] if f["code"] == "SD003"]
    [fetched] = steps["fetch_note"]["artifacts"]
    assert (run_dir / fetched).read_text() == "hello\n"


def test_copies_without_sftp_fail_as_sftp_copies_do(client: ClientSetup, start_sftpless: Any, tmp_path: Path) -> None:
    """Missing files, folders, unwritable places: the same error types and one-line messages."""
    start_sftpless("nosftp")
    remote = tmp_path / "remote"
    remote.mkdir()
    payload = tmp_path / "payload.bin"
    payload.write_bytes(os.urandom(300_000) + b"\n\x00end")  # binary, several channel windows' worth
    with SSHTransport.connect("nosftp", client.options()) as transport:
        transport.put(payload, f"{remote}/deep/er/payload.bin")
        assert (remote / "deep/er/payload.bin").read_bytes() == payload.read_bytes()
        assert not list((remote / "deep/er").glob("*.part-*"))
        assert transport.exists(f"{remote}/deep/er/payload.bin") and not transport.exists(f"{remote}/nope")
        back = tmp_path / "back" / "payload.bin"
        transport.get(f"{remote}/deep/er/payload.bin", back)
        assert back.read_bytes() == payload.read_bytes()

        with pytest.raises(FileNotFoundError, match="nosftp:.*/nope: No such file"):
            transport.get(f"{remote}/nope", tmp_path / "nope")
        with pytest.raises(IsADirectoryError):
            transport.get(str(remote), tmp_path / "folder")
        assert not (tmp_path / "nope").exists() and not list(tmp_path.glob("*.part-*"))
        (remote / "file").write_text("x")
        with pytest.raises(RemoteFileError) as refused:
            transport.put(payload, f"{remote}/file/under-a-file.bin")  # a parent that is a file
        message = refused.value.message
        assert "cannot upload to" in message and "File exists" in message and "no `Subsystem sftp`" in message, message
        assert "\n" not in message

        # The host keeps running commands after all that.
        from spec_debug.runner.output import StreamCapture

        out, err = StreamCapture("stdout", 4096), StreamCapture("stderr", 4096)
        assert transport.run("echo fine", stdout=out, stderr=err).exit_code == 0 and out.text() == "fine\n"


def test_a_host_whose_sftp_answers_with_an_error_is_not_second_guessed(client: ClientSetup, sshd_factory: Any) -> None:
    """A ForceCommand that answers SFTP with its own refusal is the host's policy: no fallback."""
    server = sshd_factory("sftp-policy", extra_config=(
        "Match User *\n  ForceCommand case \"$SSH_ORIGINAL_COMMAND\" in internal-sftp*) echo no sftp here >&2; exit 1;; "
        "*) eval \"$SSH_ORIGINAL_COMMAND\";; esac\n"))
    client.trust(server)
    client.alias("policy", server)
    with SSHTransport.connect("policy", client.options()) as transport, pytest.raises(RemoteFileError, match="no working SFTP"):
        transport.exists("/etc/hostname")


@pytest.fixture
def full_disk(tmp_path: Path) -> Any:
    """A 64 KiB tmpfs: a home or /tmp that checkpoints filled up."""
    mount_point = tmp_path / "full"
    mount_point.mkdir()
    if shutil.which("mount") is None or subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount_point)], capture_output=True, check=False
    ).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    yield mount_point
    subprocess.run(["umount", "-l", str(mount_point)], check=False)


@pytest.mark.parametrize("sftp", [True, False], ids=["sftp", "no-sftp"])
def test_an_upload_to_a_full_disk_says_the_disk_is_full(
    client: ClientSetup, start_sftpless: Any, sshd: Any, full_disk: Path, tmp_path: Path, sftp: bool
) -> None:
    """OpenSSH's sftp-server answers a write to a full disk with a bare "Failure", which paramiko
    turned into "size mismatch in put!  65536 != 300000"."""
    if not sftp:
        start_sftpless("nosftp")
    payload = tmp_path / "bundle.pyz"
    payload.write_bytes(os.urandom(300_000))
    with SSHTransport.connect("target" if sftp else "nosftp", client.options()) as transport, pytest.raises(RemoteFileError) as refused:
        transport.put(payload, f"{full_disk}/.cache/spec-debug/bundle.pyz")
    message = refused.value.message
    assert ("the disk there (or the user's quota) is full" if sftp else "No space left on device") in message, message
    assert "\n" not in message and "size mismatch" not in message
    assert not list(full_disk.rglob("*.part-*"))  # no partial upload left to fill the disk further


FETCH_A_FOLDER = """
name: fetch_logs
description: a fetch whose source is a folder, as people first write it
steps:
  - id: logs
    title: Fetch the server logs
    why: the incident is in them
    fetch:
      src: {folder}
      dest: logs
  - id: after
    title: Still running
    why: one bad fetch fails only itself
    run: echo after
"""


def test_fetching_a_folder_says_it_is_a_folder(cli: Callable[..., Any], client: ClientSetup, tmp_path: Path) -> None:
    """`fetch: src: /var/log/sglang` (a folder): sftp-server answers a bare "Failure", and the
    step said "/var/log/sglang: Failure". (Without SFTP: test_copies_without_sftp_fail_as_sftp_copies_do.)"""
    host = "target"
    folder = tmp_path / "sglang-logs"
    folder.mkdir()
    (folder / "server.log").write_text("decode batch ...\n")
    playbook = tmp_path / "fetch.yaml"
    playbook.write_text(FETCH_A_FOLDER.format(folder=folder))
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", host, "-F", str(client.config), "--batch", "--out", str(out))
    assert_clean_cli(result)
    _, record = load_run(out)
    steps = by_id(record, host)
    assert steps["logs"]["status"] == "error" and steps["after"]["status"] == "passed", steps
    assert f"{host}:{folder}: Is a directory" in steps["logs"]["message"], steps["logs"]["message"]
    assert "Failure" not in steps["logs"]["message"]
