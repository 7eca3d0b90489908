"""The logins after the keys, as ssh(1) goes on to them: keyboard-interactive (a bastion's
one-time code, a PAM password) and password, answered with the inventory's password,
$SSHPASS, or on the terminal; and what to say when none can be made."""

from __future__ import annotations

import getpass
import os
from dataclasses import replace
from typing import Callable

import paramiko

from spec_debug.errors import AuthenticationError
from spec_debug.runner.ssh_auth_options import AuthOptions, _Attempts
from spec_debug.runner.ssh_config import SSHTarget
from spec_debug.runner.ssh_login_turns import closed_mid_login
from spec_debug.runner.ssh_reach_args import reach_args
from spec_debug.runner.ssh_prompts import asks_for_new_password, asks_for_password
from spec_debug.runner.ssh_terminal import _PROMPT_LOCK, _can_ask, read_passphrase


# sshpass -e's variable (sshpass(1): "-e  The password is taken from the environment variable
# SSHPASS"): people who log in to password-only lab boxes with `sshpass -e ssh HOST` export it.
# Used as ssh(1) under sshpass would answer its password question: after the keys, for the
# host's password or keyboard-interactive login; never written to the run record or a message.
SSHPASS_VARIABLE = "SSHPASS"

# The attribute of a paramiko Transport that holds the password typed at the prompt for its
# login (none from the inventory or $SSHPASS), once the host took it: SSHTransport.connect hands
# it to the run's later connections to the host (SSHTarget.typed_password).
TYPED_PASSWORD = "spec_debug_typed_password"


def _with_sshpass(target: SSHTarget) -> SSHTarget:
    """`target` with $SSHPASS as its password, when the inventory gives none (not even an
    ansible_password lookup that came up empty: the inventory's word wins)."""
    password = os.environ.get(SSHPASS_VARIABLE)
    if target.password_source is not None or not password:
        return target
    return replace(target, password=password, password_source=f"${SSHPASS_VARIABLE} (sshpass -e)")


def _without_batch(options: AuthOptions) -> str:
    return "run without --batch" if options.batch_source == "--batch" else "set BatchMode no for this host"


def _interactive_refusal(options: AuthOptions) -> tuple[str, str] | None:
    """Why a keyboard-interactive question cannot be answered here, and what to do; None when it can."""
    key_only = "use an account that logs in with a key alone"
    if not options.interactive:
        # Also for a key known_hosts marks @revoked (ssh_hostkeys.verify_host_key): "changed" sent
        # the reader to look for a new key where the old one had been revoked on purpose.
        return ("it is disabled because the host key changed or is marked @revoked (let through by StrictHostKeyChecking no; "
                "ssh(1) disables it too)",
                "check the host key with the host's owner, and fix known_hosts if the host's key is right")
    if options.batch:
        return f"{options.batch_source} forbids prompting", f"{_without_batch(options)} to answer it, or {key_only}"
    if options.prompt is getpass.getpass and not _can_ask():
        return "there is no terminal to answer it", f"run from a terminal, or {key_only}"
    return None


def _keyboard_interactive(transport: paramiko.Transport, target: SSHTarget, options: AuthOptions, attempts: _Attempts) -> None:
    """Answer the server's keyboard-interactive questions (RFC 4256) on the terminal, as ssh(1)
    does for a bastion's one-time code or a PAM password (see _interactive_refusal for when not).

    Before, these hosts failed as "authentication failed (tried: ...)" or "multi-factor logins
    are not supported", which sent people checking keys that were fine.
    """
    where = f"{target.user}@{target.address}"
    unanswered: list[str] = []
    sent_password: list[bool] = []
    new_password_asked: list[str] = []
    asked: list[str] = []
    # The password typed for an earlier connection, sent once in place of asking (refused, the
    # retry asks: attempts.typed_refused); and the one typed now, kept once the login succeeds.
    earlier = None if target.password is not None or attempts.typed_refused else target.typed_password
    reused: list[str] = []
    typed_now: list[str] = []

    def answer(title: str, instructions: str, prompts: list[tuple[str, bool]]) -> list[str]:
        # Called on paramiko's transport thread (paramiko/auth_handler.py,
        # _parse_userauth_info_request): an exception here would kill the connection with a
        # traceback, so a missing answer is sent empty and reported after.
        said = " ".join(part.strip() for part in (title, instructions) if part.strip())
        asked.extend(text for text, _ in prompts)
        answers = []
        for text, echo in prompts:
            question = f"({target.label}) {said + ' ' if said else ''}{text.strip()} "
            if target.password is not None and asks_for_password(text, echo, password_sent=bool(sent_password)):
                # PAM's "Password: " in any language, or SSSD's "First Factor: " (ssh_prompts);
                # a one-time code's question still goes to the terminal.
                answers.append(target.password)
                sent_password.append(True)
                continue
            if target.password is not None and not echo and asks_for_new_password(text):
                new_password_asked.append(text.strip().splitlines()[-1])  # the password expired: see below
            takes_password = target.password is None and asks_for_password(text, echo, password_sent=bool(typed_now or reused))
            if earlier is not None and takes_password and not reused:
                answers.append(earlier)
                reused.append(earlier)
                continue
            if _interactive_refusal(options) is not None:
                unanswered.append(text)  # logging in with the inventory's password, nobody to ask the rest
                answers.append("")
                continue
            if options.prompt is getpass.getpass:
                reply = read_passphrase(question, attempts.give_up)
            else:
                reply = None if attempts.give_up() else options.prompt(question)
            if reply is None:
                unanswered.append(text)
            elif takes_password:
                typed_now.append(reply)
            answers.append(reply or "")
        return answers

    # One prompt at a time on the terminal, however many hosts ask at once. paramiko's wait
    # for the verdict is bounded by auth_timeout (our ConnectTimeout), which would end the
    # login while a person reads a code off a phone: unbounded here, as in ssh(1), where
    # sshd's LoginGraceTime (120 s by default) is the limit; Ctrl-C closes the transport.
    saved_timeout = transport.auth_timeout
    transport.auth_timeout = None
    with _PROMPT_LOCK, options.prompt_guard():
        attempts.tried.append("keyboard-interactive")
        attempts.offered = True
        try:
            remaining = transport.auth_interactive(target.user, answer)
        except paramiko.AuthenticationException:
            if new_password_asked and sent_password:
                # The password was right: PAM took it, then asked for a new one (an expired
                # password: `passwd -e`, `chage -d 0`, a first login on some images). Sending the
                # same one again was refused, and this read "refused the password".
                raise AuthenticationError(
                    f"{target.alias}: the password of {target.user} on {target.hostname} has expired: {where} took the "
                    f"password from {target.password_source}, then asked for a new one ({new_password_asked[0]!r})",
                    hint=f"log in once with `ssh {reach_args(target, user=True)}` on a terminal and choose a new password "
                    f"(or ask an admin: `chage -d`), then update {(target.password_source or 'the password').split(' ')[0]}",
                ) from None
            if not asked and transport.is_active():
                raise _NothingAsked(
                    f"{target.alias}: keyboard-interactive login to {where} failed without a question "
                    "(the host has nothing behind it: an sshd without PAM)",
                    hint="log in with a key, or with a password where the host takes one",
                ) from None
            if not unanswered and not transport.is_active():
                # Every question answered and the host gone: sshd's LoginGraceTime ran out, and
                # the turns say whether the answers or the host's check of them took the time.
                raise closed_mid_login(transport, target, where, during=_kbdint_phase(asked),
                                       host_checks=_KBDINT_CHECKS, our_fix=_KBDINT_SOONER) from None
            if unanswered or not transport.is_active():
                raise AuthenticationError(
                    f"{target.alias}: keyboard-interactive login to {where} abandoned: no answer given, or the host "
                    "closed the connection (sshd's LoginGraceTime)",
                ) from None
            if sent_password:
                raise _password_refused(target, where) from None
            if reused:
                attempts.typed_refused = True  # changed since it was typed: the retry asks
                raise _TypedRefused(f"{target.alias}: {where} refused the password typed for this run's earlier login") from None
            raise _AnswerRefused(
                f"{target.alias}: keyboard-interactive login to {where} failed (the answer was refused)",
                hint="check the code or password and try again",
            ) from None
        finally:
            transport.auth_timeout = saved_timeout
    if remaining:
        raise AuthenticationError(
            f"{target.alias}: server wants yet another factor after keyboard-interactive ({', '.join(remaining)})",
            hint="only key and keyboard-interactive logins are supported",
        )
    kept = typed_now[0] if len(typed_now) == 1 else reused[0] if reused and not typed_now else None
    if kept is not None:
        setattr(transport, TYPED_PASSWORD, kept)


# What sshd may be slow to check keyboard-interactive answers with, and how this side is quicker.
_KBDINT_CHECKS = "the answers (PAM: LDAP/sssd, a one-time code's RADIUS or OTP server)"
_KBDINT_SOONER = ("answer the questions sooner, or give the password in the inventory (ansible_password) or $SSHPASS, "
                  "or install a key (ssh-copy-id)")


def _kbdint_phase(asked: list[str]) -> str:
    return "while the keyboard-interactive questions were answered" if asked else "before any keyboard-interactive question"


def _usable_logins(target: SSHTarget, options: AuthOptions, allowed: list[str]) -> list[str]:
    """The keyboard-interactive and password logins (of those `allowed`, in the config's order)
    that can be tried: the inventory gives the password, or someone at a terminal can type it."""
    if not options.interactive:
        return []  # a changed or @revoked host key let through: ssh(1) turns both off (see _interactive_refusal)
    if target.password is None and _interactive_refusal(options) is not None:
        return []
    usable = [method for method in target.login_methods if method in allowed]
    if target.password is None and target.password_prompts == 0:
        usable = [method for method in usable if method != "password"]  # NumberOfPasswordPrompts 0
    return usable


def _can_log_in_without_key(target: SSHTarget, options: AuthOptions, allowed: list[str]) -> bool:
    return bool(_usable_logins(target, options, allowed))


def _log_in_without_key(
    transport: paramiko.Transport, target: SSHTarget, options: AuthOptions, attempts: _Attempts, allowed: list[str]
) -> bool:
    """Log in as ssh(1) goes on after the keys (PreferredAuthentications; by default
    keyboard-interactive, then password); False when neither can be tried. Raises
    AuthenticationError when the login tried is refused."""
    usable = _usable_logins(target, options, allowed)
    if not usable:
        return False
    if usable[0] == "keyboard-interactive":
        try:
            _keyboard_interactive_retrying(transport, target, options, attempts)
        except _NothingAsked:
            # An sshd built without PAM (Alpine; the openssh-server containers built on it)
            # offers keyboard-interactive, its compiled default, and refuses it at once: ssh(1)
            # goes on to the next method, the password (openssh-portable: sshconnect2.c,
            # userauth, on SSH2_MSG_USERAUTH_FAILURE). We stopped at "the answer was refused".
            if "password" not in usable[1:]:
                raise
            _password_login(transport, target, options, attempts)
    else:
        _password_login(transport, target, options, attempts)
    return True


class _NothingAsked(AuthenticationError):
    """A keyboard-interactive login refused before any question was asked."""


class _AnswerRefused(AuthenticationError):
    """A keyboard-interactive login refused the answers typed at the terminal."""


class _TypedRefused(_AnswerRefused):
    """A keyboard-interactive login refused the password typed for an earlier connection."""


def _keyboard_interactive_retrying(
    transport: paramiko.Transport, target: SSHTarget, options: AuthOptions, attempts: _Attempts
) -> None:
    """keyboard-interactive, asked again after a typo as ssh(1) asks again, up to
    NumberOfPasswordPrompts times (openssh-portable: sshconnect2.c, userauth_kbdint counts
    attempt_kbdint against number_of_password_prompts). One mistyped password failed the host."""
    attempt = 0
    while True:
        try:
            _keyboard_interactive(transport, target, options, attempts)
            return
        except _AnswerRefused as refused:
            # The password typed for an earlier connection counts as no prompt: it was not asked.
            if not isinstance(refused, _TypedRefused):
                attempt += 1
            if attempt >= max(1, target.password_prompts) or not transport.is_active():
                raise


def _password_login(transport: paramiko.Transport, target: SSHTarget, options: AuthOptions, attempts: _Attempts) -> None:
    """SSH's `password` method (RFC 4252, section 8): sshd's PasswordAuthentication, the only way
    into a fresh Ubuntu box (its sshd_config turns keyboard-interactive off) before a key is
    installed. The inventory's password is sent once; else asked on the terminal with ssh(1)'s
    question, `user@host's password: ` (openssh-portable: sshconnect2.c, userauth_passwd)."""
    where = f"{target.user}@{target.address}"
    if target.password is not None:
        attempts.tried.append(f"password from {target.password_source}")
        attempts.offered = True
        _send_password(transport, target, target.password, where, lambda: _password_refused(target, where))
        return
    if target.typed_password is not None:
        # Typed at the prompt for this run's earlier connection: the host asks no one again,
        # unless it refuses it now (changed since), and then the prompt follows.
        attempts.tried.append("password typed earlier in the run")
        attempts.offered = True
        if _send_password(transport, target, target.typed_password, where, lambda: None):
            setattr(transport, TYPED_PASSWORD, target.typed_password)
            return
    question = f"({target.label}) {target.user}@{target.hostname}'s password: "
    for _ in range(target.password_prompts):
        with _PROMPT_LOCK, options.prompt_guard():
            if options.prompt is getpass.getpass:
                typed = read_passphrase(question, attempts.give_up)
            else:
                typed = None if attempts.give_up() else options.prompt(question)
        if typed is None:
            raise AuthenticationError(f"{target.alias}: password login to {where} abandoned: no password given")
        attempts.tried.append("password")
        attempts.offered = True
        if _send_password(transport, target, typed, where, lambda: None):
            setattr(transport, TYPED_PASSWORD, typed)
            return
    raise AuthenticationError(
        f"{target.alias}: {where} refused the password {target.password_prompts} time{'s' if target.password_prompts != 1 else ''}",
        hint=_root_password_hint(target) or "check the user name and the password (`ssh` asks the same question)",
    )


# What sshd may be slow to check a password with (its PAM stack: pam_ldap, pam_sss, pam_krb5).
_PASSWORD_CHECKS = "the password (PAM: LDAP/sssd, Kerberos)"
_PASSWORD_SOONER = "type the password sooner, or give it in the inventory (ansible_password) or $SSHPASS, or install a key (ssh-copy-id)"


def _send_password(
    transport: paramiko.Transport, target: SSHTarget, password: str, where: str, refused: Callable[[], AuthenticationError | None]
) -> bool:
    """Send one password; True once logged in, False when refused (or raise refused()'s error)."""
    if not transport.is_active():
        # The host hung up while the password was typed (past sshd's LoginGraceTime): paramiko
        # would say only "No existing session".
        raise closed_mid_login(transport, target, where, during="before the password was sent",
                               host_checks=_PASSWORD_CHECKS, our_fix=_PASSWORD_SOONER)
    try:
        # fallback=False: paramiko would otherwise resend it as a keyboard-interactive answer.
        remaining = transport.auth_password(target.user, password, fallback=False)
    except paramiko.AuthenticationException:
        if not transport.is_active():
            # sshd past MaxAuthTries says so (the reason); a slow PAM or LDAP check of the
            # password outlasts LoginGraceTime in silence.
            raise closed_mid_login(transport, target, where, during="after the password was sent",
                                   host_checks=_PASSWORD_CHECKS, our_fix=_PASSWORD_SOONER) from None
        error = refused()
        if error is not None:
            raise error from None
        return False
    if remaining:
        raise AuthenticationError(
            f"{target.alias}: server wants another factor after the password ({', '.join(remaining)})",
            hint="only key and keyboard-interactive second factors are supported",
        )
    return True


def _password_refused(target: SSHTarget, where: str) -> AuthenticationError:
    return AuthenticationError(
        f"{target.alias}: {where} refused the password from {target.password_source}",
        hint=_root_password_hint(target) or f"check {(target.password_source or 'the password').split(' ')[0]} for this host "
        "(`ssh` with the same user and password shows whether it is the password or the account)",
    )


def _root_password_hint(target: SSHTarget) -> str | None:
    """sshd refuses every password for root by default (PermitRootLogin prohibit-password,
    sshd_config(5)) with the same failure as a wrong one."""
    if target.user != "root":
        return None
    return "sshd takes no password for root unless PermitRootLogin yes (the default is prohibit-password): " \
        "log in as your own user (ansible_user), or with a key"


def _no_password(target: SSHTarget, options: AuthOptions) -> str:
    """Why no password was sent, to end `... takes a password, `."""
    if "password" not in target.login_methods:
        return "which your ssh config turns off (PasswordAuthentication no, or PreferredAuthentications without it)"
    if target.password_source is not None and target.password is None:
        return f"but {target.password_source} gives none"
    if not options.interactive:
        return "which ssh(1) and spec-debug do not send to a host let in by StrictHostKeyChecking no (its key changed or @revoked)"
    refused = _interactive_refusal(options)
    why = refused[0] if refused is not None else "none was typed"
    # "which spec-debug does not use" is what this said before passwords could be given.
    return f"which spec-debug does not use without one in the inventory (ansible_password), and {why}"


def _password_hint(target: SSHTarget, options: AuthOptions, admin: str) -> str:
    """What to do for a host that takes a password when none could be sent."""
    if "password" not in target.login_methods:
        return f"allow passwords for this host in your ssh config to log in with one; or {admin}"
    if target.password_source is not None and target.password is None:
        if target.password_source.endswith("which is not set)"):
            return f"export the variable and run again; or {admin}"
        return f"pass the password through the environment: ansible_password: \"{{{{ lookup('env', 'NAME') }}}}\"; or {admin}"
    if not options.interactive:
        return "check the new host key with the host's owner and fix known_hosts"
    typed = f"{_without_batch(options)} to type it, " if options.batch else "run from a terminal to type it, "
    return (f"the host takes a password: set ansible_password for it in an inventory (--inventory), "
            f"export it as ${SSHPASS_VARIABLE} (as for sshpass -e), {typed}or {admin}")
