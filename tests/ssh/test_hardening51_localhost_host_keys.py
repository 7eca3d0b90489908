"""`NoHostAuthenticationForLocalhost yes`, set for a tunnel's local end (`ssh -L
2222:gpu01:22 bastion`, then `Host gpu01-tunnel` / `HostName localhost` / `Port 2222`): ssh(1)
takes any host key from a loopback address it connected to, so the host key of whatever the
tunnel leads to today is neither asked about nor a HOST KEY CHANGED (openssh-portable:
sshconnect.c, check_host_key). spec-debug ignored the keyword and refused the host. A
HostKeyAlias, or a connection through a ProxyJump, keeps the check, as in ssh(1)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = "name: tiny\ndescription: t\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: 'true'\n"


def _run(cli: Callable[..., Any], tmp_path: Path, name: str) -> tuple[Any, dict[str, Any]]:
    (tmp_path / name).mkdir()
    playbook = tmp_path / name / "tiny.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / name / "runs"
    done = cli("run", str(playbook), "--host", "gpu01", "--batch", "--out", str(out))
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    return done, json.loads((run_dir / "run.json").read_text())["hosts"][0]


def _ssh_logs_in(client: ClientSetup) -> bool:
    if shutil.which("ssh") is None:
        pytest.skip("no ssh(1) to compare with")
    done = subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", "gpu01", "true"],
                          capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL, check=False)
    return done.returncode == 0


def test_an_unknown_or_changed_key_of_a_loopback_host_is_taken_and_nothing_is_filed(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    for name, known in (("unknown", ""), ("changed", f"{sshd.known_hosts_name} {client.key.public}\n")):
        client.known_hosts.write_text(known)
        client.alias("gpu01", sshd, StrictHostKeyChecking="yes", NoHostAuthenticationForLocalhost="yes")
        done, host = _run(cli, tmp_path, name)
        assert done.code == 0 and host["status"] == "passed", (name, done.stdout + done.stderr)
        assert client.known_hosts.read_text() == known
        assert _ssh_logs_in(client)


def test_a_host_key_alias_keeps_the_check(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    client.known_hosts.write_text("")
    client.alias("gpu01", sshd, StrictHostKeyChecking="yes", NoHostAuthenticationForLocalhost="yes",
                 HostKeyAlias="gpu01-key")
    done, host = _run(cli, tmp_path, "alias")
    assert done.code == 3 and "host key for gpu01-key is not in known_hosts" in host["error"], host
    assert not _ssh_logs_in(client)


def test_a_host_reached_through_a_jump_host_keeps_the_check(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, sshd_factory: Callable[..., SshServer],
        tmp_path: Path) -> None:
    bastion = sshd_factory("bastion")
    client.known_hosts.write_text(bastion.known_hosts_line)
    client.alias("bastion", bastion)
    client.alias("gpu01", sshd, StrictHostKeyChecking="yes", NoHostAuthenticationForLocalhost="yes",
                 ProxyJump="bastion")
    done, host = _run(cli, tmp_path, "jump")
    assert done.code == 3 and "is not in known_hosts" in host["error"], host
    assert not _ssh_logs_in(client)
