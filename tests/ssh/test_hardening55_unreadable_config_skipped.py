"""A ~/.ssh/config or /etc/ssh/ssh_config that cannot be opened is skipped, as ssh(1) skips it.

ssh(1) reads the user's file and the system one only when fopen succeeds, and passes over
either silently otherwise (openssh-portable: readconf.c, read_config_file_depth returns 0;
ssh.c, process_config_files ignores it). spec-debug stopped every host with "cannot read ssh
config ...: Permission denied" where `ssh gpu01` connects. `-F FILE` that cannot be opened still
stops, as it stops ssh(1) ("Can't open user config file").

The tests run as root in CI, and root opens a mode-000 file (CAP_DAC_OVERRIDE): the client runs
in a child without that capability (setpriv), as any other user is. Real sshd.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sshd_fixture import ClientSetup, SshServer, write_ssh_config

REPO = Path(__file__).resolve().parents[2]

# Connect to `target` as the CLI would (no -F: the user's and the system file), say who we are.
CONNECT = """
import sys
from spec_debug.errors import UsageError
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_connect import ConnectOptions
config = sys.argv[1] if len(sys.argv) > 1 else None
try:
    transport = SSHTransport.connect("target", ConnectOptions(ssh_config_path=config, batch=True, use_agent=False))
except UsageError as exc:
    print("usage error:", exc.message, file=sys.stderr)
    sys.exit(2)
out = StreamCapture("stdout")
transport.run("echo reached", stdout=out, stderr=StreamCapture("stderr"))
transport.close()
print(out.text().strip())
"""


def _as_a_user_without_dac_override(*config: str) -> subprocess.CompletedProcess[str]:
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("setpriv (util-linux) is needed to read files as a user without CAP_DAC_OVERRIDE")
        caps = "-dac_override,-dac_read_search"
        prefix = [setpriv, f"--inh-caps={caps}", f"--bounding-set={caps}"]
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([*prefix, sys.executable, "-c", CONNECT, *config],
                          capture_output=True, text=True, timeout=120, env=env, cwd=str(REPO))


@pytest.fixture
def system_file(client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`target` described by the system-wide file; the user's file has it too (moved aside)."""
    system = tmp_path / "etc" / "ssh_config"
    system.parent.mkdir()
    shutil.copy(client.config, system)
    monkeypatch.setenv("SPEC_DEBUG_SYSTEM_SSH_CONFIG", str(system))
    return system


def test_a_user_config_that_cannot_be_opened_is_skipped(client: ClientSetup, system_file: Path) -> None:
    # What it says would send `target` nowhere: read, the connection fails.
    write_ssh_config(client.config, {"target": {"HostName": "127.0.0.1", "Port": 1}})
    client.config.chmod(0)
    done = _as_a_user_without_dac_override()
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "reached"
    assert f"ssh config {client.config} cannot be read (Permission denied): skipped" in done.stderr, done.stderr


def test_a_system_config_that_cannot_be_opened_is_skipped(client: ClientSetup, system_file: Path) -> None:
    write_ssh_config(system_file, {"target": {"HostName": "127.0.0.1", "Port": 1}})
    system_file.chmod(0)
    done = _as_a_user_without_dac_override()
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "reached"
    assert f"ssh config {system_file} cannot be read (Permission denied): skipped" in done.stderr, done.stderr


def test_a_user_config_in_a_folder_that_cannot_be_entered_is_skipped(
        client: ClientSetup, sshd: SshServer, system_file: Path, tmp_path: Path) -> None:
    # ~/.ssh mode 000 (or a home on NFS with root squash, read by root): the stat fails too.
    known_hosts = tmp_path / "known_hosts"
    shutil.copy(client.known_hosts, known_hosts)
    write_ssh_config(system_file, {"target": {**client.hosts["target"], "UserKnownHostsFile": str(known_hosts)}})
    (client.home / ".ssh").chmod(0)
    try:
        done = _as_a_user_without_dac_override()
    finally:
        (client.home / ".ssh").chmod(0o700)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "reached"
    assert "PermissionError" not in done.stderr, done.stderr
    assert f"ssh config {client.config} cannot be read (Permission denied): skipped" in done.stderr, done.stderr


def test_minus_f_that_cannot_be_opened_still_stops(client: ClientSetup, system_file: Path) -> None:
    client.config.chmod(0)
    done = _as_a_user_without_dac_override(str(client.config))
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "usage error: cannot read ssh config" in done.stderr and "Permission denied" in done.stderr, done.stderr
