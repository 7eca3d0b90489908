"""A pasted ssh command line given to --host (`--host "ssh -p 2222 bob@gpu01"`) is refused with
the host written as USER@HOST:PORT. hosts.py read the line with a smaller copy of the analyzer's
reader that kept the last -p (`-p 1 -p 2` was :2), skipped `-o Port=22`, kept alice@ over an
earlier `-l bob`, and skipped -vp2222; ssh(1) takes the first value of each (ssh.c: -p and -l set
only while unset). Each hint is checked against what `ssh -G` on this machine says it would do."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.hosts import resolve_hosts
from spec_debug.runner.ssh_target import parse_destination

LINES = [
    "ssh -p 1 -p 2 gpu01",
    "ssh -o Port=22 -p 2222 gpu01",
    "ssh -l bob alice@gpu01",
    "ssh alice@gpu01 -l bob",
    "ssh -vp2222 gpu01",
    "ssh -vl bob gpu01",
    "ssh -o User=carol -l bob gpu01",
    "ssh -p 9 ssh://al@gpu01:7",
]


def ssh_says(line: str) -> tuple[str, str, int]:
    """user, hostname and port from `ssh -G` (no config file read)."""
    shown = subprocess.run(["ssh", "-F", "/dev/null", "-G", *line.split()[1:]], capture_output=True,
                           text=True, check=True).stdout
    said = dict(row.split(" ", 1) for row in shown.splitlines() if " " in row)
    return said["user"], said["hostname"], int(said["port"])


def hint_host(line: str) -> str:
    with pytest.raises(UsageError) as raised:
        resolve_hosts([line], [], None, None)
    hint = raised.value.hint
    assert hint.startswith("write --host "), hint
    return hint[len("write --host "):].split(" ", 1)[0]


@pytest.mark.skipif(shutil.which("ssh") is None, reason="no ssh client")
@pytest.mark.parametrize("line", LINES)
def test_the_host_to_write_is_where_ssh_would_go(line):
    written = parse_destination(hint_host(line))
    me = pwd.getpwuid(os.getuid()).pw_name
    assert (written.user or me, written.host, written.port or 22) == ssh_says(line), line
