"""A password typed at the prompt serves the run's later connections to that host.

spec-debug opens a second connection to a host on its own: to kill a timed-out step where the
step fills sshd's MaxSessions, to stop a step whose session died, when sshd closed an idle
connection between steps. A password typed at the terminal was not kept, so each of these asked
again in the middle of the run: a user who had walked away held the kill at the prompt until
sshd's LoginGraceTime ended the login (120 s by default), and the timed-out step was recorded
as not killed. ssh(1) users get the same reuse from ControlMaster. The password is kept in
memory for the run only (never in run.json), and a password the host refuses later is asked
for again.
"""

from __future__ import annotations

import json
import os
import pwd
import select
import sys
import time
from pathlib import Path

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_connect import connect
from tests.ssh.h6_helpers import Terminal
from tests.ssh.h10_helpers import start_password_server
from tests.ssh.h12_helpers import start_pam_prompt_server
from tests.sshd_fixture import ClientSetup

PASSWORD = "Gpu-lab-2024!"
USER = pwd.getpwuid(os.getuid()).pw_name

PLAYBOOK = """
name: hang
steps:
  - id: hang
    run: sleep 60
    timeout: 2
  - id: after
    run: echo "user=$(id -un)"
"""


def test_the_kill_of_a_timed_out_step_does_not_ask_for_the_password_again(client: ClientSetup, tmp_path: Path) -> None:
    # MaxSessions 1: the kill's channel is refused beside the step, and goes over a new connection.
    server = start_password_server(tmp_path / "pwbox", PASSWORD,
                                   extra_config="PubkeyAuthentication no\nMaxSessions 1\nLoginGraceTime 10\n")
    try:
        client.trust(server)
        client.alias("lab01", server, User=USER)
        playbook = tmp_path / "hang.yaml"
        playbook.write_text(PLAYBOOK)
        out = tmp_path / "runs"
        terminal = Terminal([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "lab01", "-F", str(client.config),
                             "--out", str(out)])
        try:
            terminal.wait_for(b"'s password: ")
            terminal.type(PASSWORD.encode() + b"\n")
            started = time.monotonic()
            while terminal.process.poll() is None and time.monotonic() - started < 40:
                if select.select([terminal.master], [], [], 0.2)[0]:
                    try:
                        terminal.seen += os.read(terminal.master, 65536)
                    except OSError:  # EIO: the run ended and closed the terminal
                        break
                if terminal.seen.count(b"'s password: ") > 1:
                    break  # asked again: nobody answers, as nobody at a walked-away terminal would
            asked = terminal.seen.count(b"'s password: ")
            assert asked == 1, terminal.seen.decode(errors="replace")
            assert terminal.process.wait(timeout=30) == 0, terminal.seen.decode(errors="replace")
        finally:
            terminal.close()
        (run_dir,) = [path for path in out.iterdir() if path.is_dir()]
        record = json.loads((run_dir / "run.json").read_text())
        steps = {step["id"]: step for step in record["steps"]}
        assert steps["hang"]["status"] == "timeout", steps["hang"]
        assert "process tree killed" in steps["hang"]["message"], steps["hang"]["message"]
        assert steps["after"]["status"] == "passed" and steps["after"]["stdout"] == f"user={USER}\n", steps["after"]
        assert PASSWORD not in (run_dir / "run.json").read_text()
    finally:
        server.stop()


@pytest.mark.parametrize("login", ["password", "keyboard-interactive"])
def test_a_later_connection_reuses_the_typed_password_and_asks_again_once_it_is_refused(
    client: ClientSetup, tmp_path: Path, login: str
) -> None:
    # PasswordAuthentication (a fresh Ubuntu box), or PAM's "Password: " through keyboard-interactive.
    server = (start_password_server(tmp_path / "pwbox", PASSWORD, extra_config="PubkeyAuthentication no\n") if login == "password"
              else start_pam_prompt_server(tmp_path / "pam", PASSWORD, None, extra_config="PubkeyAuthentication no\n"))
    try:
        client.trust(server)
        client.alias("lab01", server, User=USER)
        asked: list[str] = []

        def typist(question: str) -> str:
            asked.append(question)
            return PASSWORD

        options = client.options(batch=False, prompt=typist)
        with SSHTransport.connect("lab01", options) as transport:
            assert len(asked) == 1, asked
            second = transport._reconnect()  # as a kill over a second connection opens it
            try:
                assert second.transport.is_authenticated()
            finally:
                second.close()
            assert len(asked) == 1, asked  # not asked again
        # A password that the host no longer takes (changed since it was typed) is asked for.
        third = connect("lab01", options, typed_password="not-it-anymore")
        try:
            assert third.transport.is_authenticated()
        finally:
            third.close()
        assert len(asked) == 2, asked
    finally:
        server.stop()


@pytest.fixture(autouse=True)
def _no_askpass(monkeypatch: pytest.MonkeyPatch) -> None:
    """The prompt is the terminal's, not an askpass program's (ssh_askpass reads these)."""
    for name in ("SSH_ASKPASS", "SSH_ASKPASS_REQUIRE", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
