"""A known_hosts line with a NUL byte after the key (a file an editor or a crashed write left
so). ssh(1) reads each line up to its first NUL and connects with StrictHostKeyChecking yes;
spec-debug skipped the line (its key field was not base64) and refused the host as unknown."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from spec_debug.runner.ssh import SSHTransport
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientSetup, SshServer


def test_a_line_cut_by_a_nul_still_names_the_hosts_key(client: ClientSetup, sshd: SshServer) -> None:
    client.known_hosts.write_bytes(sshd.known_hosts_line.rstrip("\n").encode() + b"\x00 garbage after\n")
    client.alias("nul", sshd, StrictHostKeyChecking="yes", GlobalKnownHostsFile="/dev/null")
    if shutil.which("ssh"):  # what ssh(1) does with the same file
        said = subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", "nul", "echo ok"],
                              capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=10)
        assert said.stdout == "ok\n", said.stderr
    with SSHTransport.connect("nul", client.options()) as transport:
        outcome, out, _ = run(transport, "echo ok")
    assert (outcome.exit_code, out.text()) == (0, "ok\n")


def test_what_follows_the_nul_is_no_line_of_its_own(sshd: SshServer) -> None:
    """After the NUL a form feed (or \\x0b, \\x85, \\u2028: str.splitlines' line ends) began a
    line ssh(1) never reads: the host named there was trusted with the key that followed."""
    from spec_debug.runner.ssh_hostkeys import parse_known_hosts

    line = sshd.known_hosts_line.rstrip("\n")
    other = line.replace(line.split()[0], "gpu02", 1)
    entries = parse_known_hosts(f"{line}\x00\x0c{other}\n# a comment\u2028with a line separator\n{line}\n")
    assert [(entry.patterns, entry.line) for entry in entries] == [(line.split()[0], 1), (line.split()[0], 3)]
