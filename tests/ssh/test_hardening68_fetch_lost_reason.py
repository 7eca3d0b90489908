"""A fetch step whose connection is lost says why, and what to do, as a `run:` step does.

A command cut by a host that went down said "gpu33: SSH connection lost during command" and
"hint: the host rebooted, sshd restarted or the network dropped; a remote process may still be
running". A fetch cut the same way (a core dump or a checkpoint copied off a dying host) said
only "SSH connection lost while copying X", with no hint on the console nor in run.json's host
record: the same fault, half the words.

The host is real: its sshd (listener and sessions) is killed (SIGKILL) while a large file copies.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from tests.ssh.test_fleet_faults import by_id, load_run
from tests.ssh.test_hardening68_fetch_lost_connection import run_until_host_down_in_copy
from tests.sshd_fixture import ClientSetup, SshServer

DOWN = "the host rebooted, sshd restarted or the network dropped; a remote process may still be running"


def test_a_fetch_cut_by_a_host_going_down_says_what_to_check(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    server = sshd_factory("h68down")
    client.trust(server)
    client.alias("gpu33", server)
    dump = tmp_path / "core.dump"
    with open(dump, "wb") as handle:
        handle.truncate(8 * 1024**3)  # sparse: far longer to copy than the test waits
    playbook = tmp_path / "collect.yaml"
    playbook.write_text(f"name: collect\nsteps:\n  - id: dump\n    fetch: {{src: {dump}}}\n")
    out = tmp_path / "runs"
    said, code = run_until_host_down_in_copy(playbook, "gpu33", client, server, out, "core.dump")
    assert code == 3, said
    assert "Traceback" not in said, said
    record = load_run(out)[1]
    error = f"gpu33: SSH connection lost while copying {dump}"
    host = record["hosts"][0]
    assert (host["status"], host["error"], host["hint"]) == ("error", error, DOWN), host
    assert by_id(record, "gpu33")["dump"]["message"] == error
    assert f"host gpu33 error: {error}\n  hint: {DOWN}\n" in said, said
