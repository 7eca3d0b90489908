"""A keyboard-interactive login cut off by sshd's LoginGraceTime says which side was slow.

sshd ends a login that outlasts LoginGraceTime without a word (openssh-portable:
sshd-session.c, grace_alarm_handler). The key and password logins already said whose turn the
time went to (ssh_login_turns); a keyboard-interactive one (a PAM password, a bastion's
one-time code) read "abandoned: no answer given, or the host closed the connection", which
blamed nobody: the person who typed the code slowly, or a host slow to check it.

The server is a real sshd with `LoginGraceTime 1` whose PAM asks its questions through
keyboard-interactive (tests/ssh/h12_helpers.py).
"""

from __future__ import annotations

import os
import pwd
import time
from pathlib import Path

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import HandshakeError
from tests.ssh.h12_helpers import start_pam_prompt_server
from tests.sshd_fixture import ClientSetup

PASSWORD = "Gpu-lab-2024!"
USER = pwd.getpwuid(os.getuid()).pw_name


def test_a_code_typed_past_login_grace_time_is_named_as_this_sides_delay(client: ClientSetup, tmp_path: Path) -> None:
    server = start_pam_prompt_server(tmp_path / "pam-grace", PASSWORD, ["Verification code: "], extra_config="LoginGraceTime 1\n")
    try:
        client.trust(server)
        client.alias("bastion", server)

        def slow_typist(_question: str) -> str:
            time.sleep(3)  # sshd has hung up after 1 s
            return PASSWORD

        with pytest.raises(HandshakeError) as cut_off:
            SSHTransport.connect("bastion", client.options(batch=False, prompt=slow_typist))
    finally:
        server.stop()
    said, hint = cut_off.value.message, cut_off.value.hint or ""
    assert said.startswith(f"bastion: {USER}@127.0.0.1:{server.port} closed the connection during authentication,"), said
    assert "without a reason; spec-debug had spent " in said and "a passphrase or password prompt" in said, said
    assert said.endswith("(while the keyboard-interactive questions were answered)"), said
    assert "LoginGraceTime" in hint and "answer the questions sooner" in hint, hint
    assert "no answer given" not in said, said


def test_a_host_slow_to_check_the_answers_is_named_as_the_hosts_delay(client: ClientSetup, tmp_path: Path) -> None:
    """The answers go at once; the host's PAM takes 4 s to check them (an LDAP or RADIUS server)."""
    server = start_pam_prompt_server(tmp_path / "pam-slow", PASSWORD, ["Password: "], extra_config="LoginGraceTime 1\n", check_s=4)
    try:
        client.trust(server)
        client.alias("ldaphost", server)
        with pytest.raises(HandshakeError) as cut_off:
            SSHTransport.connect("ldaphost", client.options(batch=False, prompt=lambda _question: PASSWORD))
    finally:
        server.stop()
    said, hint = cut_off.value.message, cut_off.value.hint or ""
    assert said.startswith(f"ldaphost: {USER}@127.0.0.1:{server.port} closed the connection during authentication,"), said
    assert "without a reason; the host had spent " in said and " of it not answering " in said, said
    assert "the host is slow to check the answers (PAM: LDAP/sssd" in hint and "LoginGraceTime" in hint, hint
