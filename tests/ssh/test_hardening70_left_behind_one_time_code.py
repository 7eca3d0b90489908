"""The stop of a command left behind by a dropped session, at a host that asks a one-time code:
it does not ask the code again in the middle of the run.

A step whose sshd session process dies while the host stays up (the OOM killer picks it, a
network blip) leaves its command running under init; the run connects again to stop it there
(ssh.py, _stop_left_behind). At a host whose login asks a one-time code (keyboard-interactive: a
bastion's TOTP, Duo) that new connection put "Verification code: " on the terminal again, in the
middle of the run, for a few seconds, then gave up. A code cannot be reused, and the stop is best
effort, as the kill of a timed-out step is (test_hardening69_kill_one_time_code): it now asks
nobody, and the record names the command as left running and how to find it.

The server is a real sshd whose PAM asks "Verification code: " through keyboard-interactive
(tests/ssh/h12_helpers.py); the step kills its own session process (`kill -9 $PPID`).
"""

from __future__ import annotations

import json
import os
import pwd
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.ssh.h6_helpers import Terminal
from tests.ssh.h12_helpers import start_pam_prompt_server
from tests.sshd_fixture import ClientSetup

CODE = "Gpu-lab-2024!"
USER = pwd.getpwuid(os.getuid()).pw_name
COMMAND = "(sleep 1; kill -9 $PPID) & sleep 70.37; echo served"


def _left(pattern: str) -> list[int]:
    said = subprocess.run(["ps", "-ww", "-eo", "pid,args"], capture_output=True, text=True, timeout=10).stdout
    return [int(line.split()[0]) for line in said.splitlines()[1:] if pattern in line and "ps -ww" not in line]


def test_the_stop_of_a_left_behind_command_does_not_ask_a_one_time_code_again(client: ClientSetup, tmp_path: Path) -> None:
    server = start_pam_prompt_server(tmp_path / "otp", CODE, ["Verification code: "],
                                     extra_config="PubkeyAuthentication no\nLoginGraceTime 30\n")
    try:
        client.trust(server)
        client.alias("lab70", server, User=USER)
        playbook = tmp_path / "serve.yaml"
        playbook.write_text(f"name: serve\nsteps:\n  - id: launch\n    run: {json.dumps(COMMAND)}\n")
        out = tmp_path / "runs"
        terminal = Terminal([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "lab70", "-F", str(client.config),
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
            asked = terminal.seen.count(b"Verification code: ")
            code = terminal.process.wait(timeout=20)
        finally:
            terminal.close()
        said = terminal.seen.decode(errors="replace")
        assert asked == 1, said
        assert code == 3, said  # the step still failed: its connection was lost
        assert "Traceback" not in said, said
        (run_dir,) = [path for path in out.iterdir() if path.is_dir()]
        record = json.loads((run_dir / "run.json").read_text())
        (step,) = record["steps"]
        assert (step["status"], step["message"]) == ("error", "lab70: SSH connection lost during command"), step
        check = "ps -ww -eo pid,etime,args | grep -e '[(]sleep 1; kill -9 [$]PPID) & sleep 70[.]37; echo served'"
        assert (step["left_running"]["host"], step["left_running"]["check"]) == ("lab70", check), step
        hint = record["hosts"][0]["hint"]
        # It took a new connection (and asked): it did not reboot; the command was not stopped.
        assert hint == (
            "lab70 took a new connection at once: the step's SSH session ended (sshd's session process was killed, e.g. by the "
            "OOM killer, or the network dropped a moment), not the host; the host asks for a one-time code (or a password) "
            "again, which stopping the step's command does not wait for; the step's command may still be running on lab70: "
            f"check with `{check}` and kill it before running the step again"), hint
        # Still running: nothing stopped it (it is killed here, below).
        assert _left("sleep 70.37") != [], said
    finally:
        for pid in _left("sleep 70.37"):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        server.stop()
