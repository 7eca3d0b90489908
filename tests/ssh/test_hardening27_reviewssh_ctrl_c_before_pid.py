"""Ctrl-C while a step's shell is still in its rc files, before the wrapper's pid line came.

The kill needs that pid: with none, nothing was killed, and the shell (a site rc file loading
modules from a hung NFS mount) may go on to run the command. The record said only
"interrupted: ..."; a reader then reran the step beside the first. It must say, as a step that
timed out before its pid line does (d37a342), that the command may still run, where, and how
to find it.

The host is real: the step's shell waits in a BASH_ENV file until the test releases it, after
writing a file that says it waits; Ctrl-C (the main thread's KeyboardInterrupt, as the
terminal's SIGINT gives it) comes once that file exists: the pid line cannot have come."""

from __future__ import annotations

import _thread
import json
import threading
import time
from pathlib import Path
from typing import Callable

from spec_debug.playbook import load_playbook
from spec_debug.runner.engine import HostTarget, Run, RunOptions
from spec_debug.runner.reporter import Reporter
from spec_debug.runner.ssh import SSHTransport
from spec_debug.store import RunStore
from tests.ssh.faults import rc_holding_shell
from tests.sshd_fixture import ClientSetup, SshServer


def test_ctrl_c_before_the_pid_line_says_the_command_may_still_run(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    set_env, release, waiting = rc_holding_shell(tmp_path, "vllm.entrypoints")
    server = sshd_factory("ctrlcpid", set_env=set_env)
    client.trust(server)
    client.alias("gpu12", server, ConnectTimeout=5)
    playbook = tmp_path / "serve.yaml"
    playbook.write_text(
        "name: serve\nsteps:\n"
        "  - id: serve\n    run: python3 -m vllm.entrypoints.openai.api_server --port 8000\n    timeout: 30\n"
    )

    def ctrl_c() -> None:
        deadline = time.monotonic() + 60  # a login on a loaded machine; never reached unless broken
        while time.monotonic() < deadline:
            if waiting.exists():
                _thread.interrupt_main()
                return
            time.sleep(0.02)

    store = RunStore.create(tmp_path / "runs", "serve")
    target = HostTarget(name="gpu12", connect=lambda: SSHTransport.connect("gpu12", client.options()), transport="ssh")
    threading.Thread(target=ctrl_c, daemon=True).start()
    try:
        Run(load_playbook(playbook), [target], store, {}, RunOptions(reporter=Reporter())).execute()
    finally:
        release.touch()
    assert waiting.exists(), "the step's shell never reached its rc file"
    saved = json.loads((store.run_dir / "run.json").read_text())
    [serve] = saved["steps"]
    message = serve["message"]
    assert message.startswith("interrupted: "), message
    assert "not killed: the step's shell had not reported its pid" in message, message  # was "interrupted: ..." alone
    assert "may still be running on gpu12" in message, message
    assert "ps -ww -eo pid,etime,args | grep -e '[p]ython3 -m vllm[.]entrypoints" in message, message
