"""known_hosts trusts a host CA for `gpu01-key` (the HostKeyAlias of `Host gpu01`), and the
host, not yet given its certificate, offers its plain key. The hint said "add it yourself:
`ssh-keyscan gpu01-key`": the alias resolves to nothing, and ssh-keyscan would only print the
key under the name it scanned (never the alias), through no ProxyJump, filing nothing. Following
the hint literally must file the key where the next run looks."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h49_helpers import run_hinted_ssh_answering_yes, run_tiny
from tests.sshd_fixture import ClientSetup, SshServer, keygen


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH client not installed")
def test_following_the_hint_for_a_host_without_its_certificate_files_its_key_under_the_alias(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    ca = keygen(tmp_path / "host_ca")
    client.known_hosts.write_text(f"@cert-authority gpu01-key {Path(f'{ca}.pub').read_text()}")
    client.alias("gpu01", sshd, HostKeyAlias="gpu01-key", StrictHostKeyChecking="yes")
    done, record = run_tiny(cli, tmp_path, "first", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    assert "presented no host certificate" in record["hosts"][0]["error"], record["hosts"][0]["error"]
    run_hinted_ssh_answering_yes(done.stderr, client.config, r"\(or run `(ssh [^`]+)` once and answer yes\)")
    assert "\ngpu01-key ssh-ed25519 " in client.known_hosts.read_text()
    done, record = run_tiny(cli, tmp_path, "second", "--host", "gpu01")
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr
