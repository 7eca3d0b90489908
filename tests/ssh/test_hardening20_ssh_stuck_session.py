"""After a fetch given up on a file that hangs, a host with `MaxSessions 1` goes on over a new connection.

A fetch with a `timeout` of a file whose open() never returns (a log on a dead NFS or FUSE mount;
here a FIFO nobody writes) is given up at the deadline by closing its SFTP channel. The host's SFTP
server stays blocked in open(), and sshd counts its session until it ends (closing the channel does
not end it; a subsystem cannot be signalled: openssh-portable session.c, session_signal_req). On a
host with `MaxSessions 1` (hardening guides set it) every later step was then refused a channel:
"the server refused a new session channel", and the host's remaining steps were lost. MaxSessions
counts the sessions of one connection (sshd_config(5)): the steps now go on over a new one.

The host is real: sshd with MaxSessions 1 and its internal SFTP server, and a FIFO with no writer.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.sshd_fixture import ClientSetup, SshServer


@pytest.fixture
def hung_log(tmp_path: Path) -> Iterator[Path]:
    """A file whose open() on the host never returns, like one on a dead NFS server."""
    fifo = tmp_path / "host" / "sglang.log"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    yield fifo
    try:  # end the host's SFTP server still blocked in open(), so it does not outlive the test
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:
        pass


def test_steps_after_a_fetch_stuck_on_a_hung_file_run_on_a_one_session_host(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], hung_log: Path, tmp_path: Path
) -> None:
    server = sshd_factory("one", extra_config="MaxSessions 1\n")
    client.trust(server)
    client.alias("gpu15", server)
    playbook = tmp_path / "grab.yaml"
    playbook.write_text(
        f"""
name: grab
steps:
  - id: server_log
    timeout: 2
    fetch: {{src: "{hung_log}", dest: logs}}
  - id: gpus
    run: |
      echo 'GPU 0: NVIDIA H100 80GB HBM3'
  - id: hostname
    fetch: {{src: /etc/hostname, dest: etc}}
"""
    )
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu15", "-F", str(client.config), "--batch", "--out", str(out), timeout=90)
    assert_clean_cli(result)
    run_dir, record = load_run(out)
    steps = by_id(record, "gpu15")
    assert steps["server_log"]["status"] == "timeout", steps["server_log"]
    assert steps["gpus"]["status"] == "passed", steps["gpus"]["message"]
    assert steps["gpus"]["stdout"] == "GPU 0: NVIDIA H100 80GB HBM3\n"
    assert steps["hostname"]["status"] == "passed", steps["hostname"]["message"]
    assert (run_dir / "artifacts" / "gpu15" / "etc" / "hostname").read_text() == Path("/etc/hostname").read_text()
