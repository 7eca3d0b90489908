"""A host that takes the key and then wants a password (`AuthenticationMethods publickey,password`,
sshd_config(5)), with no password to send: the refusal says a password is wanted and how to give
it, not that password second factors are unsupported.

In --batch (a CI job, a cron run) the host failed "server wants a second factor after the key
(password)" with the hint "only keyboard-interactive and password second factors are supported
(...); use a key-only account": password was named as both supported and the reason for refusing.
What was missing was a way to send one: the inventory's ansible_password, $SSHPASS, or a prompt
that --batch forbids. Real sshd whose account has a password (tests/ssh/h10_helpers.py).
"""

from __future__ import annotations

import os
import pwd
import subprocess
import sys
from pathlib import Path

from tests.ssh.h10_helpers import start_password_server
from tests.ssh.test_fleet_faults import load_run
from tests.sshd_fixture import ClientSetup

PASSWORD = "second-Factor-70"
USER = pwd.getpwuid(os.getuid()).pw_name
PLAYBOOK = "name: two\nsteps:\n  - id: one\n    run: echo logged-in\n"


def _run(client: ClientSetup, tmp_path: Path, env: dict[str, str]) -> tuple[subprocess.CompletedProcess[str], dict]:
    tmp_path.mkdir(exist_ok=True)
    playbook = tmp_path / "two.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    environment = {key: value for key, value in os.environ.items() if key != "SSHPASS"}
    done = subprocess.run(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "mfa70", "-F", str(client.config), "--batch",
         "--out", str(out)], capture_output=True, text=True, timeout=60,
        env={**environment, "COLUMNS": "400", "NO_COLOR": "1", **env},
    )
    return done, load_run(out)[1]


def test_a_key_then_password_host_in_batch_says_a_password_is_wanted_and_how_to_give_it(
    client: ClientSetup, tmp_path: Path
) -> None:
    server = start_password_server(tmp_path / "mfa", PASSWORD, keys=[client.key],
                                   extra_config="AuthenticationMethods publickey,password\n")
    try:
        client.trust(server)
        client.alias("mfa70", server, User=USER)
        done, record = _run(client, tmp_path, {})
        said = done.stdout + done.stderr
        assert done.returncode == 3, said
        assert "Traceback" not in said, said
        host = record["hosts"][0]
        assert host["error"] == (
            f"mfa70: {USER}@{server.address}:{server.port} accepted the key ({client.key.path}) and then asks for a password, "
            "which spec-debug does not use without one in the inventory (ansible_password), and --batch forbids prompting"
        ), host
        assert host["hint"] == (
            "the host takes a password: set ansible_password for it in an inventory (--inventory), export it as $SSHPASS "
            "(as for sshpass -e), run without --batch to type it, or use an account that logs in with a key alone"
        ), host
        # The password it asked for, given as the hint says: the same host logs in.
        done, record = _run(client, tmp_path / "again", {"SSHPASS": PASSWORD})
        assert done.returncode == 0, done.stdout + done.stderr
        assert record["steps"][0]["stdout"] == "logged-in\n", record["steps"]
    finally:
        server.stop()
