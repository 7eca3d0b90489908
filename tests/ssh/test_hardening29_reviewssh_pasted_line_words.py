"""A pasted ssh line given to --host is read as the shell hands it to ssh, not as a host list:
split at its commas, `ssh -J jump1,jump2 alice@gpu01 -p 2200` was hinted as `--host jump2` (a jump
host) and `-o ProxyJump=a,b gpu01` the same; `-o "User bob"` kept its quote (`--host bob"`), and
`-o "Port=2202"` lost its port. Each hint is checked against `ssh -G` on this machine."""

from __future__ import annotations

import os
import pwd
import shlex
import shutil
import subprocess

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.hosts import resolve_hosts
from spec_debug.runner.ssh_target import parse_destination

LINES = [
    "ssh -J jump1,jump2 alice@gpu01 -p 2200",
    "ssh -o ProxyJump=jump1,jump2 gpu01",
    'ssh -o "User bob" gpu01',
    "ssh -o 'Port 2201' gpu01",
    'ssh -o "Port=2202" gpu01',
]


def ssh_says(line: str) -> tuple[str, str, int]:
    shown = subprocess.run(["ssh", "-F", "/dev/null", "-G", *shlex.split(line)[1:]], capture_output=True,
                           text=True, check=True).stdout
    said = dict(row.split(" ", 1) for row in shown.splitlines() if " " in row)
    return said["user"], said["hostname"], int(said["port"])


@pytest.mark.skipif(shutil.which("ssh") is None, reason="no ssh client")
@pytest.mark.parametrize("line", LINES)
def test_the_hint_reads_the_line_as_shell_words(line: str) -> None:
    with pytest.raises(UsageError) as raised:
        resolve_hosts([line], [], None, None)
    hint = raised.value.hint
    assert hint.startswith("write --host "), hint
    written = parse_destination(hint[len("write --host "):].split(" ", 1)[0])
    me = pwd.getpwuid(os.getuid()).pw_name
    assert (written.user or me, written.host, written.port or 22) == ssh_says(line), hint


def test_an_option_after_double_dash_is_no_host_to_write() -> None:
    with pytest.raises(UsageError) as raised:
        resolve_hosts(["ssh -- -p gpu01"], [], None, None)
    assert raised.value.hint.startswith("write the host as USER@HOST:PORT"), raised.value.hint
