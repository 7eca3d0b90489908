"""A step whose SSH session dies, after which the host answers with another host key.

The run connects again to stop a step's command whose session died (hardening68). When the host
then shows another key (its address or VIP moved to another machine, the machine reinstalled),
that login is refused, rightly; but the hint said "the host rebooted, sshd restarted or the
network dropped", as if nothing had answered, and sent the user to `ps | grep` on a name that
now leads elsewhere. Now the hint says that the host answered with another key (the known_hosts
file and line, both fingerprints) and so the command was not stopped, before the `ps` check.

Real sshd: the step swaps the host key files (a re-exec'd sshd loads them for each new
connection) and kills its own session process (`kill -9 $PPID`); the listener stays up.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from tests.ssh.test_fleet_faults import by_id, load_run
from tests.sshd_fixture import SSHD, ClientSetup, SshServer, fingerprint, keygen


def _sshd_version() -> tuple[int, int]:
    said = subprocess.run([SSHD, "-V"], capture_output=True, text=True).stderr
    match = re.search(r"OpenSSH_(\d+)\.(\d+)", said)
    return (int(match.group(1)), int(match.group(2))) if match else (0, 0)


# sshd before 9.8 re-executes itself for each connection and loads the host key files again
# there, so a key swapped on disk is the one a new connection meets; from 9.8 the listener loads
# them once and hands them to sshd-session (openssh-portable: sshd.c, pack_hostkeys).
pytestmark = pytest.mark.skipif(_sshd_version() >= (9, 8), reason="needs an sshd that loads its host keys per connection (< 9.8)")


def _left(pattern: str) -> list[int]:
    said = subprocess.run(["ps", "-ww", "-eo", "pid,args"], capture_output=True, text=True, timeout=10).stdout
    return [int(line.split()[0]) for line in said.splitlines()[1:] if pattern in line and "ps -ww" not in line]


def test_a_lost_step_whose_host_then_shows_another_key_says_so(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    server = sshd_factory("h75key")
    client.trust(server)  # known_hosts line 2 (line 1: the shared sshd)
    client.alias("gpu75", server)
    old = server.host_key_fingerprint
    new_key = keygen(tmp_path / "new_host_key", comment="spec-debug-test-host-new")
    key = server.host_key_path
    command = f"(sleep 1; cp {new_key} {key}; cp {new_key}.pub {key}.pub; kill -9 $PPID) & sleep 75.3; echo served"
    playbook = tmp_path / "serve.yaml"
    playbook.write_text(f"name: serve\nsteps:\n  - id: launch\n    run: {json.dumps(command)}\n  - id: after\n    run: echo after\n")
    out = tmp_path / "runs"
    try:
        result = subprocess.run(
            [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "gpu75", "-F", str(client.config),
             "--batch", "--out", str(out)], capture_output=True, text=True, timeout=60,
            env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"},
        )
    finally:
        for pid in _left("sleep 75.3"):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    said = result.stdout + result.stderr
    assert result.returncode == 3, said
    assert "Traceback" not in said, said
    _, record = load_run(out)
    launch = by_id(record, "gpu75")["launch"]
    assert (launch["status"], launch["message"]) == ("error", "gpu75: SSH connection lost during command"), json.dumps(launch)
    check = launch["left_running"]["check"]
    assert check.startswith("ps -ww -eo pid,etime,args | grep -e '[(]sleep 1; cp "), check
    hint = record["hosts"][0]["hint"]
    assert hint == (
        f"gpu75 answered a new connection at once, with another host key (HOST KEY CHANGED for [127.0.0.1]:{server.port}: "
        f"server offered ED25519 key {fingerprint(Path(str(new_key) + '.pub'))}, known_hosts has ED25519 key {old} "
        f"(offending key in {client.known_hosts}:2); refusing to connect (possible man-in-the-middle)), so the step's "
        "command was not stopped: the name may now lead to another machine than the one the step ran on (an address "
        "or VIP moved, a reinstall); the step's command may still be running on gpu75: "
        f"check with `{check}` and kill it before running the step again"), hint
    assert "rebooted" not in hint, hint
    assert f"  hint: {hint}\n" in said, said


def test_a_lost_step_whose_jump_host_then_shows_another_key_names_the_jump_host(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    """Behind a bastion whose connection dropped and whose key then changed, the refused key is
    the bastion's: the hint named the host behind it ("gpu75b answered ... with another host key
    (jump host bastion75b: HOST KEY CHANGED ...)") and said that name may lead elsewhere now."""
    import threading
    import time

    target, bastion = sshd_factory("h75kt"), sshd_factory("h75kb")
    client.trust(target)
    client.trust(bastion)  # known_hosts line 3
    client.alias("bastion75b", bastion)
    client.alias("gpu75b", target, ProxyJump="bastion75b")
    old = bastion.host_key_fingerprint
    new_key = keygen(tmp_path / "new_host_key", comment="spec-debug-test-host-new")
    began = tmp_path / "began"
    playbook = tmp_path / "serve.yaml"
    playbook.write_text(f"name: serve\nsteps:\n  - id: launch\n    run: 'touch {began}; sleep 75.4; echo served'\n")

    def swap_and_cut() -> None:  # the bastion's key changes and its sessions die; its listener stays up
        deadline = time.monotonic() + 50
        while not began.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        bastion.host_key_path.write_bytes(new_key.read_bytes())
        Path(str(bastion.host_key_path) + ".pub").write_bytes(Path(str(new_key) + ".pub").read_bytes())
        for pid in bastion.connection_pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    swapper = threading.Thread(target=swap_and_cut, daemon=True)
    swapper.start()
    out = tmp_path / "runs"
    try:
        result = subprocess.run(
            [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "gpu75b", "-F", str(client.config),
             "--batch", "--out", str(out)], capture_output=True, text=True, timeout=60,
            env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"},
        )
    finally:
        swapper.join()
        for pid in _left("sleep 75.4"):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    said = result.stdout + result.stderr
    assert result.returncode == 3, said
    _, record = load_run(out)
    check = by_id(record, "gpu75b")["launch"]["left_running"]["check"]
    hint = record["hosts"][0]["hint"]
    assert hint == (
        f"a new connection to gpu75b met another host key at its jump host bastion75b (HOST KEY CHANGED for "
        f"[127.0.0.1]:{bastion.port}: server offered ED25519 key {fingerprint(Path(str(new_key) + '.pub'))}, known_hosts "
        f"has ED25519 key {old} (offending key in {client.known_hosts}:3); refusing to connect (possible "
        "man-in-the-middle)), so the step's command was not stopped: bastion75b may now lead to another machine (an "
        f"address or VIP moved, a reinstall); the step's command may still be running on gpu75b: check with `{check}` "
        "and kill it before running the step again"), hint
