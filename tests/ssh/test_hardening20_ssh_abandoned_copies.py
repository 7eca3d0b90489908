"""A `cat` copy given up before its end (cut at the fetch limit, or at the step's timeout) ends on the host.

Where sshd offers no SFTP, a fetch is `cat FILE` on an exec channel. A copy stopped early (the
file was longer than the step's limit let it copy: a log still written, a FIFO; or the step's
timeout came) only closed its channel. Closing a channel does not stop the command under it,
and sshd keeps the session until the command exits (openssh-portable: session.c,
session_close_by_channel): a `cat` blocked reading a file that had stopped coming (a FIFO whose
writer stalled, a log on a hung mount) stayed on the host after the run, holding its session.
On a host with MaxSessions 1 every later step of the host then failed ("refused a new session
channel"). Now the copy's process group is signalled before the channel closes (the `signal`
channel request, which sshd answers with killpg: session.c, session_signal_req).

The host is real: sshd without an SFTP subsystem and MaxSessions 1, and a FIFO whose writer
wrote 300 bytes and then stalled, holding it open.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from tests.ssh.h8_helpers import SftpLineServer
from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.sshd_fixture import ClientKey, ClientSetup


@pytest.fixture
def stalled_fifo(tmp_path: Path) -> Iterator[tuple[Path, int]]:
    """A FIFO whose writer wrote 300 bytes, then stalled with it open (a server's log pipe)."""
    fifo = tmp_path / "host" / "server.log"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", 'exec 3>"$1"; printf "%0300d" 0 >&3; exec sleep 600 3>&3', "sh", str(fifo)])
    yield fifo, writer.pid
    writer.kill()
    writer.wait()


def readers_of(path: Path) -> list[int]:
    """Processes on this machine (the host) that hold `path` open."""
    found = []
    for fd_dir in Path("/proc").glob("[0-9]*/fd"):
        try:
            if any(os.readlink(fd) == str(path) for fd in fd_dir.iterdir()):
                found.append(int(fd_dir.parent.name))
        except OSError:
            continue  # gone meanwhile, or not ours to read
    return found


def readers_left(path: Path, keep: int) -> list[int]:
    """Readers other than `keep` (the writer), given 30 s to go (a killed cat is gone at once;
    one left running holds the FIFO, whose writer sleeps 600 s, for good)."""
    deadline = time.monotonic() + 30.0
    while True:
        left = [pid for pid in readers_of(path) if pid != keep]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


@pytest.fixture
def one_session_host(tmp_path: Path, client_key: ClientKey, client: ClientSetup) -> Iterator[str]:
    server = SftpLineServer(tmp_path / "sshd-one", [client_key], subsystem="", extra_config="MaxSessions 1\n").start()
    client.trust(server)
    client.alias("gpu06", server)
    yield "gpu06"
    server.stop()


@pytest.mark.parametrize("stop", ["limit", "timeout"])
def test_a_copy_given_up_early_ends_its_cat_and_the_next_steps_run(
    cli: Callable[..., Any], client: ClientSetup, one_session_host: str, stalled_fifo: tuple[Path, int], tmp_path: Path,
    stop: str,
) -> None:
    fifo, writer = stalled_fifo
    limit = "artifact_limit: 100" if stop == "limit" else "timeout: 2"
    playbook = tmp_path / "grab.yaml"
    playbook.write_text(
        f"""
name: grab
steps:
  - id: grab
    {limit}
    fetch: {{src: "{fifo}", dest: logs}}
  - id: after
    run: echo next step ran
"""
    )
    out = tmp_path / "runs"
    started = time.monotonic()
    result = cli("run", str(playbook), "--host", one_session_host, "-F", str(client.config), "--batch", "--out", str(out), timeout=90)
    took = time.monotonic() - started
    assert_clean_cli(result)
    _, record = load_run(out)
    steps = by_id(record, one_session_host)
    left = readers_left(fifo, writer)
    assert left == [], f"the host's cat outlived the copy: {[Path(f'/proc/{pid}/cmdline').read_bytes() for pid in left]}"
    if stop == "limit":
        assert steps["grab"]["facts"]["fetch_cut"][0]["bytes_kept"] == 100, steps["grab"]
    else:
        assert steps["grab"]["status"] == "timeout", steps["grab"]
    assert steps["after"]["status"] == "passed", steps["after"]["message"]
    assert steps["after"]["stdout"] == "next step ran\n"
    # A hang, not a pace (about 4 s here): which events happened is asserted above (no cat left,
    # the next step ran on the one-session host). The bound was 20 s.
    assert took < 60
