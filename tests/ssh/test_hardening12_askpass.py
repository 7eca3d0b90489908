"""SSH_ASKPASS gives the passphrase or password where there is no terminal, as for ssh(1).

`SSH_ASKPASS=./print-secret SSH_ASKPASS_REQUIRE=force ssh gpu01` is how a script or CI job
hands ssh a key's passphrase or a host's password (OpenSSH 8.4+, readpass.c), and how a desktop
session without a terminal gets its dialog. spec-debug read only the terminal: the same run
failed with "no terminal to ask for its passphrase" where `ssh gpu01` logged in.

The CLI runs here as its own process in a new session, so it has no terminal at all, as in CI.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.ssh.h10_helpers import start_password_server
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer

PASSPHRASE = "correct horse battery"
PASSWORD = "Gpu-lab-2024!"

PLAYBOOK = """
name: who
description: one command
steps:
  - id: who
    title: Who am I
    why: proves the login worked
    run: echo "logged-in-as=$(id -un)"
"""


def _askpass(tmp_path: Path, answer: str, *, status: int = 0) -> Path:
    """An askpass program: logs the question it got, prints `answer`, exits with `status`."""
    program = tmp_path / "print-secret"
    program.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$1\" >> {tmp_path / 'asked.log'}\necho '{answer}'\nexit {status}\n")
    program.chmod(0o755)
    return program


def _run_without_terminal(client: ClientSetup, tmp_path: Path, host: str, environment: dict[str, str]) -> tuple[int, dict, str]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    playbook = tmp_path / "who.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    env = {k: v for k, v in os.environ.items() if k not in ("SSH_ASKPASS", "SSH_ASKPASS_REQUIRE", "DISPLAY", "WAYLAND_DISPLAY")}
    env.update(environment)
    done = subprocess.run(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", host, "-F", str(client.config), "--out", str(out)],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120, env=env, start_new_session=True, check=False,
    )
    [run_dir] = [p for p in out.iterdir() if p.is_dir()]
    return done.returncode, json.loads((run_dir / "run.json").read_text()), done.stdout + done.stderr


def test_an_encrypted_key_is_opened_with_the_passphrase_askpass_prints(client: ClientSetup, tmp_path: Path) -> None:
    key = ClientKey.create(tmp_path / "keys", "id_gpu", passphrase=PASSPHRASE)
    server = SshServer(tmp_path / "sshd-key", [key]).start()
    try:
        client.trust(server)
        client.alias("gpu01", server, IdentityFile=str(key.path))
        program = _askpass(tmp_path, PASSPHRASE)
        code, record, output = _run_without_terminal(
            client, tmp_path, "gpu01", {"SSH_ASKPASS": str(program), "SSH_ASKPASS_REQUIRE": "force"})
    finally:
        server.stop()
    assert code == 0, output
    assert any("logged-in-as=" in step["stdout"] for step in record["steps"]), record["steps"]
    assert (tmp_path / "asked.log").read_text() == f"Enter passphrase for key '{key.path}':\n"
    assert PASSPHRASE not in output


def test_a_password_host_takes_the_password_askpass_prints(client: ClientSetup, tmp_path: Path) -> None:
    server = start_password_server(tmp_path / "pwbox", PASSWORD, extra_config="PubkeyAuthentication no\n")
    try:
        client.trust(server)
        client.alias("lab01", server)
        program = _askpass(tmp_path, PASSWORD)
        code, record, output = _run_without_terminal(
            client, tmp_path, "lab01", {"SSH_ASKPASS": str(program), "SSH_ASKPASS_REQUIRE": "force"})
    finally:
        server.stop()
    assert code == 0, output
    assert (tmp_path / "asked.log").read_text().endswith("'s password:\n")
    assert PASSWORD not in output + json.dumps(record)


def test_a_cancelled_askpass_or_require_never_leaves_the_key_unopened(client: ClientSetup, tmp_path: Path) -> None:
    key = ClientKey.create(tmp_path / "keys", "id_gpu", passphrase=PASSPHRASE)
    server = SshServer(tmp_path / "sshd-key", [key]).start()
    try:
        client.trust(server)
        client.alias("gpu01", server, IdentityFile=str(key.path))
        cancelled = _askpass(tmp_path, "", status=1)
        code, _, output = _run_without_terminal(
            client, tmp_path, "gpu01", {"SSH_ASKPASS": str(cancelled), "SSH_ASKPASS_REQUIRE": "force"})
        assert code == 3, output + _server_side(server)
        assert "encrypted, no valid passphrase given" in output, output + _server_side(server)
        code, _, output = _run_without_terminal(
            client, tmp_path / "never", "gpu01",
            {"SSH_ASKPASS": str(cancelled), "SSH_ASKPASS_REQUIRE": "never", "DISPLAY": ":0"})
    finally:
        server.stop()
    # The server's side goes with a failure: once in a CI run, this second login got no SSH
    # handshake within 15 s from this fresh sshd (not seen in 13 runs under load here).
    assert code == 3, output + _server_side(server)
    assert "no terminal to ask for its passphrase" in output, output + _server_side(server)


def _server_side(server: SshServer) -> str:
    return f"\n--- sshd.log ---\n{server.log_tail()}"
