"""`spec-debug run -F ./vagrant.cfg -H default` (a config a tool wrote: `vagrant ssh-config`,
`tsh config`, a cloud CLI's): the `ssh` commands the hints name go through the same file.

Before: the unknown-key hint said "or run `ssh default` once" and the refused-login hint
"`ssh -v root@default` shows what ssh(1) offers". Run as said, ssh(1) reads ~/.ssh/config, which
knows no `default`: "Could not resolve hostname default" (OpenSSH_9.2p1), and the user learnt
nothing about the host. Now they say `ssh -F ./vagrant.cfg ...`, which reaches it: filing the key
with it lets the next run in, and its `-v` log is the refused login's. Real sshd, real ssh(1).
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.sshd_fixture import ClientKey, SshServer, write_ssh_config

SSH = shutil.which("ssh")
pytestmark = pytest.mark.skipif(SSH is None, reason="needs OpenSSH's ssh(1) to run the hint's command")
TINY = "name: tiny\ndescription: t\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: 'true'\n"


def _vagrant_config(tmp_path: Path, server: SshServer, key: Path) -> Path:
    """What `vagrant ssh-config > vagrant.cfg` writes, pointed at the test's sshd."""
    return write_ssh_config(tmp_path / "vagrant.cfg", {"default": {
        "HostName": server.address, "Port": server.port, "User": "root", "IdentityFile": str(key),
        "IdentitiesOnly": "yes", "UserKnownHostsFile": str(tmp_path / "vagrant_known_hosts")}})


def _run(cli: Callable[..., Any], tmp_path: Path, config: Path, run: str) -> Any:
    (tmp_path / "tiny.yaml").write_text(TINY)
    return cli("run", str(tmp_path / "tiny.yaml"), "-F", str(config), "-H", "default", "--batch",
               "--out", str(tmp_path / f"runs-{run}"))


def _as_said(command: str, *options: str) -> subprocess.CompletedProcess[str]:
    """The hint's command as the user runs it (no -F of ours added), never asking."""
    words = shlex.split(command)
    return subprocess.run([SSH, *options, "-o", "BatchMode=yes", *words[1:], "true"], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL, check=False)


def test_the_unknown_key_hints_ssh_reaches_the_host_through_the_named_config(
        cli: Callable[..., Any], client: Any, sshd: SshServer, tmp_path: Path) -> None:
    config = _vagrant_config(tmp_path, sshd, client.key.path)
    done = _run(cli, tmp_path, config, "first")
    assert done.code == 3, done.stdout + done.stderr
    said = re.search(r"or run `(ssh [^`]+)` once", done.stderr)
    assert said is not None, done.stderr
    assert said.group(1).startswith(f"ssh -F {config} ") and said.group(1).endswith(" default"), said.group(1)
    filed = _as_said(said.group(1), "-o", "StrictHostKeyChecking=accept-new")
    assert filed.returncode == 0, filed.stderr
    assert _run(cli, tmp_path, config, "second").code == 0


def test_the_refused_logins_ssh_v_is_the_same_login(
        cli: Callable[..., Any], client: Any, sshd: SshServer, tmp_path: Path) -> None:
    stranger = ClientKey.create(tmp_path / "stranger")  # a key the host does not take
    config = _vagrant_config(tmp_path, sshd, stranger.path)
    (tmp_path / "vagrant_known_hosts").write_text(sshd.known_hosts_line)
    done = _run(cli, tmp_path, config, "first")
    assert done.code == 3, done.stdout + done.stderr
    said = re.search(r"`(ssh -v [^`]+)` shows what ssh\(1\) offers", done.stderr)
    assert said is not None, done.stderr
    assert said.group(1).startswith(f"ssh -v -F {config} "), said.group(1)
    log = _as_said(said.group(1)).stderr
    # ssh(1) reached the same sshd and offered the same key, and was refused as we were
    assert f"Connecting to {sshd.address} [{sshd.address}] port {sshd.port}." in log, log
    assert f"Offering public key: {stranger.path} " in log and "Permission denied (publickey)" in log, log
