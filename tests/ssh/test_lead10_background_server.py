"""A step that starts a server in the background over SSH, the way people start SGLang.

`nohup python -m sglang.launch_server ... &` without a redirection keeps writing to the step's
channel after the shell exits. We stopped reading a second later and closed the channel: sshd
closed the server's output pipe and its next log line killed it (SIGPIPE), so the playbook's
next step found no server. Now the channel is read until the host's steps end (as the local
runner reads its pipes), and the step's message says how to keep the server after the run.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Callable

from tests.ssh.test_cli_ssh import load_run
from tests.sshd_fixture import ClientSetup, SshServer

SERVER = 'while :; do echo "loading weights"; echo tick >&2; sleep 0.1; done'

PLAYBOOK = """\
name: launch_and_use
description: start a server in the background over SSH, then use it
vars:
  state: ""
steps:
  - id: launch
    run: nohup bash -c 'echo $$ > {{{{ state | raw }}}}/server.pid; {server}' &
  - id: still_up
    run: sleep 2; kill -0 $(cat {{{{ state | raw }}}}/server.pid) && echo up
    expect:
      - exit_code: 0
""".format(server=SERVER)


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2] != "Z"


def test_a_background_server_survives_its_ssh_step(cli: Callable[..., Any], client: ClientSetup, sshd: SshServer,
                                                   tmp_path: Path) -> None:
    state = tmp_path / "state"  # the "remote" host is this machine: its files are ours to read
    state.mkdir()
    playbook = tmp_path / "launch.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    pid = None
    try:
        result = cli("run", str(playbook), "--host", "target", "-F", str(client.config), "--batch", "--out", str(out),
                     "--var", f"state={state}")
        pid = int((state / "server.pid").read_text())
        _, record = load_run(out)
        steps = {s["id"]: s for s in record["steps"]}
        assert steps["still_up"]["status"] == "passed", steps["still_up"]
        assert result.code == 0, result.stderr
        message = steps["launch"]["message"] or ""
        assert "left running in the background" in message and "> /tmp/server.log 2>&1" in message, message
        assert "loading weights" in steps["launch"]["stdout"]
        # Once the host's steps are over the channel is closed: the next write ends the server.
        end = time.monotonic() + 60  # its next write, 0.1 s on; never reached unless it survives
        while _alive(pid) and time.monotonic() < end:
            time.sleep(0.05)
        assert not _alive(pid)
    finally:
        if pid is not None and _alive(pid):
            os.kill(pid, 9)


def test_on_a_one_session_host_the_next_step_takes_the_slot(cli: Callable[..., Any], client: ClientSetup,
                                                             sshd_factory: Any, tmp_path: Path) -> None:
    # MaxSessions 1: the kept channel holds the server's only session slot. The next step's
    # command comes first: the kept channel is closed (the server then dies at its next write,
    # as it did before) and the step runs at once, without waiting out channel-open retries.
    server = sshd_factory("bgonesession", extra_config="MaxSessions 1\n")
    client.trust(server)
    client.alias("bgonesession", server)
    state = tmp_path / "state"
    state.mkdir()
    playbook = tmp_path / "launch.yaml"
    playbook.write_text(PLAYBOOK.replace("sleep 2; kill -0 $(cat {{ state | raw }}/server.pid) && echo up", "echo next"))
    out = tmp_path / "runs"
    pid = None
    try:
        result = cli("run", str(playbook), "--host", "bgonesession", "-F", str(client.config), "--batch",
                     "--out", str(out), "--var", f"state={state}")
        pid = int((state / "server.pid").read_text())
        assert result.code == 0, result.stdout + result.stderr
        _, record = load_run(out)
        assert [s["status"] for s in record["steps"]] == ["passed", "passed"]
        # The next step's own time, not the whole run's (a login and the launch step's check, 3 s
        # of the 10 s quiet, counted against it): it would wait out 10 s of refused channel opens.
        assert record["steps"][1]["duration_s"] < 7, record["steps"][1]
    finally:
        if pid is not None and _alive(pid):
            os.kill(pid, 9)
