"""A box that takes a password and does not know our key yet, where the config's IdentityFile
has no `.pub` beside it (a key copied alone from another machine, a key made with `ssh-keygen
-f` whose .pub was deleted): the hint left `-i` out and said `ssh-copy-id root@gpu01`, which
installs the agent's keys or the newest ~/.ssh/id*.pub (ssh-copy-id: DEFAULT_PUB_ID_FILE), not
the key the next run offers; and `ssh-copy-id -i KEY` alone stops at "failed to open ID file
'KEY.pub'" (ssh-copy-id: use_id_file). Run literally, as a person would (typing the password),
the hint must install the key the next run logs in with."""

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
from tests.sshd_fixture import ClientSetup, keygen, write_ssh_config

PASSWORD = "Gpu-lab-2024!"


def _run_as_typed(commands: str, config: Path, askpass: Path) -> None:
    """The hint's shell line, each `&&` part in turn; ssh-copy-id with -F CONFIG (ssh(1) reads
    the passwd entry's ~/.ssh/config, not $HOME's) and the password from SSH_ASKPASS."""
    env = {**os.environ, "SSH_ASKPASS": str(askpass), "SSH_ASKPASS_REQUIRE": "force", "DISPLAY": ":0"}
    for part in commands.split(" && "):
        words = shlex.split(part)
        if words[0] == "ssh-copy-id":
            done = subprocess.run([words[0], "-F", str(config), *words[1:]], capture_output=True, text=True,
                                  timeout=120, stdin=subprocess.DEVNULL, env=env, check=False)
        else:
            done = subprocess.run(part, shell=True, capture_output=True, text=True, timeout=60,
                                  stdin=subprocess.DEVNULL, env=env, check=False)
        assert done.returncode == 0, (part, done.stdout, done.stderr)


@pytest.mark.skipif(shutil.which("ssh-copy-id") is None or shutil.which("ssh-keygen") is None,
                    reason="ssh-copy-id not installed")
def test_the_hint_installs_an_identity_file_that_has_no_pub_beside_it(
        cli: Callable[..., Any], client: ClientSetup, tmp_path: Path) -> None:
    home = tmp_path / "remote-home"
    (home / ".ssh").mkdir(parents=True)
    server = start_password_server(tmp_path / "box", PASSWORD, extra_config=f"Match all\n  SetEnv HOME={home}\n")
    try:
        os.symlink(server.authorized_keys_path, home / ".ssh" / "authorized_keys")
        lab_key = client.home / ".ssh" / "lab_ed25519"
        shutil.copy(client.key.path, lab_key)
        lab_key.chmod(0o600)
        assert not Path(f"{lab_key}.pub").exists()
        # Another key, with its .pub, where ssh-copy-id without -i looks ($HOME/.ssh/id*.pub).
        keygen(client.home / ".ssh" / "id_ed25519")
        client.trust(server)
        client.alias("gpu01", server, IdentityFile=str(lab_key))
        # ssh(1) reads the passwd entry's ~/.ssh, not $HOME's: this stands in for its defaults.
        client.hosts["*"] = {"UserKnownHostsFile": str(tmp_path / "default_known_hosts")}
        write_ssh_config(client.config, client.hosts)
        done, record = run_tiny(cli, tmp_path, "first", "--host", "gpu01")
        assert done.code == 3, done.stdout + done.stderr
        assert "the host would also take a password" in record["hosts"][0]["error"], record["hosts"][0]["error"]
        hint = re.search(r"install your public key there once: `([^`]+)`", done.stderr)
        assert hint is not None, done.stderr
        askpass = tmp_path / "askpass"
        askpass.write_text(f"#!/bin/sh\necho '{PASSWORD}'\n")
        askpass.chmod(0o700)
        _run_as_typed(hint.group(1), client.config, askpass)
        done, record = run_tiny(cli, tmp_path, "second", "--host", "gpu01")
        assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr
    finally:
        server.stop()
