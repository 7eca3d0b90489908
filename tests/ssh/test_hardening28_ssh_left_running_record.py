"""A step whose command may still run on its host says so in a typed field of its record.

A step that timed out, or was interrupted, before its shell reported the pid the kill needs was
killed by nothing (runner/ssh.py, _left_running). run.json said so only inside the step's
message and SD002's evidence, sentences a script watching a fleet had to parse to learn which
host still runs what. The step's record now has `left_running`: the host, the line to paste
there, the seconds waited. It is in run.json as the step finishes, on Ctrl-C as on a timeout,
and a record read back (report, a later run) keeps it.

The host is real: the step's shell waits in a BASH_ENV file until the test releases it, so its
pid line cannot come before the step is given up."""

from __future__ import annotations

import _thread
import json
import threading
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.playbook import load_playbook
from spec_debug.runner.engine import HostTarget, Run, RunOptions
from spec_debug.runner.reporter import Reporter
from spec_debug.runner.ssh import SSHTransport
from spec_debug.store import RunStore, load_record
from tests.ssh.faults import rc_holding_shell
from tests.sshd_fixture import ClientSetup, SshServer


def _run(playbook: Path, alias: str, client: ClientSetup, tmp_path: Path) -> RunStore:
    store = RunStore.create(tmp_path / "runs", "serve")
    target = HostTarget(name=alias, connect=lambda: SSHTransport.connect(alias, client.options()), transport="ssh")
    Run(load_playbook(playbook), [target], store, {}, RunOptions(reporter=Reporter())).execute()
    return store


def test_a_timed_out_step_left_running_is_a_field_of_its_record(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    set_env, release, _ = rc_holding_shell(tmp_path, "sglang.launch_server")
    server = sshd_factory("leftrec", set_env=set_env)
    client.trust(server)
    client.alias("gpu21", server, ConnectTimeout=3)  # 1 s bounded the login and each channel open too: tight under load
    playbook = tmp_path / "serve.yaml"
    playbook.write_text(
        "name: serve\nsteps:\n"
        "  - id: serve\n    run: python3 -m sglang.launch_server --port 30000\n    timeout: 0.2\n"
        "  - id: after\n    run: echo still here\n"
        # The connection drops under the next step (its sshd process killed): the record written
        # so far keeps the first step's field.
        "  - id: drop\n    run: kill -9 $PPID; sleep 5\n"
    )
    try:
        store = _run(playbook, "gpu21", client, tmp_path)
    finally:
        release.touch()
    saved = json.loads((store.run_dir / "run.json").read_text())
    serve, after, drop = saved["steps"]
    assert drop["status"] == "error" and saved["hosts"][0]["status"] == "error", (drop, saved["hosts"])
    assert serve["status"] == "timeout", serve
    left = serve["left_running"]  # was absent: only the message said it
    assert left["host"] == "gpu21", left
    assert left["check"] == "ps -ww -eo pid,etime,args | grep -e '[p]ython3 -m sglang[.]launch_server --port 30000'", left
    assert left["waited_s"] >= 3.0, left  # the timeout, then ConnectTimeout waiting for the pid line
    assert f"check there with `{left['check']}`" in serve["message"], serve["message"]
    assert after["status"] == "passed" and after["left_running"] is None, after
    # Read back (a report, a later run): the typed field stays.
    assert load_record(store.run_dir).steps[0].left_running.check == left["check"]  # type: ignore[union-attr]


def test_ctrl_c_before_the_pid_line_keeps_left_running_in_the_record(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    set_env, release, waiting = rc_holding_shell(tmp_path, "vllm.entrypoints")
    server = sshd_factory("leftctrlc", set_env=set_env)
    client.trust(server)
    client.alias("gpu22", server, ConnectTimeout=5)
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

    threading.Thread(target=ctrl_c, daemon=True).start()
    try:
        store = _run(playbook, "gpu22", client, tmp_path)
    finally:
        release.touch()
    assert waiting.exists(), "the step's shell never reached its rc file"
    saved = json.loads((store.run_dir / "run.json").read_text())
    [serve] = saved["steps"]
    assert serve["message"].startswith("interrupted: "), serve["message"]
    left = serve["left_running"]
    assert left["host"] == "gpu22", left
    assert left["check"].startswith("ps -ww -eo pid,etime,args | grep -e '[p]ython3 -m vllm[.]entrypoints"), left


def test_a_host_lost_after_the_timeout_keeps_left_running_in_the_errored_step(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The step timed out before its pid line, and the connection dropped while spec-debug
    waited for it: no kill could be sent, and the host, once back, may run the command on
    (a server started with nohup outlives the session). The errored step's record says where
    to look, as a step whose kill was merely unsent does."""
    set_env, release, _ = rc_holding_shell(tmp_path, "sglang.launch_server")
    server = sshd_factory("leftlost", set_env=set_env)
    client.trust(server)
    # ConnectTimeout bounds the wait for the pid line the host goes down in: far above the time
    # a stopped sshd takes to end the connection, even on a loaded machine.
    client.alias("gpu23", server, ConnectTimeout=30)
    playbook = tmp_path / "serve.yaml"
    playbook.write_text(
        "name: serve\nsteps:\n  - id: serve\n    run: python3 -m sglang.launch_server --port 30000\n    timeout: 0.2\n"
    )
    # The host goes down once the step has timed out and its wait for the pid line begins (was:
    # 0.5 s after the shell reached its rc file, which a loaded machine could pass before the
    # timeout was seen, or the step's timeout and the wait both end inside).
    await_pid = SSHTransport._await_pid

    def host_goes_down(self: SSHTransport, *args: Any, **kwargs: Any) -> None:
        if kwargs.get("within_s") is None:  # after a timeout (a Ctrl-C passes its own bound)
            server.stop()
        await_pid(self, *args, **kwargs)

    monkeypatch.setattr(SSHTransport, "_await_pid", host_goes_down)
    try:
        store = _run(playbook, "gpu23", client, tmp_path)
    finally:
        release.touch()
    saved = json.loads((store.run_dir / "run.json").read_text())
    [serve] = saved["steps"]
    assert serve["status"] == "timeout" and "before its processes could be killed" in serve["message"], serve  # hardening70
    left = serve["left_running"]  # was null: only "could not be killed" in words
    assert left["host"] == "gpu23", left
    assert left["check"] == "ps -ww -eo pid,etime,args | grep -e '[p]ython3 -m sglang[.]launch_server --port 30000'", left
