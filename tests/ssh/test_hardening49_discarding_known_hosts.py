"""`UserKnownHostsFile /dev/null` for a host without `StrictHostKeyChecking no` (half of the
pair lab configs and Ansible docs copy together): every run meets the host key as new. The hint
said "rerun with --accept-new to add it to /dev/null, or run `ssh ...` once", and whoever
followed it met the same refusal on the next run. It names the line that keeps nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientSetup, SshServer


def test_a_known_hosts_file_that_keeps_nothing_is_named_in_the_hint(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    client.alias("gpu01", sshd, UserKnownHostsFile="/dev/null")
    done, record = run_tiny(cli, tmp_path, "first", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    hint = record["hosts"][0]["hint"]
    assert "remove `UserKnownHostsFile /dev/null` for this host" in hint, hint
    assert "add it to /dev/null" not in hint and "once" not in hint, hint
