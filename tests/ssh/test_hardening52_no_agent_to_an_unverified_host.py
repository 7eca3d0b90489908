"""`ForwardAgent yes` with `StrictHostKeyChecking no` (a lab config's `Host *`), and a host whose
key is not the one known_hosts holds (changed, or marked @revoked): ssh(1) logs in with a key but
turns agent forwarding off ("Agent forwarding is disabled to avoid man-in-the-middle attacks":
openssh-portable, sshconnect.c, check_host_key, continue_unsafe), since a man in the middle could
sign with the agent as the user anywhere. spec-debug said only "only key logins allowed" and
forwarded the agent to that host all the same. Now the step gets no agent, and the warning says so."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.sshd_fixture import ClientSetup, SshServer, keygen

PLAYBOOK = ("name: agent\ndescription: t\nsteps:\n  - id: keys\n    title: keys\n    why: keys\n"
            "    run: 'ssh-add -l; echo rc=$?'\n")


def _file_wrong_key(client: ClientSetup, sshd: SshServer, tmp_path: Path, marker: str) -> None:
    kind, blob = Path(f"{keygen(tmp_path / 'impostor')}.pub").read_text().split()[:2]
    if marker == "changed":
        client.known_hosts.write_text(f"{sshd.known_hosts_name} {kind} {blob}\n")
    else:
        client.known_hosts.write_text(f"@revoked {sshd.known_hosts_line}")


@pytest.mark.parametrize("marker", ["changed", "revoked"])
def test_no_agent_is_forwarded_to_a_host_let_in_only_by_strict_checking_no(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path,
        agent_at: Callable[[Path, list[str]], Path], marker: str) -> None:
    socket_path = agent_at(tmp_path / "agent.sock", [str(client.key.path)])
    _file_wrong_key(client, sshd, tmp_path, marker)
    client.alias("gpu01", sshd, ForwardAgent="yes", StrictHostKeyChecking="no")
    if shutil.which("ssh") is not None:
        by_ssh = subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", "gpu01", "ssh-add -l; echo rc=$?"],
                                capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL, check=False,
                                env={"PATH": "/usr/bin:/bin", "HOME": str(client.home), "SSH_AUTH_SOCK": str(socket_path)})
        assert "Agent forwarding is disabled" in by_ssh.stderr and "rc=2" in by_ssh.stdout, (by_ssh.stdout, by_ssh.stderr)
    (tmp_path / "agent.yaml").write_text(PLAYBOOK)
    out = tmp_path / "runs"
    done = cli("run", str(tmp_path / "agent.yaml"), "--host", "gpu01", "--batch", "--out", str(out),
               env={"SSH_AUTH_SOCK": str(socket_path)})
    assert done.code == 0, done.stdout + done.stderr
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    said = json.loads((run_dir / "run.json").read_text())["steps"][0]["stdout"]
    assert "rc=0" not in said, said
    assert "no agent forwarding" in done.stderr, done.stderr
