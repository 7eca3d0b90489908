"""The kill of a timed-out step, over a second connection to a host that asks a one-time code:
it does not wait at the code's prompt.

Where the step fills sshd's MaxSessions, its kill goes over a second connection. A host whose
login asks a one-time code (keyboard-interactive: a bastion's TOTP, Duo) asked it again there, in
the middle of the run; a code cannot be reused, and a user who had walked away held the run at
that prompt until sshd's LoginGraceTime ended the login (120 s by default). The kill is best
effort: its connection now asks nobody (it uses what the run holds: the agent, a password typed
earlier), fails at once, and the step's record says its process may still run and how to find it.

The server is a real sshd whose PAM asks "Verification code: " through keyboard-interactive
(tests/ssh/h12_helpers.py), with MaxSessions 1 and LoginGraceTime 30.
"""

from __future__ import annotations

import json
import os
import pwd
import select
import sys
import time
from pathlib import Path

from tests.ssh.h6_helpers import Terminal
from tests.ssh.h12_helpers import start_pam_prompt_server
from tests.sshd_fixture import ClientSetup

CODE = "Gpu-lab-2024!"
USER = pwd.getpwuid(os.getuid()).pw_name

PLAYBOOK = """
name: hang
steps:
  - id: hang
    run: sleep 60
    timeout: 2
"""


def test_the_kill_over_a_second_connection_does_not_wait_at_a_one_time_code_prompt(client: ClientSetup, tmp_path: Path) -> None:
    server = start_pam_prompt_server(tmp_path / "otp", CODE, ["Verification code: "],
                                     extra_config="PubkeyAuthentication no\nMaxSessions 1\nLoginGraceTime 30\n")
    try:
        client.trust(server)
        client.alias("lab01", server, User=USER)
        playbook = tmp_path / "hang.yaml"
        playbook.write_text(PLAYBOOK)
        out = tmp_path / "runs"
        terminal = Terminal([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "lab01", "-F", str(client.config),
                             "--out", str(out)])
        try:
            terminal.wait_for(b"Verification code: ")
            terminal.type(CODE.encode() + b"\n")
            started = time.monotonic()
            while terminal.process.poll() is None and time.monotonic() - started < 25:
                if select.select([terminal.master], [], [], 0.2)[0]:
                    try:
                        terminal.seen += os.read(terminal.master, 65536)
                    except OSError:  # EIO: the run ended and closed the terminal
                        break
                if terminal.seen.count(b"Verification code: ") > 1:
                    break  # asked again: nobody answers, as nobody at a walked-away terminal would
            asked = terminal.seen.count(b"Verification code: ")
            assert asked == 1, terminal.seen.decode(errors="replace")
            code = terminal.process.wait(timeout=20)
            took = time.monotonic() - started
        finally:
            terminal.close()
        assert took < 12, took  # the 2 s timeout and the kill's try; not LoginGraceTime's 30 s
        (run_dir,) = [path for path in out.iterdir() if path.is_dir()]
        record = json.loads((run_dir / "run.json").read_text())
        (step,) = record["steps"]
        assert step["status"] == "timeout", step  # as each timed-out step whose kill did not reach it (hardening70)
        assert step["message"] == (
            "lab01: the step timed out (2 s) and its processes could not be killed: sshd refused the kill a channel (the step "
            "fills the host's MaxSessions) and a second connection failed: the host asks for a one-time code (or a password) "
            "again, which a kill does not wait for"), step["message"]
        assert step["left_running"]["host"] == "lab01" and "[s]leep 60" in step["left_running"]["check"], step
        assert code != 0, terminal.seen.decode(errors="replace")
    finally:
        server.stop()
