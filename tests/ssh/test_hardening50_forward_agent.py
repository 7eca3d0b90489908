"""`ForwardAgent yes` in ~/.ssh/config (often under `Host *`): `ssh gpu01 git pull` on a host
whose checkout comes from a private repository signs with the laptop's agent. spec-debug ignored
the keyword, so the same step in a playbook (a `git -C ~/SpecForge pull`, an rsync from a
storage node) failed on the host with "Permission denied (publickey)" or "Could not open a
connection to your authentication agent", where ssh(1) worked. The step's session now has the
agent forwarded where the config asks for it, and only there."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = ("name: agent\ndescription: t\nsteps:\n  - id: keys\n    title: keys\n    why: keys\n"
            "    run: 'ssh-add -l; echo rc=$?'\n")


def _agent_keys_seen_by_the_step(cli: Callable[..., Any], tmp_path: Path, socket_path: Path, name: str) -> str:
    (tmp_path / "agent.yaml").write_text(PLAYBOOK)
    out = tmp_path / name
    done = cli("run", str(tmp_path / "agent.yaml"), "--host", "gpu01", "--batch", "--out", str(out),
               env={"SSH_AUTH_SOCK": str(socket_path)})
    assert done.code == 0, done.stdout + done.stderr
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    return str(json.loads((run_dir / "run.json").read_text())["steps"][0]["stdout"])


@pytest.mark.parametrize("value", ["yes", "AGENT_PATH"])
def test_the_step_signs_with_the_forwarded_agent(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path,
        agent_at: Callable[[Path, list[str]], Path], value: str) -> None:
    socket_path = agent_at(tmp_path / "agent.sock", [str(client.key.path)])
    fingerprint = subprocess.run(["ssh-keygen", "-lf", f"{client.key.path}.pub"], capture_output=True, text=True,
                                 check=True).stdout.split()[1]
    client.alias("gpu01", sshd, ForwardAgent=str(socket_path) if value == "AGENT_PATH" else value)
    said = _agent_keys_seen_by_the_step(cli, tmp_path, socket_path, "forwarded")
    assert fingerprint in said and "rc=0" in said, said


def test_no_agent_is_forwarded_unless_the_config_asks(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path,
        agent_at: Callable[[Path, list[str]], Path]) -> None:
    socket_path = agent_at(tmp_path / "agent.sock", [str(client.key.path)])
    client.alias("gpu01", sshd)
    said = _agent_keys_seen_by_the_step(cli, tmp_path, socket_path, "plain")
    assert "rc=0" not in said, said


def test_an_inventory_host_with_dash_a_in_its_ssh_args_gets_the_agent(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path,
        agent_at: Callable[[Path, list[str]], Path]) -> None:
    """Ansible users forward their agent with `ansible_ssh_common_args='-A'`."""
    socket_path = agent_at(tmp_path / "agent.sock", [str(client.key.path)])
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(f"gpu01 ansible_host={sshd.address} ansible_port={sshd.port} "
                         f"ansible_ssh_private_key_file={client.key.path} "
                         f"ansible_ssh_common_args='-A -o UserKnownHostsFile={client.known_hosts}'\n")
    (tmp_path / "agent.yaml").write_text(PLAYBOOK)
    out = tmp_path / "runs"
    done = cli("run", str(tmp_path / "agent.yaml"), "-i", str(inventory), "--batch", "--out", str(out),
               env={"SSH_AUTH_SOCK": str(socket_path)})
    assert done.code == 0, done.stdout + done.stderr
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    said = json.loads((run_dir / "run.json").read_text())["steps"][0]["stdout"]
    assert "rc=0" in said, said
