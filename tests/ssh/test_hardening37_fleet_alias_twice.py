"""One machine named by its ssh_config alias and by its address is said to be one machine.

`--host gpu01 --host 10.0.0.5`, where ~/.ssh/config gives gpu01 `HostName 10.0.0.5`, ran the
playbook twice at once on one machine (two benchmarks each measuring half the GPU) with
nothing said: the twice-listed warning compared names as written, and never resolved an
alias. Names are now compared where the ssh config takes them (HostName, Port, and the way
there), as the connections themselves will.

The hosts are real: the shared sshd, reached through the client's ssh config.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = """
name: alias_twice
description: one shell step per host
steps:
  - id: hello
    title: Say hello
    why: proves the host runs commands
    run: echo "hello from {{ host }}"
"""


def _run(cli: Callable[..., Any], tmp_path: Path, client: ClientSetup, *hosts: str) -> Any:
    playbook = tmp_path / "fleet.yaml"
    playbook.write_text(PLAYBOOK)
    args = [arg for host in hosts for arg in ("--host", host)]
    return cli("run", str(playbook), *args, "-F", str(client.config), "--batch", "--out", str(tmp_path / "runs"))


def test_an_alias_and_its_hostname_are_said_to_be_one_machine(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    client.alias(sshd.address, sshd)  # the address itself gets the key and port, as a lab's config does
    done = _run(cli, tmp_path, client, "target", sshd.address)
    assert done.code == 0, done.stdout + done.stderr
    warning = " ".join(done.stderr.split())
    assert f"warning: target and {sshd.address} are the same host ({sshd.address}:{sshd.port})" in warning, warning


def test_two_aliases_of_one_address_on_other_ports_are_two_machines(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path,
        closed_port: Callable[[], int]) -> None:
    client.alias("other", sshd, Port=closed_port())
    done = _run(cli, tmp_path, client, "target", "other")
    assert "same host" not in done.stderr, done.stderr
