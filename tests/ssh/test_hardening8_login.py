"""Hosts that accept the login and then cannot give us a session: one line that names the
host's own cause, in the run record too, and the exit code of a host that could not be used."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import ConnectionLostError, RemoteShellError
from tests.sshd_fixture import ClientSetup

TINY = "name: tiny\ndescription: t\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: 'true'\n"


def test_a_chroot_sshd_cannot_enter_is_named_not_called_a_nologin_shell(client: ClientSetup, sshd_factory: Any, tmp_path: Path) -> None:
    """sshd refuses a ChrootDirectory writable by others (session.c, safely_chroot) and ends
    every session; the message sent the user looking for a nologin shell or a ForceCommand."""
    jail = tmp_path / "jail"
    jail.mkdir()
    jail.chmod(0o777)
    server = sshd_factory("chroot", extra_config=f"ChrootDirectory {jail}\n")
    client.trust(server)
    client.alias("chroot", server)
    with pytest.raises(RemoteShellError) as refused:
        SSHTransport.connect("chroot", client.options())
    assert "ChrootDirectory" in refused.value.message and "bad ownership or modes" in refused.value.message
    assert "nologin" not in (refused.value.hint or "") and "chmod 755" in (refused.value.hint or "")


def test_a_session_ended_right_after_login_is_not_called_a_reboot(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: Any, tmp_path: Path
) -> None:
    """sshd lets the key in, then the session's own process dies (a PAM session module that
    fails hard, a wrapper that kills it): "connection lost during command ... the host
    rebooted" sent people to check uptime on a host that is fine."""
    server = sshd_factory("dies", extra_config="ForceCommand kill -9 $PPID\n")
    client.trust(server)
    client.alias("dies", server)
    with pytest.raises(ConnectionLostError) as lost:
        SSHTransport.connect("dies", client.options())
    assert lost.value.message == "dies: the server closed the connection right after login, before any command ran"
    assert "rebooted" not in (lost.value.hint or "") and "sshd log" in (lost.value.hint or "")

    playbook = tmp_path / "tiny.yaml"
    playbook.write_text(TINY)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "dies", "--host", "target", "-F", str(client.config), "--batch", "--out", str(out))
    assert result.code == 3, result.stdout + result.stderr  # README: 3, a host could not be used
    assert "Traceback" not in result.stderr
    [run_dir] = [p for p in out.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text())
    hosts = {h["name"]: h for h in record["hosts"]}
    assert hosts["target"]["status"] == "passed"
    assert hosts["dies"]["status"] == "error" and "right after login" in hosts["dies"]["error"]
    assert any(f["code"] == "SD005" and f["host"] == "dies" for f in record["findings"])
