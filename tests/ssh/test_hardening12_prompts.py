"""A password login through PAM's keyboard-interactive questions, whatever words they use.

sshd asks the PAM stack's questions as they are written: "Passwort: " on a German server
(Linux-PAM's translation of "Password: "), "密码： " on a Chinese one, "First Factor: " on a
FreeIPA host with two-factor logins (SSSD). spec-debug sent the inventory's password only to a
question containing the English word "password": under --batch these hosts failed as
"keyboard-interactive login ... abandoned: no answer given", and on a terminal the person was
asked for a password the inventory holds.
"""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner.hosts import open_transport, resolve_hosts
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_prompts import asks_for_new_password, asks_for_password
from tests.ssh.h12_helpers import linux_pam_password_question, start_pam_prompt_server
from tests.sshd_fixture import ClientSetup, SshServer

PASSWORD = "Gpu-lab-2024!"
USER = pwd.getpwuid(os.getuid()).pw_name


def _inventory(tmp_path: Path, server: SshServer) -> Path:
    path = tmp_path / "hosts.yml"
    path.write_text(
        "all:\n"
        "  hosts:\n"
        "    lab01:\n"
        f"      ansible_host: {server.address}\n"
        f"      ansible_port: {server.port}\n"
        f"      ansible_user: {USER}\n"
        f"      ansible_password: '{PASSWORD}'\n"
    )
    return path


def _whoami(transport: SSHTransport) -> str:
    stdout, stderr = StreamCapture("stdout"), StreamCapture("stderr")
    transport.run("id -un", stdout=stdout, stderr=stderr, timeout_s=30)
    stdout.close()
    stderr.close()
    return stdout.text().strip()


def _log_in(client: ClientSetup, server: SshServer, tmp_path: Path, **options: object) -> str:
    client.trust(server)
    client.hosts["*"] = {"UserKnownHostsFile": str(client.known_hosts)}
    client.alias("unused", server)  # writes the config with the `*` block
    [spec] = resolve_hosts(["lab01"], [], _inventory(tmp_path, server), None)
    with open_transport(spec, client.options(**options)) as transport:
        return _whoami(transport)  # type: ignore[arg-type]


@pytest.mark.parametrize("language", ["de", "fr", "zh_CN"])
def test_the_inventory_password_answers_pam_asking_in_the_servers_language(
    client: ClientSetup, tmp_path: Path, language: str
) -> None:
    question = linux_pam_password_question(language)
    assert "password" not in question.lower()  # the case that failed: "Passwort: ", "Mot de passe : ", "密码： "
    server = start_pam_prompt_server(tmp_path / f"pam-{language}", PASSWORD, [question])
    try:
        assert _log_in(client, server, tmp_path) == USER
    finally:
        server.stop()


def test_freeipa_two_factor_questions_take_the_password_first_and_leave_the_optional_code(
    client: ClientSetup, tmp_path: Path
) -> None:
    """SSSD asks "First Factor: " (the password) and "Second Factor (optional): " (a token code,
    empty for a user without a token): the password goes to the first only, under --batch."""
    server = start_pam_prompt_server(tmp_path / "pam-sssd", PASSWORD, ["First Factor: ", "Second Factor (optional): "])
    try:
        assert _log_in(client, server, tmp_path) == USER
    finally:
        server.stop()


def test_on_a_terminal_the_password_is_not_asked_again_but_the_code_is(client: ClientSetup, tmp_path: Path) -> None:
    server = start_pam_prompt_server(tmp_path / "pam-terminal", PASSWORD, ["Passwort: ", "Bestätigungscode: "])
    asked: list[str] = []

    def person(question: str) -> str:
        asked.append(question)
        return "123456"

    try:
        assert _log_in(client, server, tmp_path, batch=False, prompt=person) == USER
    finally:
        server.stop()
    assert len(asked) == 1 and asked[0].endswith(") Bestätigungscode: "), asked


def test_a_refused_answer_to_an_unworded_question_is_named_as_the_password(client: ClientSetup, tmp_path: Path) -> None:
    """The password was sent to "First Factor: " and refused: the message says which password."""
    server = start_pam_prompt_server(tmp_path / "pam-wrong", "another-password", ["First Factor: "])
    try:
        with pytest.raises(AuthenticationError) as refused:
            _log_in(client, server, tmp_path)
    finally:
        server.stop()
    assert "refused the password from ansible_password in" in refused.value.message, refused.value.message
    assert PASSWORD not in refused.value.message + (refused.value.hint or "")


@pytest.mark.parametrize(
    ("question", "echo", "sent", "expected"),
    [
        ("Password: ", False, False, True),
        ("TACACS Password: ", False, True, True),  # ansible/pylibssh#311
        ("Password for alice@gpu01:", False, False, True),  # FreeBSD's PAM (hierynomus/sshj#815)
        ("Mot de passe : ", False, True, True),
        ("First Factor: ", False, False, True),
        ("First Factor: ", False, True, False),  # a second hidden question after the password
        ("Second Factor (optional): ", False, False, False),
        ("Verification code: ", False, False, False),  # google-authenticator
        ("One-time password (OATH) for `alice': ", False, False, False),  # pam_oath: not the account's password
        ("Password + Token value: ", False, False, False),  # SSSD: password and code in one answer
        ("PASSCODE: ", False, False, False),  # RSA SecurID
        ("Enter PIN: ", False, False, False),
        ("Passcode or option (1-3): ", True, False, False),  # Duo, shown as typed
        ("Username: ", True, False, False),
    ],
)
def test_which_questions_the_password_answers(question: str, echo: bool, sent: bool, expected: bool) -> None:
    assert asks_for_password(question, echo, password_sent=sent) is expected


def test_an_expired_password_is_named_as_expired_not_as_refused(client: ClientSetup, tmp_path: Path) -> None:
    """pam_unix takes the right password, then asks "New password: " (the account must change
    it: `chage -d 0`). We sent the same password to every question, PAM said "The password has
    not been changed", and the run blamed ansible_password."""
    server = start_pam_prompt_server(tmp_path / "pam-expired", PASSWORD, None, expired=True)
    try:
        with pytest.raises(AuthenticationError) as expired:
            _log_in(client, server, tmp_path)
    finally:
        server.stop()
    message = expired.value.message
    assert f"the password of {USER} on {server.address} has expired" in message, message
    assert "then asked for a new one ('New password:')" in message, message
    assert "refused" not in message and PASSWORD not in message + (expired.value.hint or "")
    # the ssh that logs in as the run does: with the known_hosts file it reads (round 49's shared builder)
    hint = expired.value.hint or ""
    # -F: the run reads the client's config from $HOME, ssh(1) from the passwd home (hardening73_hint_config_file)
    assert (f"`ssh -F {client.config} -o UserKnownHostsFile={client.known_hosts} -p {server.port} "
            f"{USER}@{server.address}` on a terminal") in hint, hint


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("New password: ", True),
        ("Retype new password: ", True),
        ("The password has not been changed.\nNew password: ", True),
        ("Geben Sie ein neues Passwort ein: ", True),  # Linux-PAM de
        ("Geben Sie das neue Passwort erneut ein: ", True),
        ("Повторите ввод нового пароля: ", True),  # Linux-PAM ru
        (("You are required to change your password immediately (administrator enforced).\n"
          "Changing password for alice.\nCurrent password: "), False),  # the old password: ours to send
        ("Password: ", False),
    ],
)
def test_which_questions_ask_for_a_new_password(question: str, expected: bool) -> None:
    assert asks_for_new_password(question) is expected
    assert not (expected and asks_for_password(question, False, password_sent=False))


def test_a_notice_above_the_question_does_not_change_what_is_asked() -> None:
    """A one-time-code word in PAM's notice above "Password: " is not the question."""
    notice = "Your verification token expires soon; renew it at https://id.example.com\nPassword: "
    assert asks_for_password(notice, False, password_sent=False)


def test_a_mistyped_password_is_asked_again_as_ssh_asks(client: ClientSetup, tmp_path: Path) -> None:
    """ssh(1) asks a keyboard-interactive login again after a refusal, up to
    NumberOfPasswordPrompts (3) times; one typo failed the host."""
    server = start_pam_prompt_server(tmp_path / "pam-typo", PASSWORD, None)  # the machine's pam_unix
    client.trust(server)
    client.alias("lab01", server, User=USER)
    asked: list[str] = []
    typed = iter(["typo", PASSWORD])

    def person(question: str) -> str:
        asked.append(question)
        return next(typed)

    try:
        with SSHTransport.connect("lab01", client.options(batch=False, prompt=person)) as transport:
            assert _whoami(transport) == USER
    finally:
        server.stop()
    assert asked == ["(lab01) Password: "] * 2, asked
