"""An sshd built without PAM (Alpine, and the Alpine-based openssh-server containers people run
on GPU boxes) offers `keyboard-interactive` (its compiled default, KbdInteractiveAuthentication
yes) with nothing behind it, beside `password`.

ssh(1) tries keyboard-interactive, is refused at once without a question, and goes on to the
password (openssh-portable: sshconnect2.c, userauth: the next method after a failure). We
stopped at the first: "keyboard-interactive login ... failed (the answer was refused)", with
the right password in the inventory and no question ever asked.
"""

from __future__ import annotations

import os
import pwd
from collections.abc import Iterator
from pathlib import Path

import pytest

import tests.ssh.h10_helpers as h10
from spec_debug.errors import AuthenticationError
from spec_debug.runner.hosts import open_transport, resolve_hosts
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from tests.ssh.h10_helpers import PasswordServer
from tests.sshd_fixture import ClientSetup, SshServer

PASSWORD = "Gpu-lab-2024!"
USER = pwd.getpwuid(os.getuid()).pw_name


class WithoutPam(PasswordServer):
    """Passwords checked by sshd itself (UsePAM no, /etc/shadow), keyboard-interactive on: what an
    sshd compiled without PAM offers with its default settings."""

    def _sshd_config(self) -> str:
        return super()._sshd_config().replace("KbdInteractiveAuthentication no\n", "KbdInteractiveAuthentication yes\n")


@pytest.fixture
def no_pam_box(client: ClientSetup, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SshServer]:
    monkeypatch.setattr(h10, "PasswordServer", WithoutPam)
    server = h10.start_password_server(tmp_path / "nopam", PASSWORD, extra_config="PubkeyAuthentication no\n")
    client.trust(server)
    client.hosts["*"] = {"UserKnownHostsFile": str(client.known_hosts)}
    client.alias("unused", server)
    yield server
    server.stop()


def _inventory(tmp_path: Path, server: SshServer, password: str) -> Path:
    path = tmp_path / "hosts.yml"
    path.write_text(
        "all:\n  hosts:\n    box01:\n"
        f"      ansible_host: {server.address}\n      ansible_port: {server.port}\n"
        f"      ansible_user: {USER}\n      ansible_password: '{password}'\n"
    )
    return path


def _whoami(transport: SSHTransport) -> str:
    stdout, stderr = StreamCapture("stdout"), StreamCapture("stderr")
    transport.run("id -un", stdout=stdout, stderr=stderr, timeout_s=30)
    stdout.close()
    stderr.close()
    return stdout.text().strip()


def test_the_inventory_password_logs_in_after_an_empty_keyboard_interactive(
    client: ClientSetup, no_pam_box: SshServer, tmp_path: Path
) -> None:
    [spec] = resolve_hosts(["box01"], [], _inventory(tmp_path, no_pam_box, PASSWORD), None)
    with open_transport(spec, client.options()) as transport:
        assert _whoami(transport) == USER  # type: ignore[arg-type]


def test_a_typed_password_is_asked_as_ssh_asks_it(client: ClientSetup, no_pam_box: SshServer) -> None:
    client.alias("box01", no_pam_box, User=USER)
    asked: list[str] = []

    def person(question: str) -> str:
        asked.append(question)
        return PASSWORD

    with SSHTransport.connect("box01", client.options(batch=False, prompt=person)) as transport:
        assert _whoami(transport) == USER
    assert asked == [f"(box01) {USER}@{no_pam_box.address}'s password: "], asked


def test_a_wrong_inventory_password_is_named_by_the_password_login(
    client: ClientSetup, no_pam_box: SshServer, tmp_path: Path
) -> None:
    path = _inventory(tmp_path, no_pam_box, "not-the-password")
    [spec] = resolve_hosts(["box01"], [], path, None)
    with pytest.raises(AuthenticationError) as refused:
        open_transport(spec, client.options())
    assert refused.value.message.endswith(f"refused the password from ansible_password in {path}"), refused.value.message
