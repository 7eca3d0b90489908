"""A fetch from a host whose sshd froze mid-copy says the host stopped answering.

sshd hung (a host swapping itself to death, sshd stuck on a dead NFS mount; here every process
serving the connection is stopped with SIGSTOP) while a large file copies, `ServerAliveInterval 1`
and `ServerAliveCountMax 2`. The host's kernel still acknowledges, but once sshd's buffers fill its
receive window stays closed, and TCP_USER_TIMEOUT (ssh_tcp: 1 s x (2 + 1)) ends the connection
with ETIMEDOUT. paramiko took that for its own read timeout (socket.timeout is TimeoutError since
Python 3.10) and the next send failed with EPIPE: the step said "the host rebooted, sshd restarted
or the network dropped", sending the reader after a reboot that never happened.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from tests.ssh.faults import freeze
from tests.ssh.test_fleet_faults import by_id, load_run
from tests.sshd_fixture import ClientSetup, SshServer

HUNG = ("the host is hung or thrashing (sshd frozen, out of memory, a dead NFS mount), or the network "
        "to it went dark; raise ServerAliveCountMax if it is only very slow")


def test_a_fetch_cut_by_a_frozen_host_says_it_stopped_answering(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path, frozen: list[int]
) -> None:
    server = sshd_factory("h68frozen")
    client.trust(server)
    client.alias("gpu35", server, ServerAliveInterval=1, ServerAliveCountMax=2)
    dump = tmp_path / "core.dump"
    with open(dump, "wb") as handle:
        handle.truncate(8 * 1024**3)  # sparse: far longer to copy than the test waits
    playbook = tmp_path / "collect.yaml"
    playbook.write_text(f"name: collect\nsteps:\n  - id: dump\n    fetch: {{src: {dump}}}\n")
    out = tmp_path / "runs"
    process = subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "gpu35", "-F", str(client.config),
         "--batch", "--out", str(out), "--artifact-limit", "16G"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "300", "NO_COLOR": "1"},
    )
    try:
        deadline = time.monotonic() + 30
        while not any("core.dump" in p.name for p in out.glob("*/artifacts/gpu35/**/*")):
            assert time.monotonic() < deadline and process.poll() is None, "the copy never started"
            time.sleep(0.05)
        time.sleep(0.3)
        freeze(server, frozen)  # the host hangs in the middle of the copy
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait()
    said = stdout + stderr
    assert process.returncode == 3, said
    assert "Traceback" not in said, said
    record = load_run(out)[1]
    host = record["hosts"][0]
    error = host["error"]
    assert error.startswith(f"gpu35: SSH connection lost while copying {dump}: the server stopped answering ("), host
    # Whichever notices first: the keepalives (2 unanswered) or TCP giving up after 3 s.
    assert error.endswith(("(2 keepalives unanswered)", "(TCP gave up after 3 s: the host took in nothing we sent)")), host
    assert host["hint"] == HUNG, host
    assert by_id(record, "gpu35")["dump"]["message"] == error
    assert f"host gpu35 error: {error}\n  hint: {HUNG}\n" in said, said
