"""A host whose key is filed under a HostKeyAlias (`Host gpu01` / `HostKeyAlias gpu01-key`,
`StrictHostKeyChecking yes`, the key not filed yet) was refused with the hint "run `ssh
gpu01-key` once": ssh(1) takes that as a host name, cannot resolve it, and files nothing. The
`ssh` the hint names must reach the host and file its key where we look it up."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = "name: tiny\ndescription: t\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: 'true'\n"


def _run(cli: Callable[..., Any], tmp_path: Path, name: str) -> tuple[Any, dict[str, Any]]:
    playbook = tmp_path / "tiny.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / name
    done = cli("run", str(playbook), "--host", "gpu01", "--batch", "--out", str(out))
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    return done, json.loads((run_dir / "run.json").read_text())


def _answer_yes_to_the_hinted_ssh(stderr: str, client: ClientSetup) -> None:
    """Run the `ssh` the unknown-key hint names, as a person would. The config says
    `StrictHostKeyChecking yes`: that ssh must ask, and the person at the terminal answers yes
    (accept-new stands in for that answer). -F: ssh(1) reads the config of the passwd entry's
    home, not of $HOME."""
    hint = re.search(r"or run `(ssh [^`]+)` once", stderr)
    assert hint is not None, stderr
    command = shlex.split(hint.group(1))
    assert "StrictHostKeyChecking=ask" in command
    command[command.index("StrictHostKeyChecking=ask")] = "StrictHostKeyChecking=accept-new"
    asked = subprocess.run(
        [*command[:-1], "-F", str(client.config), "-o", "BatchMode=yes", command[-1], "true"],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, check=False)
    assert asked.returncode == 0, asked.stderr


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH client not installed")
def test_the_ssh_the_hint_names_files_the_key_under_the_host_key_alias(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    client.known_hosts.write_text("")
    client.alias("gpu01", sshd, HostKeyAlias="gpu01-key", StrictHostKeyChecking="yes")
    done, record = _run(cli, tmp_path, "first")
    assert done.code == 3, done.stdout + done.stderr
    assert record["hosts"][0]["error"].startswith("gpu01: host key for gpu01-key is not in known_hosts")
    _answer_yes_to_the_hinted_ssh(done.stderr, client)
    assert client.known_hosts.read_text().startswith("gpu01-key ssh-ed25519 ")
    done, record = _run(cli, tmp_path, "second")
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH client not installed")
def test_the_ssh_the_hint_names_reaches_a_host_behind_its_bastion_and_files_its_own_known_hosts(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, sshd_factory: Callable[..., SshServer],
        tmp_path: Path) -> None:
    """`Host gpu01` / `HostName 10.0.0.5` / `ProxyJump bastion` / `UserKnownHostsFile
    ~/.ssh/known_hosts.lab`: the hint said `ssh 10.0.0.5`, an address the laptop cannot reach,
    and whose key ssh(1) would file in ~/.ssh/known_hosts, where the next run does not look."""
    bastion = sshd_factory("bastion")
    client.trust(bastion)
    client.alias("bastion", bastion)
    lab_known_hosts = client.home / ".ssh" / "known_hosts.lab"
    lab_known_hosts.write_text("")
    client.alias("gpu01", sshd, ProxyJump="bastion", UserKnownHostsFile=str(lab_known_hosts), StrictHostKeyChecking="yes")
    # ssh(1) reads the passwd entry's ~/.ssh, not $HOME's: this stands in for the default file.
    client.alias("*", sshd, UserKnownHostsFile=str(tmp_path / "default_known_hosts"))
    done, _ = _run(cli, tmp_path, "first")
    assert done.code == 3, done.stdout + done.stderr
    _answer_yes_to_the_hinted_ssh(done.stderr, client)
    done, record = _run(cli, tmp_path, "second")
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr


def test_an_inventory_hosts_hint_names_its_address_with_its_host_key_alias(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """An inventory name (lab01) is no ssh config name: `ssh lab01` would not resolve. The
    address, with the HostKeyAlias the inventory gives, files the key where the run looks."""
    client.known_hosts.write_text("")
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(
        f"lab01 ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path} "
        "ansible_ssh_common_args='-o HostKeyAlias=lab01-key'\n")
    (tmp_path / "tiny.yaml").write_text(PLAYBOOK)
    done = cli("run", str(tmp_path / "tiny.yaml"), "-i", str(inventory), "--batch", "--out", str(tmp_path / "runs"))
    assert done.code == 3, done.stdout + done.stderr
    assert f"or run `ssh -o HostKeyAlias=lab01-key -p {sshd.port} {sshd.address}` once" in done.stderr, done.stderr
