"""A host whose sshd is slower to check a key than its LoginGraceTime is named so.

sshd ends a login that outlasts LoginGraceTime (120 s by default) without a word to the
client: it logs "Timeout before authentication" and exits (openssh-portable: sshd-session.c,
grace_alarm_handler). A host that looks keys up slowly (an AuthorizedKeysCommand asking LDAP,
sssd, an NFS home) fails every login this way. The message read "sshd went away mid-login
(restarted, killed, ...) or MaxAuthTries", with nothing on the clock and no LoginGraceTime.

The server is a real sshd with `LoginGraceTime 1` whose only source of keys is an
AuthorizedKeysCommand that takes 4 s to answer.
"""

from __future__ import annotations

import os
import pwd
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import HandshakeError
from tests.ssh.h10_helpers import start_password_server
from tests.ssh.test_fleet_faults import load_run
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer


PASSWORD = "Gpu-lab-2024!"
USER = pwd.getpwuid(os.getuid()).pw_name


@pytest.fixture
def slow_key_lookup(tmp_path: Path, client_key: ClientKey) -> Iterator[SshServer]:
    # /bin/sh as the command: sshd runs an AuthorizedKeysCommand only from a root-owned path no
    # one else may write to, which no tmp_path is (sshd: auth2-pubkey.c, subprocess safe_path).
    lookup = f"/bin/sh -c 'sleep 4; cat {client_key.path}.pub'"
    server = SshServer(
        tmp_path / "sshd-slow-lookup", [],
        extra_config=f"LoginGraceTime 1\nAuthorizedKeysCommand {lookup}\nAuthorizedKeysCommandUser root\n",
    )
    with server:
        yield server


def test_a_login_cut_off_by_login_grace_time_names_it(client: ClientSetup, slow_key_lookup: SshServer) -> None:
    client.alias("ldaphost", slow_key_lookup)
    client.trust(slow_key_lookup)
    with pytest.raises(HandshakeError) as cut_off:
        SSHTransport.connect("ldaphost", client.options(connect_timeout_s=10.0))
    said, hint = cut_off.value.message, cut_off.value.hint or ""
    assert said.startswith(f"ldaphost: 127.0.0.1:{slow_key_lookup.port} closed the connection during authentication,"), said
    assert " s after the connection opened, without a reason; the host had spent " in said, said
    assert f"of it not answering (after 1 key(s) offered, the last {client.key.path})" in said, said
    assert "LoginGraceTime" in hint and "AuthorizedKeysCommand" in hint and "Timeout before authentication" in hint, hint
    assert "MaxAuthTries" not in hint and "passphrase" not in said, hint


def test_a_passphrase_typed_past_login_grace_time_is_named_as_this_sides_delay(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    """The same silent hang-up when the person at the terminal takes longer than LoginGraceTime
    to type the key's passphrase. It read "failed during authentication: No existing session"."""
    locked = ClientKey.create(tmp_path / "locked", passphrase="sesame")
    server = SshServer(tmp_path / "sshd-grace", [locked], extra_config="LoginGraceTime 1\n")
    with server:
        client.trust(server)
        client.alias("gpu03", server, IdentityFile=str(locked.path))

        def slow_typist(_question: str) -> str:
            time.sleep(3)  # sshd has hung up after 1 s
            return "sesame"

        with pytest.raises(HandshakeError) as cut_off:
            SSHTransport.connect("gpu03", client.options(batch=False, prompt=slow_typist))
    said, hint = cut_off.value.message, cut_off.value.hint or ""
    assert said.startswith(f"gpu03: 127.0.0.1:{server.port} closed the connection during authentication,"), said
    assert "without a reason; spec-debug had spent " in said and "a passphrase or password prompt" in said, said
    assert said.endswith(f"(before {locked.path} was offered)"), said
    assert "No existing session" not in said and "not answering" not in said, said
    assert "LoginGraceTime" in hint and "ssh-add" in hint, hint


def test_a_password_typed_past_login_grace_time_is_named_as_this_sides_delay(
    client: ClientSetup, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A password login (a fresh Ubuntu box) whose password is typed after sshd has hung up. It
    read "failed during authentication: No existing session"."""
    server = start_password_server(tmp_path / "sshd-password", PASSWORD, extra_config="LoginGraceTime 1\n")
    try:
        client.trust(server)
        client.alias("gpu04", server)

        def slow_typist(_question: str) -> str:
            time.sleep(3)  # sshd has hung up after 1 s
            return PASSWORD

        with pytest.raises(HandshakeError) as cut_off:
            SSHTransport.connect("gpu04", client.options(batch=False, prompt=slow_typist))
    finally:
        server.stop()
    said, hint = cut_off.value.message, cut_off.value.hint or ""
    assert said.startswith(f"gpu04: {USER}@127.0.0.1:{server.port} closed the connection during authentication,"), said
    assert said.endswith("(before the password was sent)") and "spec-debug had spent " in said, said
    assert "LoginGraceTime" in hint and "type the password sooner" in hint and "ssh-add" not in hint, hint


SHELL_PLAYBOOK = """
name: quick_look
description: one shell step
steps:
  - id: hello
    title: Say hello
    why: the host runs commands
    run: echo hello
"""


def test_a_fleet_run_records_the_cut_off_host_and_finishes_the_others(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, slow_key_lookup: SshServer, tmp_path: Path
) -> None:
    client.alias("ldaphost", slow_key_lookup)
    client.trust(slow_key_lookup)
    playbook = tmp_path / "quick_look.yaml"
    playbook.write_text(SHELL_PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "target", "--host", "ldaphost", "-F", str(client.config), "--batch",
                 "--out", str(out), timeout=60)
    record = load_run(out)[1]
    assert result.code == 3, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    hosts = {host["name"]: host for host in record["hosts"]}
    assert hosts["target"]["status"] == "passed", hosts["target"]
    assert hosts["ldaphost"]["status"] == "error", hosts["ldaphost"]
    assert "LoginGraceTime" in hosts["ldaphost"]["hint"] and "LoginGraceTime" in result.stderr, hosts["ldaphost"]
    assert "closed the connection during authentication" in hosts["ldaphost"]["error"], hosts["ldaphost"]
