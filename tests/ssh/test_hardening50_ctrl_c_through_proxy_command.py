"""Ctrl-C at the terminal while a step runs on a host reached through `ProxyCommand ssh -W
%h:%p bastion`: the terminal sends SIGINT to the whole foreground process group, and the
ProxyCommand's ssh(1), started in ours, died with us at once. The connection it carried went
with it, before the kill of the step's remote tree could be sent: the remote command ran on
(sshd does not stop a command whose session lost its client: no pty, no SIGHUP), though the
record said the step had been interrupted. The remote tree must be gone, as for a host reached
directly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Callable

from tests.ssh.test_cli_ssh import survivors
from tests.ssh.test_fleet_faults import load_run
from tests.sshd_fixture import ClientSetup, SshServer, write_ssh_config

StartServer = Callable[..., SshServer]


def _foreground_run(playbook: Path, client: ClientSetup, out: Path) -> "subprocess.Popen[bytes]":
    """`spec-debug run PLAYBOOK --host gpu01` in its own process group, as a shell gives a
    foreground job: the terminal's Ctrl-C (os.killpg) reaches the whole group."""
    return subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "gpu01", "-F", str(client.config), "--batch",
         "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "COLUMNS": "200"}, start_new_session=True,
    )


def test_ctrl_c_at_the_terminal_kills_the_remote_tree_behind_a_proxy_command(
        client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, tmp_path: Path) -> None:
    bastion = sshd_factory("bastion")
    client.trust(bastion)
    client.alias("bastion", bastion)
    client.alias("gpu01", sshd, ProxyCommand=f"ssh -F {client.config} -W %h:%p bastion")
    marker = f"{5000 + uuid.uuid4().int % 4000}.75"
    path = tmp_path / "long.yaml"
    path.write_text(f"name: long\ndescription: hangs\nsteps:\n  - id: wait\n    title: wait\n    why: wait\n    run: sleep {marker}\n")
    out = tmp_path / "runs"
    process = _foreground_run(path, client, out)
    try:
        deadline = time.monotonic() + 20
        while not survivors(client, marker):
            assert time.monotonic() < deadline and process.poll() is None, "the step never started on the host"
            time.sleep(0.2)
        os.killpg(process.pid, signal.SIGINT)
        code = process.wait(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    _, stderr = process.communicate()
    assert code == 3, stderr
    _, record = load_run(out)
    assert record["status"] == "aborted"
    deadline = time.monotonic() + 5
    while survivors(client, marker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert survivors(client, marker) == [], stderr.decode()
    [step] = record["steps"]
    assert step["message"].startswith("interrupted"), step
    assert "ProxyCommand" not in stderr.decode(), stderr.decode()  # the tunnel did not fail: we stopped


def test_ctrl_c_at_the_terminal_while_a_proxy_command_hangs_stops_at_once(client: ClientSetup, tmp_path: Path) -> None:
    """The other side of the same change: a ProxyCommand that no longer dies of the terminal's
    Ctrl-C is ended by us when the run stops. A tunnel that hangs (a bastion that never
    answers, here a command that never writes) held the interrupted run for ConnectTimeout."""
    client.hosts["gpu01"] = {"HostName": "gpu01.lab", "ProxyCommand": "sleep 600", "ConnectTimeout": "120",
                             "UserKnownHostsFile": str(client.known_hosts)}
    write_ssh_config(client.config, client.hosts)
    path = tmp_path / "tiny.yaml"
    path.write_text("name: tiny\ndescription: t\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: 'true'\n")
    out = tmp_path / "runs"
    process = _foreground_run(path, client, out)
    try:
        deadline = time.monotonic() + 30
        while not _has_child_running(process.pid, "sleep 600"):
            assert time.monotonic() < deadline and process.poll() is None, "the ProxyCommand never started"
            time.sleep(0.1)
        time.sleep(0.5)  # into the handshake's wait for a banner
        interrupted = time.monotonic()
        os.killpg(process.pid, signal.SIGINT)
        code = process.wait(timeout=90)
        took = time.monotonic() - interrupted
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert code == 3
    assert took < 20, f"the interrupted run waited {took:.1f} s for its ProxyCommand"
    assert not _has_child_running(process.pid, "sleep 600")


def _has_child_running(pid: int, command: str) -> bool:
    """Whether a process of `pid`'s session runs `command` (the ProxyCommand, exec'd by its shell)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.getsid(int(entry.name)) != pid:
                continue
            if (entry / "cmdline").read_bytes().replace(b"\0", b" ").strip().decode() == command:
                return True
        except (OSError, ProcessLookupError):
            continue
    return False
