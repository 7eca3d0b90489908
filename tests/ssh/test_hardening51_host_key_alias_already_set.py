"""A host whose config already sets a HostKeyAlias (`Host gpu01` / `HostKeyAlias gpu01-key`)
while its key is filed under `gpu01` (`ssh gpu01` once, before the alias was added): the
refusal said "set `HostKeyAlias gpu01` under `Host gpu01` in your ssh config". ssh(1) takes
the first value met for a keyword (ssh_config(5): "the first obtained value will be used"),
so the block added as told changed nothing and the next run failed the same way. The hint
now says to change the HostKeyAlias the host has; done so, the next run passes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientSetup, SshServer


def test_the_hint_changes_the_host_key_alias_the_host_already_has(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    # Port 22 as on a real host (a key filed for another port is `[name]:port`, which no
    # HostKeyAlias matches): the tunnel, an `ssh -W` through the test's sshd, carries it there.
    with open(client.known_hosts, "a") as known_hosts:
        known_hosts.write(sshd.known_hosts_line.replace(sshd.known_hosts_name, "gpu01", 1))
    client.alias("gpu01", sshd, HostName="10.20.0.5", Port=22, HostKeyAlias="gpu01-key", StrictHostKeyChecking="yes",
                 ProxyCommand=f"ssh -F {client.config} -W 127.0.0.1:{sshd.port} target")
    done, record = run_tiny(cli, tmp_path, "first", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    assert "filed under 'gpu01'" in record["hosts"][0]["error"], record["hosts"][0]["error"]
    assert "under `Host gpu01`" not in done.stderr, done.stderr
    hint = re.search(r"change its `HostKeyAlias gpu01-key` to `HostKeyAlias (\S+)`", done.stderr)
    assert hint is not None, done.stderr
    client.config.write_text(client.config.read_text().replace("HostKeyAlias gpu01-key", f"HostKeyAlias {hint.group(1)}"))
    done, record = run_tiny(cli, tmp_path, "second", "--host", "gpu01")
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr
