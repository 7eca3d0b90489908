"""A login whose PATH has no /bin: the classic `export PATH=/opt/miniconda3/bin` (instead of
`...:$PATH`) in the file $BASH_ENV names, or in ~/.bashrc, ~/.zshenv, ~/.ssh/environment.
The step's own commands with full paths still run; the kill of a timed-out step ran its
script as `sh -c ...` through that login shell, which could not find `sh` (exit 127, nothing
printed): the run said "process tree killed" and the step's processes lived on. The kill
now names /bin/sh, as the shell fallback of the exec request already does (VIA_SH)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

from spec_debug.runner.ssh import SSHTransport
from tests.ssh.test_transport import run, sentinel
from tests.sshd_fixture import ClientSetup, SshServer


def sleeping(marker: str) -> list[int]:
    """pids of this machine's `sleep MARKER` processes (the sshd is on this machine)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(") ", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if argv[:2] == [b"/bin/sleep", marker.encode()] and state != "Z":
            found.append(int(entry))
    return found


def test_a_timed_out_step_is_killed_where_the_login_path_lacks_bin(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    rc = tmp_path / "bash_env"
    rc.write_text("export PATH=/opt/miniconda3/bin\n")
    server = sshd_factory("clobbered", set_env=f"BASH_ENV={rc}")
    client.trust(server)
    client.alias("gpu", server)
    marker = sentinel()
    try:
        with SSHTransport.connect("gpu", client.options()) as transport:
            outcome, _, _ = run(transport, f"/bin/sleep {marker} & /bin/sleep {marker}; wait", timeout_s=1)
            assert outcome.timed_out
            assert sleeping(marker) == [], "the timed-out step's processes outlived its kill"
    finally:
        for pid in sleeping(marker):
            os.kill(pid, 9)
