"""Terminal questions and host-key messages for an inventory host name the host the user knows.

An Ansible inventory names hosts (`lab01`) and gives their addresses (`ansible_host: 10.0.0.5`).
The question about an unknown host key, and the password question, said only
`(10.0.0.5) ...`: over a fleet the person at the terminal could not tell which host was
asking. They now say `(lab01 at 10.0.0.5)`, and so do host-key refusals.
"""

from __future__ import annotations

import os
import pwd
from pathlib import Path
from typing import Callable

import pytest

from spec_debug.errors import HostKeyError
from spec_debug.runner.hosts import open_transport, resolve_hosts
from spec_debug.runner.ssh import SSHTransport
from tests.ssh.h10_helpers import start_password_server
from tests.sshd_fixture import ClientSetup, SshServer

USER = pwd.getpwuid(os.getuid()).pw_name
PASSWORD = "Gpu-lab-2024!"


def _inventory(tmp_path: Path, server: SshServer) -> Path:
    path = tmp_path / "hosts.yml"
    path.write_text(
        "all:\n  hosts:\n    lab01:\n"
        f"      ansible_host: {server.address}\n      ansible_port: {server.port}\n      ansible_user: {USER}\n"
    )
    return path


def _person(answer: str, asked: list[str]) -> Callable[[str], str]:
    def prompt(question: str) -> str:
        asked.append(question)
        return answer

    return prompt


def test_the_unknown_host_key_question_names_the_inventory_host(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    client.known_hosts.write_text("")
    client.config.write_text(f"Host *\n  IdentityFile {client.key.path}\n  IdentitiesOnly yes\n")
    [spec] = resolve_hosts(["lab01"], [], _inventory(tmp_path, sshd), None)
    asked: list[str] = []
    with pytest.raises(HostKeyError) as refused:
        open_transport(spec, client.options(batch=False, prompt=_person("no", asked)))
    assert len(asked) == 1 and asked[0].startswith(
        f"(lab01 at {sshd.address}) The authenticity of host '[{sshd.address}]:{sshd.port}' can't be established."
    ), asked
    assert refused.value.message.startswith(f"lab01 at {sshd.address}: host key for [{sshd.address}]:{sshd.port} is not in known_hosts"), \
        refused.value.message


def test_a_key_filed_under_the_inventory_name_is_named_in_the_refusal(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """`ssh lab01` (through /etc/hosts) filed the key under `[lab01]:PORT`; ssh(1) looks up the
    address spec-debug connects to, and does not find it there either: the refusal says where it is."""
    client.known_hosts.write_text(sshd.known_hosts_line.replace(sshd.known_hosts_name, f"[lab01]:{sshd.port}"))
    client.config.write_text(f"Host *\n  IdentityFile {client.key.path}\n  IdentitiesOnly yes\n")
    [spec] = resolve_hosts(["lab01"], [], _inventory(tmp_path, sshd), None)
    with pytest.raises(HostKeyError) as refused:
        open_transport(spec, client.options())
    assert f"is filed under '[lab01]:{sshd.port}'" in refused.value.message, refused.value.message


def test_the_password_question_names_the_inventory_host(client: ClientSetup, tmp_path: Path) -> None:
    server = start_password_server(tmp_path / "pwbox", PASSWORD, extra_config="PubkeyAuthentication no\n")
    try:
        client.trust(server)
        client.config.write_text(f"Host *\n  UserKnownHostsFile {client.known_hosts}\n")
        [spec] = resolve_hosts(["lab01"], [], _inventory(tmp_path, server), None)
        asked: list[str] = []
        with open_transport(spec, client.options(batch=False, prompt=_person(PASSWORD, asked))):
            pass
        assert asked == [f"(lab01 at {server.address}) {USER}@{server.address}'s password: "], asked
    finally:
        server.stop()


def test_a_host_given_by_its_own_name_is_asked_about_as_before(client: ClientSetup, sshd: SshServer) -> None:
    """`--host alice@target`: the name is the destination, written with a user; nothing to add."""
    client.known_hosts.write_text("")
    [spec] = resolve_hosts([f"{USER}@target"], [], None, None)
    asked: list[str] = []
    with pytest.raises(HostKeyError):
        open_transport(spec, client.options(batch=False, prompt=_person("no", asked)))
    assert asked[0].startswith("(target) The authenticity of host"), asked
    with pytest.raises(HostKeyError) as plain:
        SSHTransport.connect("target", client.options())
    assert plain.value.message.startswith("target: host key for"), plain.value.message
