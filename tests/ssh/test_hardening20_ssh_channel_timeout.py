"""A step cut off by sshd's ChannelTimeout is named as such, and its processes do not run on.

sshd_config's ChannelTimeout (OpenSSH 9.2+; hardening guides set `ChannelTimeout session:*=15m`)
closes a session channel that carried no data for that long. A quiet step (a benchmark that
prints its numbers at the end, a wait for a server to come up) lost its channel mid-run, with
no exit status. The run said only "the server closed the command's channel without an exit
status", which names no cause, and the step's processes ran on on the host ("shell processes
... may continue to execute", sshd_config(5)): a benchmark still holding the GPUs that the next
run then measured beside. Now the message names the silence and ChannelTimeout, and the
step's process tree is killed as a timed-out step's is.

The host is real: sshd with `ChannelTimeout session:*=6`.
"""

from __future__ import annotations

import os
import re
import signal
import time
import uuid
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = """
name: quiet_bench
steps:
  - id: bench
    run: echo 'warming up'; exec -a spec-debug-quiet-bench-{tag} sleep 300
  - id: after
    run: echo still here
"""


def running(tag: str) -> list[int]:
    """Processes on the host (this machine) whose command line carries the tag."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if cmdline.read_bytes().startswith(f"spec-debug-quiet-bench-{tag}".encode()):
                found.append(int(cmdline.parent.name))
        except OSError:
            continue  # gone meanwhile
    return found


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass  # gone meanwhile


def test_a_step_cut_off_by_channel_timeout_says_so_and_its_processes_are_killed(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
    request: pytest.FixtureRequest,
) -> None:
    # The timeout holds for every session channel: the login check's, the kill's and the next
    # step's too, each quiet from its open to its first output. At 2 s a loaded machine's pause
    # there cut the next step off as well ("still here" never came).
    server = sshd_factory("quiet", extra_config="ChannelTimeout session:*=6\n")
    client.trust(server)
    client.alias("gpu09", server)
    tag = uuid.uuid4().hex[:12]  # this run's own: a test of the same name elsewhere has the same tmp_path name
    # With the fault the step's sleep of 300 s outlives its channel, orphaned (the fixture's stop
    # kills sshd's tree only): it must not outlive the test, pass or fail.
    request.addfinalizer(lambda: [_kill(pid) for pid in running(tag)])
    playbook = tmp_path / "quiet_bench.yaml"
    playbook.write_text(PLAYBOOK.format(tag=tag))
    out = tmp_path / "runs"
    started = time.monotonic()
    result = cli("run", str(playbook), "--host", "gpu09", "-F", str(client.config), "--batch", "--out", str(out), timeout=120)
    # About 8 s here; a step the channel's end did not end runs its sleep of 300 s (was 30 s, with
    # a 20 s bound: a loaded machine had only 16 s of slack on the good path).
    assert time.monotonic() - started < 60
    assert_clean_cli(result)
    _, record = load_run(out)
    bench = by_id(record, "gpu09")["bench"]
    assert bench["status"] == "error" and bench["stdout"] == "warming up\n"  # the record keeps what it printed
    # sshd counts the silence from its own last read of the step's output: about the 6 s set,
    # which the client measures from its own reading (a loaded machine's delays add to it).
    silence = re.search(r"closed the step's channel after about (\d+) s without output", bench["message"])
    assert silence and 1 <= int(silence.group(1)) < 20, bench["message"]
    assert "its processes on the host were killed" in bench["message"]
    assert "sshd_config's ChannelTimeout closes quiet sessions" in bench["message"]
    assert running(tag) == [], "the step's sleep outlived its channel"
    # Only the step's channel was closed: the connection runs the host's other steps (the
    # whole host used to end here, as if it had dropped, with an SD005).
    [host] = record["hosts"]
    assert host["status"] != "error" and not host.get("error"), host
    assert by_id(record, "gpu09")["after"]["stdout"] == "still here\n"
    [finding] = [f for f in record["findings"] if f["step"] == "bench"]
    assert finding["code"] == "SD003" and "ChannelTimeout session:*=15m" in finding["remediation"]
    assert not any(f["code"] == "SD005" for f in record["findings"])
    assert result.code == 0, result.code  # an SD003 warning, as for any step that could not run
