"""A bastion's `ssh -W` ProxyCommand that the bastion refuses says why, not only "stdio forwarding failed".

ssh(1) reports a `-W` channel the bastion would not open on two lines: channels.c's "channel 0:
open failed: administratively prohibited: open failed" (or "connect failed: Connection
refused"), then ssh.c's "stdio forwarding failed" (openssh-portable: ssh_stdio_confirm), and
exits 255. The host's error quoted the last line alone ("exited with code 255: stdio
forwarding failed") with "run the ProxyCommand by hand": the reason was dropped. Now the
reason line is quoted with it, and a bastion that refuses forwarding gets the same hint as a
ProxyJump hop that does (AllowTcpForwarding, PermitOpen, a `restrict` key).

Real sshd as the bastion (forwarding off by a Match block, as hardening guides write it), real
ssh(1) as the ProxyCommand, run through the CLI: the run record keeps the host's error.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.test_fleet_faults import load_run
from tests.sshd_fixture import ClientSetup, SshServer

pytestmark = pytest.mark.skipif(shutil.which("ssh") is None, reason="needs OpenSSH's ssh(1) for the ProxyCommand")

PLAYBOOK = "name: look\nsteps:\n  - id: gpus\n    run: echo GPU0 H100\n"


def _run(cli: Callable[..., Any], client: ClientSetup, tmp_path: Path) -> tuple[Any, dict[str, Any]]:
    playbook = tmp_path / "look.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu", "--host", "target", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert out.exists(), result.stdout + result.stderr
    _, record = load_run(out)
    return result, {host["name"]: host for host in record["hosts"]}


def test_a_bastion_that_refuses_forwarding_is_named_with_its_fix(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    bastion = sshd_factory("bastion", extra_config="Match all\n  AllowTcpForwarding no\n")
    client.trust(bastion)
    client.trust(sshd)
    client.alias("bastion", bastion)
    client.alias("gpu", sshd, ProxyCommand=f"ssh -F {client.config} -W %h:%p bastion")
    result, hosts = _run(cli, client, tmp_path)
    assert result.code == 3 and "Traceback" not in result.stderr, result.stderr
    assert hosts["target"]["status"] == "passed"
    error = hosts["gpu"]["error"]
    assert error.endswith(
        "exited with code 255: channel 0: open failed: administratively prohibited: open failed (stdio forwarding failed)"
    ), error
    assert "AllowTcpForwarding no" in hosts["gpu"]["hint"] and "restrict" in hosts["gpu"]["hint"]


def test_a_target_the_bastion_cannot_reach_says_connection_refused(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    bastion = sshd_factory("bastion")
    client.trust(bastion)
    client.alias("bastion", bastion)
    client.alias("gpu", sshd, Port=1, ProxyCommand=f"ssh -F {client.config} -W %h:%p bastion")
    result, hosts = _run(cli, client, tmp_path)
    assert result.code == 3 and "Traceback" not in result.stderr, result.stderr
    assert hosts["gpu"]["error"].endswith("channel 0: open failed: connect failed: Connection refused (stdio forwarding failed)")
    assert "AllowTcpForwarding" not in hosts["gpu"]["hint"]
