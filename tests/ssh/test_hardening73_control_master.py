"""A host behind a second factor, reached through ssh(1)'s master connection (`ControlMaster
auto`, `ControlPath`, `ControlPersist` in ~/.ssh/config, as sites with one-time codes tell their
users to set), or behind a bastion that has one: the code is typed once, and every `ssh gpu` after it rides the open master and
asks for nothing (openssh-portable: mux.c, muxclient; recorded with OpenSSH_9.2p1 against the
test's sshd: `ssh -o BatchMode=yes gpu true` succeeds).

Before: `spec-debug run --batch -H gpu` failed "accepted the key ... and then asks for a
password" with a hint about ansible_password and $SSHPASS, and nothing said why `ssh gpu` logs
in where spec-debug cannot. Now the hint first says that `ssh gpu` goes through the master open
at its ControlPath, which spec-debug cannot share; so does a refused login of a jump host whose
master is open (`ssh gpu` runs `ssh -W` through it). Real sshd (key then password), real ssh(1)
master.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterator

import paramiko
import pytest

from spec_debug.runner.ssh_config import load_ssh_config, resolve_target
from tests.ssh.h10_helpers import start_password_server
from tests.sshd_fixture import ClientSetup, SshServer, write_ssh_config

SSH = shutil.which("ssh")
pytestmark = pytest.mark.skipif(SSH is None, reason="needs OpenSSH's ssh(1) to keep a master connection")

PASSWORD = "otp-428913"
TINY = "name: tiny\ndescription: t\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: 'true'\n"
PASSWORD_HINT = ("the host takes a password: set ansible_password for it in an inventory (--inventory), export it as "
                 "$SSHPASS (as for sshpass -e), run without --batch to type it, or use an account that logs in with a key alone")


@pytest.fixture
def socket_dir() -> Iterator[Path]:
    """A short folder for the master's socket: a pytest tmp_path is too long for one (108 bytes,
    and ssh(1) binds a longer temporary name first: "ControlPath too long")."""
    folder = Path(tempfile.mkdtemp(prefix="cm", dir="/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _ssh(config: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SSH, "-F", str(config), *args], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, env=env, check=False)


def _second_factor_host(client: ClientSetup, tmp_path: Path, socket_dir: Path, alias: str) -> Any:
    """A host that takes the key then a password (the second factor), with a master connection
    open for it, made as its user makes it (the password typed once, here through SSH_ASKPASS)."""
    server = start_password_server(tmp_path / f"sshd-{alias}", PASSWORD, keys=[client.key],
                                   extra_config="AuthenticationMethods publickey,password\n")
    client.trust(server)
    client.alias(alias, server, ControlMaster="auto", ControlPath=f"{socket_dir}/%C", ControlPersist="yes")
    askpass = tmp_path / "askpass"
    askpass.write_text(f"#!/bin/sh\necho {PASSWORD}\n")
    askpass.chmod(0o755)
    started = _ssh(client.config, "-fN", alias,
                   env={**os.environ, "SSH_ASKPASS": str(askpass), "SSH_ASKPASS_REQUIRE": "force", "DISPLAY": ":0"})
    assert started.returncode == 0, started.stderr + server.log_tail()
    return server


@pytest.fixture
def master_host(client: ClientSetup, tmp_path: Path, socket_dir: Path) -> Iterator[Path]:
    """`gpu`: a key then a password, with a master connection open for it."""
    server = _second_factor_host(client, tmp_path, socket_dir, "gpu")
    try:
        yield client.config
    finally:
        _ssh(client.config, "-O", "exit", "gpu")
        server.stop()


@pytest.fixture
def master_bastion(client: ClientSetup, sshd: SshServer, tmp_path: Path, socket_dir: Path) -> Iterator[Path]:
    """`gpu` (a key is enough) behind `bastion`, which takes a key then a password, with a master
    connection open for the bastion: `ssh gpu` runs `ssh -W` through it (ssh -J)."""
    server = _second_factor_host(client, tmp_path, socket_dir, "bastion")
    try:
        client.alias("gpu", sshd, ProxyJump="bastion")
        yield client.config
    finally:
        _ssh(client.config, "-O", "exit", "bastion")
        server.stop()


def _run(cli: Callable[..., Any], tmp_path: Path, config: Path) -> dict[str, Any]:
    (tmp_path / "tiny.yaml").write_text(TINY)
    out = tmp_path / "out"
    done = cli("run", str(tmp_path / "tiny.yaml"), "--host", "gpu", "-F", str(config), "--batch", "--out", str(out))
    assert done.code == 3, done.stdout + done.stderr  # a host that could not be used
    assert "Traceback" not in done.stderr
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    [host] = json.loads((run_dir / "run.json").read_text())["hosts"]
    return host  # type: ignore[no-any-return]


def test_a_login_refused_where_ssh_rides_an_open_master_says_so(
        cli: Callable[..., Any], master_host: Path, socket_dir: Path, tmp_path: Path) -> None:
    assert _ssh(master_host, "-o", "BatchMode=yes", "gpu", "echo via-master").stdout == "via-master\n"
    [socket_path] = socket_dir.iterdir()
    host = _run(cli, tmp_path, master_host)
    assert host["error"].startswith("gpu: ") and "and then asks for a password" in host["error"]
    assert host["hint"] == (
        f"`ssh gpu` logs in through the master connection ssh(1) keeps open at {socket_path} (ControlMaster and "
        "ControlPath in your ssh config), so it asks for nothing while that connection lasts; spec-debug cannot share "
        f"it and logs in anew; {PASSWORD_HINT}")
    # looking at the master (a connection to its socket) left it serving
    assert _ssh(master_host, "-o", "BatchMode=yes", "gpu", "echo still").stdout == "still\n"


def test_a_jump_host_login_refused_where_ssh_rides_its_open_master_says_so(
        cli: Callable[..., Any], master_bastion: Path, socket_dir: Path, tmp_path: Path) -> None:
    """Sites put the second factor on the bastion: `ssh gpu` (ProxyJump bastion) asks nothing
    while the bastion's master is open."""
    assert _ssh(master_bastion, "-o", "BatchMode=yes", "gpu", "echo via-bastion").stdout == "via-bastion\n"
    [socket_path] = socket_dir.iterdir()
    host = _run(cli, tmp_path, master_bastion)
    assert host["error"].startswith("gpu: jump host bastion: ") and "and then asks for a password" in host["error"]
    assert host["hint"] == (
        f"`ssh bastion` logs in through the master connection ssh(1) keeps open at {socket_path} (ControlMaster and "
        "ControlPath in your ssh config), so it asks for nothing while that connection lasts; spec-debug cannot share "
        f"it and logs in anew; {PASSWORD_HINT}")


def test_no_word_of_a_master_once_it_has_gone(
        cli: Callable[..., Any], master_host: Path, socket_dir: Path, tmp_path: Path) -> None:
    assert _ssh(master_host, "-O", "exit", "gpu").returncode == 0
    assert _ssh(master_host, "-o", "BatchMode=yes", "gpu", "true").returncode != 0  # ssh(1) is asked too now
    assert _run(cli, tmp_path, master_host)["hint"] == PASSWORD_HINT


@pytest.mark.parametrize("control_path", [
    "/tmp/cm-%C",
    "/tmp/cm-%r@%h:%p-%n-%k-%i-%L-%l-%u-%%",
    "/tmp/${SPEC_DEBUG_TEST_CM}-%h",
])
def test_the_control_path_is_the_socket_ssh_looks_for(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, control_path: str) -> None:
    """The same file as `ssh -G` names: %C is ssh(1)'s hash (local name, HostName, port, remote
    user), not paramiko's, and %l is gethostname(3), not a DNS name."""
    monkeypatch.setenv("SPEC_DEBUG_TEST_CM", "masters")
    config = write_ssh_config(tmp_path / "config", {"gpu": {
        "HostName": "10.1.2.3", "Port": 2200, "User": "bob", "HostKeyAlias": "gpu-key", "ControlPath": control_path}})
    done = _ssh(config, "-G", "gpu")
    [said] = [line.split(" ", 1)[1] for line in done.stdout.splitlines() if line.startswith("controlpath ")]
    assert resolve_target("gpu", load_ssh_config(config)).control_path == said


@pytest.mark.parametrize("master, shared", [(None, True), ("no", True), ("auto", True), ("autoask", True),
                                            ("yes", False), ("ask", False)])
def test_only_a_control_master_that_uses_an_open_master_keeps_the_path(master: str | None, shared: bool) -> None:
    """ControlMaster yes or ask makes a master of its own, and logs in for it (mux.c, muxclient)."""
    config = paramiko.SSHConfig.from_text("Host gpu\n  ControlPath /tmp/cm-%h\n" + (f"  ControlMaster {master}\n" if master else ""))
    assert resolve_target("gpu", config).control_path == ("/tmp/cm-gpu" if shared else None)
    assert resolve_target("gpu", paramiko.SSHConfig.from_text("Host gpu\n  ControlPath none\n")).control_path is None
