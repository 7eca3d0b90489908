"""A host lost while a step timed out was recorded as a timeout whose processes were killed
(stop 29's CI: test_a_host_lost_after_the_timeout_keeps_left_running_in_the_errored_step).
paramiko's transport thread, once the connection ends, closes every channel (Channel._unlink)
and only then clears `active`: a step that saw its channel closed in between found the
transport active, sent no kill ("no pid") and returned a plain timeout. The window is opened
wide here (the transport thread pauses after closing each channel) so that the order is the
one a loaded machine gave now and then. Real sshd, real drop."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable

import paramiko
import pytest

from spec_debug.runner.ssh import SSHTransport
from tests.ssh.faults import rc_holding_shell
from tests.ssh.test_hardening28_ssh_left_running_record import _run
from tests.sshd_fixture import ClientSetup, SshServer


def test_a_host_lost_while_paramiko_closes_the_channels_is_recorded_lost(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_env, release, _ = rc_holding_shell(tmp_path, "sglang.launch_server")
    server = sshd_factory("leftwindow", set_env=set_env)
    client.trust(server)
    client.alias("gpu35", server, ConnectTimeout=30)
    playbook = tmp_path / "serve.yaml"
    playbook.write_text(
        "name: serve\nsteps:\n  - id: serve\n    run: python3 -m sglang.launch_server --port 30000\n    timeout: 0.2\n"
    )
    await_pid = SSHTransport._await_pid

    def host_goes_down(self: SSHTransport, *args: Any, **kwargs: Any) -> None:
        if kwargs.get("within_s") is None:  # after the timeout, as the step waits for its pid line
            server.stop()
        await_pid(self, *args, **kwargs)

    unlink = paramiko.Channel._unlink

    def unlink_then_pause(channel: paramiko.Channel) -> None:
        unlink(channel)
        time.sleep(1.0)  # the transport thread, between the channels' close and `active = False`

    monkeypatch.setattr(SSHTransport, "_await_pid", host_goes_down)
    monkeypatch.setattr(paramiko.Channel, "_unlink", unlink_then_pause)
    try:
        store = _run(playbook, "gpu35", client, tmp_path)
    finally:
        release.touch()
    [serve] = json.loads((store.run_dir / "run.json").read_text())["steps"]
    assert serve["status"] == "timeout" and "before its processes could be killed" in serve["message"], serve  # hardening70
    assert serve["left_running"]["host"] == "gpu35", serve
