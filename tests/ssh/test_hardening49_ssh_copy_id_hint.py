"""A new box that takes a password and does not know our key yet: the hint said
`ssh-copy-id -p PORT root@ADDRESS`. That ssh-copy-id goes to the address, past the ssh config
that reaches the host (its HostKeyAlias, ProxyJump, UserKnownHostsFile), and without `-i` it
installs the agent's keys or the newest ~/.ssh/id*.pub, not the config's IdentityFile that the
next run offers. Run literally, as a person would (typing the password), the hint must install
the key the next run logs in with."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h10_helpers import start_password_server
from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientSetup

PASSWORD = "Gpu-lab-2024!"


@pytest.mark.skipif(shutil.which("ssh-copy-id") is None, reason="ssh-copy-id not installed")
def test_the_ssh_copy_id_the_hint_names_installs_the_key_the_next_run_offers(
        cli: Callable[..., Any], client: ClientSetup, tmp_path: Path) -> None:
    home = tmp_path / "remote-home"
    (home / ".ssh").mkdir(parents=True)
    # The account's ~ on the box: ssh-copy-id appends to ~/.ssh/authorized_keys there, which is
    # the file this sshd reads (never the machine's own /root/.ssh). sshd's SetEnv sets HOME
    # after the account's own (openssh-portable: session.c, do_setup_env).
    server = start_password_server(tmp_path / "box", PASSWORD, extra_config=f"Match all\n  SetEnv HOME={home}\n")
    try:
        os.symlink(server.authorized_keys_path, home / ".ssh" / "authorized_keys")
        client.known_hosts.write_text(server.known_hosts_line.replace(server.known_hosts_name, "gpu01-key", 1))
        client.alias("gpu01", server, HostKeyAlias="gpu01-key", StrictHostKeyChecking="yes")
        # ssh(1) reads the passwd entry's ~/.ssh, not $HOME's: this stands in for its defaults.
        client.alias("*", server, UserKnownHostsFile=str(tmp_path / "default_known_hosts"), StrictHostKeyChecking="yes")
        done, record = run_tiny(cli, tmp_path, "first", "--host", "gpu01")
        assert done.code == 3, done.stdout + done.stderr
        assert "the host would also take a password" in record["hosts"][0]["error"], record["hosts"][0]["error"]
        hint = re.search(r"install your public key there once: `(ssh-copy-id [^`]+)`", done.stderr)
        assert hint is not None, done.stderr
        command = shlex.split(hint.group(1))
        askpass = tmp_path / "askpass"
        askpass.write_text(f"#!/bin/sh\necho '{PASSWORD}'\n")
        askpass.chmod(0o700)
        installed = subprocess.run(
            [command[0], "-F", str(client.config), *command[1:]], capture_output=True, text=True, timeout=120,
            stdin=subprocess.DEVNULL, check=False,
            env={**os.environ, "SSH_ASKPASS": str(askpass), "SSH_ASKPASS_REQUIRE": "force", "DISPLAY": ":0"})
        assert installed.returncode == 0, (command, installed.stdout, installed.stderr)
        done, record = run_tiny(cli, tmp_path, "second", "--host", "gpu01")
        assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr
    finally:
        server.stop()
