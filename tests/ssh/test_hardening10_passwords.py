"""Hosts that take a password (a lab box, a fresh Ubuntu image before anyone installed a key).

Ansible inventories give the password as `ansible_password` (or `ansible_ssh_pass`), in plain
text, vault-encrypted or from the environment; ssh(1) asks `user@host's password: ` on the
terminal. Before this round spec-debug sent no password at all: every such host failed with
"server does not accept public keys (allowed: password)", even with the password in the
inventory the team's Ansible runs use, and even with someone at the terminal.
"""

from __future__ import annotations

import json
import os
import pwd
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner.hosts import open_transport, resolve_hosts
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from tests.ssh.h10_helpers import start_password_server
from tests.ssh.test_hardening7_ssh import bastion  # noqa: F401 - the PAM bastion fixture, reused below
from tests.sshd_fixture import ClientSetup, SshServer

PASSWORD = "Gpu-lab-2024!"
USER = pwd.getpwuid(os.getuid()).pw_name

PLAYBOOK = """
name: who
description: one command over a password login
steps:
  - id: who
    title: Who am I
    why: proves the login worked
    run: echo "user=$(id -un)"
"""


@pytest.fixture
def password_box(client: ClientSetup, tmp_path: Path) -> Any:
    """Passwords only: `PubkeyAuthentication no`, the account's password PASSWORD."""
    server = start_password_server(tmp_path / "pwbox", PASSWORD, extra_config="PubkeyAuthentication no\n")
    client.trust(server)
    client.hosts["*"] = {"UserKnownHostsFile": str(client.known_hosts)}
    client.alias("unused", server)  # writes the config with the `*` block
    yield server
    server.stop()


def inventory(tmp_path: Path, server: SshServer, password_line: str, name: str = "hosts.yml") -> Path:
    path = tmp_path / name
    path.write_text(
        "all:\n"
        "  hosts:\n"
        "    lab01:\n"
        f"      ansible_host: {server.address}\n"
        f"      ansible_port: {server.port}\n"
        f"      ansible_user: {USER}\n"
        f"      {password_line}\n"
    )
    return path


def run(transport: SSHTransport, command: str) -> str:
    stdout, stderr = StreamCapture("stdout"), StreamCapture("stderr")
    transport.run(command, stdout=stdout, stderr=stderr, timeout_s=30)
    stdout.close()
    stderr.close()
    return stdout.text().strip()


def connect_from(path: Path, client: ClientSetup, **options: object) -> SSHTransport:
    [spec] = resolve_hosts(["lab01"], [], path, None)
    return open_transport(spec, client.options(**options))  # type: ignore[return-value]


def test_the_inventory_password_logs_in_and_stays_out_of_the_run_record(
    cli: Callable[..., Any], client: ClientSetup, password_box: SshServer, tmp_path: Path
) -> None:
    hosts = tmp_path / "hosts.ini"
    hosts.write_text(
        "[lab]\n"
        f"lab01 ansible_host={password_box.address} ansible_port={password_box.port} ansible_user={USER} "
        f"ansible_password={PASSWORD}\n"
    )
    playbook = tmp_path / "who.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "-i", str(hosts), "-F", str(client.config), "--batch", "--out", str(out))
    assert result.code == 0, result.stdout + result.stderr
    [run_dir] = [p for p in out.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text())
    assert [h["status"] for h in record["hosts"]] == ["passed"], record["hosts"]
    assert any(f"user={USER}" in s["stdout"] for s in record["steps"])
    everything = result.stdout + result.stderr + "".join(
        p.read_text(errors="replace") for p in run_dir.rglob("*") if p.is_file()
    )
    assert PASSWORD not in everything


def test_a_wrong_inventory_password_is_named_and_not_shown(client: ClientSetup, password_box: SshServer, tmp_path: Path) -> None:
    path = inventory(tmp_path, password_box, "ansible_ssh_pass: not-the-password")
    with pytest.raises(AuthenticationError) as refused:
        connect_from(path, client)
    message = refused.value.message
    assert message.endswith(
        f": {USER}@{password_box.address}:{password_box.port} refused the password from ansible_ssh_pass in {path}"
    ), message
    assert "not-the-password" not in message + (refused.value.hint or "")


def test_a_password_kept_in_the_environment_is_read(
    client: ClientSetup, password_box: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The form Ansible's docs give to keep a secret out of the file."""
    path = inventory(tmp_path, password_box, "ansible_password: \"{{ lookup('env', 'LAB_PASSWORD') }}\"")
    monkeypatch.delenv("LAB_PASSWORD", raising=False)
    with pytest.raises(AuthenticationError) as unset:
        connect_from(path, client)
    assert "from $LAB_PASSWORD, which is not set" in (unset.value.hint or "") + unset.value.message, unset.value
    monkeypatch.setenv("LAB_PASSWORD", PASSWORD)
    with connect_from(path, client) as transport:
        assert run(transport, "id -un") == USER


def test_a_vault_encrypted_password_says_it_cannot_be_read(client: ClientSetup, password_box: SshServer, tmp_path: Path) -> None:
    vaulted = (
        "ansible_password: !vault |\n"
        "          $ANSIBLE_VAULT;1.1;AES256\n"
        "          62313365396662343061393464336163383764373764613633653634306231386433626436623361\n"
    )
    path = inventory(tmp_path, password_box, vaulted)
    with pytest.raises(AuthenticationError) as refused:
        connect_from(path, client)
    assert "the host would also take a password, but ansible_password in" in refused.value.message, refused.value.message
    assert "vault-encrypted" in refused.value.message and "lookup('env'" in (refused.value.hint or ""), refused.value.hint


def test_without_a_password_the_terminal_is_asked_as_ssh_asks(client: ClientSetup, password_box: SshServer) -> None:
    """ssh(1) asks `user@host's password: ` up to three times; a typo costs one try."""
    client.alias("pwbox", password_box, User=USER)
    asked: list[str] = []
    typed = iter(["typo", PASSWORD])

    def person(question: str) -> str:
        asked.append(question)
        return next(typed)

    with SSHTransport.connect("pwbox", client.options(batch=False, prompt=person)) as transport:
        assert transport.connection.transport.is_authenticated()
    assert asked == [f"(pwbox) {USER}@{password_box.address}'s password: "] * 2, asked
    # Under --batch no one is asked, and the hint says how to give the password.
    with pytest.raises(AuthenticationError) as batch:
        SSHTransport.connect("pwbox", client.options())
    assert "ansible_password" in (batch.value.hint or "") and "run without --batch" in (batch.value.hint or ""), batch.value.hint


def test_a_key_that_is_refused_still_falls_back_to_the_inventory_password(
    client: ClientSetup, tmp_path: Path
) -> None:
    """Keys and passwords both allowed, our key not installed yet: ssh(1) offers the key, then
    the password; we stopped after the key ("which spec-debug does not use")."""
    server = start_password_server(tmp_path / "both", PASSWORD)  # authorized_keys empty
    try:
        client.trust(server)
        client.hosts["*"] = {"UserKnownHostsFile": str(client.known_hosts), "IdentityFile": str(client.key.path)}
        client.alias("unused", server)
        path = inventory(tmp_path, server, f"ansible_password: '{PASSWORD}'")
        with connect_from(path, client) as transport:
            assert run(transport, "echo ok") == "ok"
    finally:
        server.stop()


def test_root_with_prohibit_password_names_permit_root_login(client: ClientSetup, tmp_path: Path) -> None:
    """sshd's default PermitRootLogin prohibit-password refuses root's right password as a wrong one."""
    if USER != "root":
        pytest.skip("the test account must be root")
    server = start_password_server(tmp_path / "noroot", PASSWORD, extra_config="PubkeyAuthentication no\n",
                                   permit_root_login="prohibit-password")
    try:
        client.trust(server)
        client.hosts["*"] = {"UserKnownHostsFile": str(client.known_hosts)}
        client.alias("unused", server)
        path = inventory(tmp_path, server, f"ansible_password: '{PASSWORD}'")
        with pytest.raises(AuthenticationError) as refused:
            connect_from(path, client)
        assert "refused the password from ansible_password" in refused.value.message
        assert "PermitRootLogin" in (refused.value.hint or ""), refused.value.hint
    finally:
        server.stop()


def test_a_pam_bastion_asking_key_then_password_takes_the_inventory_password_under_batch(
    client: ClientSetup, bastion: SshServer
) -> None:
    """`AuthenticationMethods publickey,keyboard-interactive` with PAM's "Password: " (sshd
    UsePAM yes): the inventory's password answers it where nobody can (--batch, CI)."""
    with SSHTransport.connect("bastion", client.options(), password="code-123456",
                              password_source="ansible_password in hosts.yml") as transport:
        assert transport.connection.transport.is_authenticated()
    with pytest.raises(AuthenticationError) as refused:
        SSHTransport.connect("bastion", client.options(), password="wrong", password_source="ansible_password in hosts.yml")
    assert refused.value.message.endswith("refused the password from ansible_password in hosts.yml"), refused.value.message


def test_the_ssh_config_that_turns_passwords_off_is_obeyed(client: ClientSetup, password_box: SshServer, tmp_path: Path) -> None:
    """`PreferredAuthentications publickey` (or `PasswordAuthentication no`): ssh(1) never asks
    for a password nor sends one; neither do we, and the message says why."""
    asked: list[str] = []
    client.alias("keys-only", password_box, User=USER, PreferredAuthentications="publickey")
    with pytest.raises(AuthenticationError) as refused:
        SSHTransport.connect("keys-only", client.options(batch=False, prompt=lambda q: asked.append(q) or PASSWORD))
    assert asked == [] and "allow passwords for this host in your ssh config" in (refused.value.hint or ""), refused.value.hint
    client.hosts["*"]["PasswordAuthentication"] = "no"
    client.alias("unused", password_box)
    path = inventory(tmp_path, password_box, f"ansible_password: '{PASSWORD}'")
    with pytest.raises(AuthenticationError):
        connect_from(path, client)


def test_number_of_password_prompts_bounds_the_questions(client: ClientSetup, password_box: SshServer) -> None:
    asked: list[str] = []
    client.alias("one-try", password_box, User=USER, NumberOfPasswordPrompts=1)
    with pytest.raises(AuthenticationError) as refused:
        SSHTransport.connect("one-try", client.options(batch=False, prompt=lambda q: asked.append(q) or "typo"))
    assert refused.value.message.endswith("refused the password 1 time") and len(asked) == 1, refused.value.message


def test_a_templated_password_is_named_only_where_a_password_is_needed(
    client: ClientSetup, password_box: SshServer, sshd: SshServer, tmp_path: Path
) -> None:
    """`ansible_password: "{{ vault_lab_password }}"` (a var from a vault file): a key host is not
    affected; the password host says the template was not evaluated, without showing it."""
    path = inventory(tmp_path, password_box, 'ansible_password: "{{ vault_lab_password | default(\'hunter2\') }}"')
    with pytest.raises(AuthenticationError) as refused:
        connect_from(path, client)
    assert "(a Jinja template, which spec-debug does not evaluate)" in refused.value.message, refused.value.message
    assert "hunter2" not in refused.value.message + (refused.value.hint or "")
    keyed = inventory(tmp_path, sshd, 'ansible_password: "{{ vault_lab_password }}"', name="keyed.yml")
    client.hosts["*"]["IdentityFile"] = str(client.key.path)
    client.alias("unused", sshd)  # rewrites the config
    with connect_from(keyed, client) as transport:
        assert run(transport, "echo ok") == "ok"
