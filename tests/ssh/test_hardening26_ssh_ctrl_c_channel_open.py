"""Ctrl-C while a step's channel open waits on an sshd that took the login and then stopped
answering (a thrashing host: the connection's sshd process frozen, its kernel still
acknowledging packets). paramiko waits for the CHANNEL_OPEN answer for the whole timeout
(paramiko/transport.py, open_channel: ConnectTimeout here, 30 s); the run must stop at once on
Ctrl-C, record the run and the host as aborted, and name where the host stood.

The host is real: the first step writes its sshd's pid, and the second step's channel open
finds that process stopped (SIGSTOP). Ctrl-C is the main thread's KeyboardInterrupt, as the
terminal's SIGINT gives it (_thread.interrupt_main), during Run.execute()."""

from __future__ import annotations

import _thread
import json
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any, Callable

import pytest

import spec_debug.runner.ssh as ssh_module
from spec_debug.playbook import load_playbook
from spec_debug.runner.engine import HostTarget, Run, RunOptions
from spec_debug.runner.reporter import Reporter
from spec_debug.runner.ssh import SSHTransport
from spec_debug.store import RunStore
from tests.ssh.test_hardening22_ssh_frozen_exec import WRITE_SSHD_PID
from tests.sshd_fixture import ClientSetup, SshServer


def test_ctrl_c_during_a_channel_open_that_is_never_answered(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    frozen: list[int],
) -> None:
    server = sshd_factory("frozen-open")
    client.trust(server)
    client.alias("gpu", server, ConnectTimeout=30)
    pid_file = tmp_path / "sshd.pid"
    playbook = tmp_path / "two.yaml"
    playbook.write_text(f"name: two\nsteps:\n  - id: first\n    run: {json.dumps(WRITE_SSHD_PID.format(file=pid_file))}\n"
                        "  - id: second\n    run: echo second\n")
    opening = threading.Event()
    original = ssh_module.open_channel_unless

    def frozen_second(*args: Any, **kwargs: Any) -> Any:
        if pid_file.exists() and not frozen:  # the second step's open: its sshd stops first
            pid = int(pid_file.read_text())
            os.kill(pid, signal.SIGSTOP)
            frozen.append(pid)
            opening.set()
        return original(*args, **kwargs)

    monkeypatch.setattr(ssh_module, "open_channel_unless", frozen_second)

    interrupted_at: list[float] = []

    def ctrl_c() -> None:
        if opening.wait(60):
            time.sleep(0.3)  # likely under way by now (its answer never comes); sooner is Ctrl-C too
            interrupted_at.append(time.monotonic())
            _thread.interrupt_main()

    store = RunStore.create(tmp_path / "runs", "two")
    target = HostTarget(name="gpu", connect=lambda: SSHTransport.connect("gpu", client.options()), transport="ssh")
    threading.Thread(target=ctrl_c, daemon=True).start()
    record = Run(load_playbook(playbook), [target], store, {}, RunOptions(reporter=Reporter())).execute()
    ended = time.monotonic()
    assert opening.is_set() and interrupted_at, "the second step never opened its channel"
    # Counted from the Ctrl-C, not from the run's start (the login, the first step and the
    # freeze, slow on a loaded machine, counted too): the open's own bound, ConnectTimeout
    # 30 s, is twice the limit; the Ctrl-C's own path is well under a second.
    took = ended - interrupted_at[0]
    assert took < 15, f"Ctrl-C waited {took:.1f} s for the frozen sshd's channel open"
    saved = json.loads((store.run_dir / "run.json").read_text())
    assert saved["status"] == record.status == "aborted", saved["status"]
    assert [h["status"] for h in saved["hosts"]] == ["aborted"]
    steps = {s["id"]: s for s in saved["steps"]}
    assert steps["first"]["status"] == "passed"
    assert "interrupted" in (steps.get("second", {}).get("message") or saved["abort_reason"] or ""), saved
