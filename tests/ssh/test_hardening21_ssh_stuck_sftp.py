"""A host whose sftp-server starts and never answers (a hung NFS home under it, a ForceCommand
that reads its input): copies fail with one clear line, within the fetch step's timeout, and
only the first copy waits for it.

Before, a fetch step with `timeout: 2` waited the whole SFTP start timeout (ConnectTimeout,
15 s by default) before it said it had timed out after 2 s: the deadline closed the copy's
channel, and the channel still starting was none. And each later copy (every fetch and probe
step of the host) waited those 15 s again. The server is a real sshd whose ForceCommand
answers the sftp subsystem by reading its input and never writing (tests/ssh/test_fleet_faults.py,
FreshHost "silent").
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, fresh_server, load_run
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]

PLAYBOOK = """
name: notes
steps:
  - id: write
    run: echo hi > note.txt
  - id: grab
{timeout}
    fetch:
      src: note.txt
      dest: notes
  - id: grab_again
    fetch:
      src: note.txt
      dest: again
  - id: info
    probe: host_info
  - id: after
    run: echo after
"""


def run_notes(cli: Callable[..., Any], client: ClientSetup, tmp_path: Path, host: str, timeout: str = "", *, only: tuple[str, ...] = ()) -> tuple[float, dict[str, Any]]:
    """Run PLAYBOOK (with `only`, those steps of it) on host: how long it took, its steps by id."""
    text = PLAYBOOK.format(timeout=timeout)
    if only:
        head, *blocks = text.split("  - id: ")
        text = head + "".join("  - id: " + block for block in blocks if block.split()[0] in only)
    playbook = tmp_path / "notes.yaml"
    playbook.write_text(text)
    out = tmp_path / "runs"
    began = time.monotonic()
    result = cli("run", str(playbook), "--host", host, "-F", str(client.config), "--batch", "--out", str(out), timeout=120)
    took = time.monotonic() - began
    assert_clean_cli(result)
    _, record = load_run(out)
    return took, by_id(record, host)


def test_a_fetch_step_timeout_ends_the_wait_for_a_silent_sftp_server(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    fresh_server(client, sshd_factory, tmp_path, "stuck", sftp="silent", alias={"ConnectTimeout": 20})
    _, steps = run_notes(cli, client, tmp_path, "stuck", timeout="    timeout: 1", only=("write", "grab", "after"))
    grab = steps["grab"]
    assert grab["status"] == "timeout" and grab["message"].startswith("timed out after 1 s"), grab["message"]
    # About 1 s; not the 20 s SFTP start timeout (ConnectTimeout). It was 2.5 s against 4 s.
    assert grab["duration_s"] < 10, grab["duration_s"]
    assert steps["after"]["stdout"] == "after\n"


def test_only_the_first_copy_waits_for_a_silent_sftp_server(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    fresh_server(client, sshd_factory, tmp_path, "stuck", sftp="silent", alias={"ConnectTimeout": 10})
    _, steps = run_notes(cli, client, tmp_path, "stuck")
    for step in ("grab", "grab_again", "info"):
        assert steps[step]["status"] == "error", steps[step]
        assert "no working SFTP (no answer within 10 s): its sftp-server started and never answered" in steps[step]["message"]
        assert "\n" not in steps[step]["message"]
    assert steps["grab"]["duration_s"] >= 10
    # The later copies fail at once (hundredths of a second), not after another 10 s wait. The
    # wait was 1 s and this bound 0.5 s, then 5 s and 2.5 s: a loaded machine's stall of half a
    # second crossed the first; the bound is now 5 s.
    assert steps["grab_again"]["duration_s"] < 5 and steps["info"]["duration_s"] < 5, (steps["grab_again"], steps["info"])
    assert steps["after"]["stdout"] == "after\n"
