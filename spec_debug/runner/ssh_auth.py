"""Public-key authentication in the order ssh(1) uses: agent keys, then identity files (each
with the user certificates that certify it first; FIDO agent keys nobody configured after
them, see _offer_keys), then keyboard-interactive (a bastion's
one-time code) answered on the terminal unless --batch or BatchMode forbids prompts.

Follows ssh_config(5): with IdentityFile set, only those files (plus agent keys); without,
the default ~/.ssh/id_* files; `IdentitiesOnly yes` limits agent keys to the configured
files; the agent is IdentityAgent's socket when the config names one. An encrypted key
asks for its passphrase once per run (shared by every host thread), or, in batch mode,
fails with a message that says to load it into ssh-agent (AddKeysToAgent puts a key opened
from its file there, see ssh_agent_add). A host's password comes from the inventory
(ansible_password), else $SSHPASS (as sshpass -e gives it), else the terminal; which
keyboard-interactive question it answers is ssh_prompts' to say.
"""

from __future__ import annotations

import base64
import copy
import getpass
import os
import re
import select
import socket
import sys
import termios
import threading
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field, replace
from typing import Callable

import paramiko

from spec_debug.errors import AuthenticationError
from spec_debug.runner.ssh_agent_add import add_to_agent
from spec_debug.runner.ssh_askpass import ask_with_program, askpass_program
from spec_debug.runner.ssh_config import DEFAULT_IDENTITY_FILES, AddKeysToAgent, SSHTarget
from spec_debug.runner.ssh_errors import HandshakeError
from spec_debug.runner.ssh_hostkeys import SHA1_RSA, allow_sha1_rsa_signing
from spec_debug.runner.ssh_prompts import asks_for_new_password, asks_for_password

PassphrasePrompt = Callable[[str], str]

# Decrypted keys by path, so a 16-host fleet prompts once, not 16 times.
_KEY_CACHE: dict[str, paramiko.PKey] = {}
_PROMPT_LOCK = threading.Lock()


@dataclass(frozen=True)
class AuthOptions:
    batch: bool = False
    """Never prompt: an encrypted key that is not in the agent is an error."""
    batch_source: str = "--batch"
    """What asked for batch mode, as messages name it (--batch, or BatchMode in ssh config)."""
    use_agent: bool = True
    prompt: PassphrasePrompt = field(default=getpass.getpass)
    prompt_guard: Callable[[], AbstractContextManager[object]] = nullcontext
    """Entered while a passphrase prompt is on the terminal: a live progress display pauses
    in it, or its next redraw erases the prompt and the run seems stuck at "starting…"."""
    interactive: bool = True
    """Whether a keyboard-interactive login (a bastion's one-time code) may be answered; off
    after a changed host key was let through, as ssh(1) turns it off then."""
    refused_by_agent: tuple[tuple[bytes, str], ...] = ()
    """Agent keys (blob, label) ssh-agent would not sign with on an earlier connection of this
    login: skipped, as ssh(1) skips to its next key (ssh_connect, _handshake_retrying)."""


@dataclass
class _Attempts:
    tried: list[str] = field(default_factory=list)
    encrypted_skipped: list[str] = field(default_factory=list)
    no_terminal: bool = False
    """An encrypted key was skipped because there is no terminal to ask for its passphrase."""
    agent_unreachable: str | None = None
    """IdentityAgent's socket and why it could not be reached."""
    missing: list[str] = field(default_factory=list)
    """Configured identity files that do not exist (a typo, a key left on another machine)."""
    give_up: Callable[[], bool] = lambda: False
    """True once the login is over without us (the connection closed: the run was interrupted)."""
    sha1_rsa_only: bool = False
    """An RSA key was refused by a server that names no signature algorithms (sshd < 7.2)."""


def authenticate(transport: paramiko.Transport, target: SSHTarget, options: AuthOptions) -> None:
    """Authenticate `target.user` on an started transport; raise AuthenticationError."""
    # abandon_connects() (Ctrl-C) closes the transport of a login in progress.
    attempts = _Attempts(give_up=lambda: not transport.is_active())
    if target.batch_mode and not options.batch:
        # ssh_config(5), BatchMode: "user interaction such as password prompts and host key
        # confirmation requests will be disabled"; we prompted where ssh(1) fails at once.
        options = replace(options, batch=True, batch_source="BatchMode yes in your ssh config")
    target = _with_sshpass(target)
    files = _identity_files(target)
    # No key at all where the config turns key logins off, as ssh(1) offers none (_no_key_logins).
    agent = _open_agent(target, options, attempts) if target.key_logins is None else None
    try:
        if target.key_logins is None and _offer_keys(transport, target, options, attempts, agent, files):
            return
    except _KeysNotAccepted as refused:
        # The host takes no keys at all, only a password or a keyboard-interactive login (a
        # password or a code through PAM): ssh(1) goes on to ask for it, and so do we where
        # someone can answer or the inventory gives the password.
        _log_in_without_key(transport, target, options, attempts, refused.allowed)
        return
    finally:
        if agent is not None:
            agent.close()
    interactive_refused = None
    allowed = _allowed_methods(transport, target)
    if "keyboard-interactive" in allowed and transport.is_authenticated():
        return  # the server let "none" in (RFC 4252, 5.2)
    if _log_in_without_key(transport, target, options, attempts, allowed):
        return
    if "keyboard-interactive" in allowed:
        interactive_refused = _interactive_refusal(options)
    where = f"{target.user}@{target.hostname}:{target.port}"
    # Agent keys refused on earlier connections of this login (_handshake_retrying in ssh_connect).
    declined = [label for _, label in options.refused_by_agent]
    if declined and not attempts.tried and not attempts.encrypted_skipped:
        raise AuthenticationError(f"{target.alias}: ssh-agent would not sign with {', '.join(declined)}", hint=_AGENT_REFUSED_HINT)
    also_declined = f"; ssh-agent would not sign with {', '.join(declined)}" if declined else ""
    if attempts.encrypted_skipped and not attempts.tried and attempts.no_terminal:
        skipped = ", ".join(attempts.encrypted_skipped)
        raise AuthenticationError(
            f"{target.alias}: private key {skipped} is encrypted and there is no terminal to ask for its passphrase{also_declined}",
            hint=f"load it into ssh-agent first (ssh-add {attempts.encrypted_skipped[0]}), or name a program that prints it "
            "in SSH_ASKPASS with SSH_ASKPASS_REQUIRE=force, as for ssh; in scripts and CI also pass --batch",
        )
    if attempts.encrypted_skipped and not attempts.tried:
        skipped = ", ".join(attempts.encrypted_skipped)
        raise AuthenticationError(
            f"{target.alias}: private key {skipped} is encrypted and {options.batch_source} forbids the passphrase prompt{also_declined}",
            hint=f"load it into ssh-agent first (ssh-add {attempts.encrypted_skipped[0]}) or {_without_batch(options)}",
        )
    nothing = "no identity files" if attempts.agent_unreachable else "agent empty, no identity files"
    if target.key_logins is not None:
        nothing = f"key logins are off for this host in your ssh config ({target.key_logins})"
    tried_keys = [*(f"{label} (ssh-agent would not sign with it)" for label in declined), *attempts.tried]
    tried = ", ".join(tried_keys) or (nothing if target.key_logins is not None else f"no keys found ({nothing})")
    if attempts.missing:
        tried = (", ".join(tried_keys) + "; " if tried_keys else "") + f"no such IdentityFile: {', '.join(attempts.missing)}"
    if attempts.agent_unreachable:
        tried += f"; ssh-agent not reached: {attempts.agent_unreachable}"
    token = target.pkcs11_provider if target.key_logins is None else None
    if token is not None:
        # A PIV smart card or YubiKey (PKCS11Provider, ssh -I): ssh(1) loads the library and
        # signs with the card; paramiko cannot. Named here, it was "no keys found".
        tried += f"; the keys of PKCS11Provider {token} (a smart card or security token), which spec-debug cannot read itself"
    if interactive_refused is not None:
        tried += f"; the host also takes a keyboard-interactive login (a password or one-time code), but {interactive_refused[0]}"
    hint = "check User and IdentityFile in your ssh config; `ssh -v` shows what ssh(1) offers"
    if "password" in allowed:
        # What `ssh` would have done next: ask for the password. Nobody can type it here and
        # the inventory gave none (or one we cannot read): say so, and how to install a key.
        tried += f"; the host would also take a password, {_no_password(target, options)}"
        hint = f"install your public key there once: `ssh-copy-id {_ssh_copy_id_args(target)}`; or {_password_hint(target, options, hint)}"
    unsupported = _unsupported_logins(allowed)
    if unsupported:
        tried += f"; the host also takes {unsupported}, which spec-debug cannot make"
        hint = f"{_KEY_FOR_A_CLUSTER}; or {hint}"
    if attempts.sha1_rsa_only:
        # The server sent no server-sig-algs (RFC 8308), as sshd before 7.2 does: it knows only
        # SHA-1 RSA signatures and refused our rsa-sha2-512 one as it would a wrong key.
        hint = (f"{transport.remote_version} is older than OpenSSH 7.2 and takes RSA keys only with SHA-1 (ssh-rsa) "
                "signatures: add `PubkeyAcceptedAlgorithms +ssh-rsa` for this host to your ssh config (as OpenSSH 8.8+ "
                f"needs too), or log in with an ed25519 or ECDSA key; or {hint}")
    if token is not None:
        hint = f"load the token's keys into ssh-agent, which spec-debug signs with: `ssh-add -s {token}`; or {hint}"
    if options.refused_by_agent:
        hint = f"{_AGENT_REFUSED_HINT}; or {hint}"
    if target.user == "root" and attempts.tried:
        # sshd refuses every root login under PermitRootLogin no (the default on many images;
        # sshd_config(5)) whatever the key, with the same "Permission denied" as a wrong key.
        hint = f"many hosts refuse root logins (sshd PermitRootLogin no): log in as your own user (USER@HOST); or {hint}"
    raise AuthenticationError(f"{target.alias}: authentication failed for {where} (tried: {tried})", hint=hint)


# sshpass -e's variable (sshpass(1): "-e  The password is taken from the environment variable
# SSHPASS"): people who log in to password-only lab boxes with `sshpass -e ssh HOST` export it.
# Used as ssh(1) under sshpass would answer its password question: after the keys, for the
# host's password or keyboard-interactive login; never written to the run record or a message.
SSHPASS_VARIABLE = "SSHPASS"


def _with_sshpass(target: SSHTarget) -> SSHTarget:
    """`target` with $SSHPASS as its password, when the inventory gives none (not even an
    ansible_password lookup that came up empty: the inventory's word wins)."""
    password = os.environ.get(SSHPASS_VARIABLE)
    if target.password_source is not None or not password:
        return target
    return replace(target, password=password, password_source=f"${SSHPASS_VARIABLE} (sshpass -e)")


def _offer_keys(
    transport: paramiko.Transport, target: SSHTarget, options: AuthOptions, attempts: _Attempts,
    agent: paramiko.Agent | None, files: list[str],
) -> bool:
    """Offer the agent's keys and the identity files in ssh(1)'s order; True once one logs in.
    Raises _KeysNotAccepted when the host takes no keys but a keyboard-interactive login can
    be answered."""
    offered_by_agent: set[bytes] = set()
    token_keys: list[paramiko.PKey] = []
    if agent is not None:
        configured = _public_blobs(files)
        # ssh(1)'s order (openssh-portable: sshconnect2.c, pubkey_prepare): agent keys that
        # are configured identities first, then the agent's others (none under
        # IdentitiesOnly), then the files the agent does not hold. In the agent's own
        # order, the host's key behind 10 others was never reached: sshd ends the login
        # at MaxAuthTries (6), where ssh(1) offers that key first.
        refused = {blob for blob, _ in options.refused_by_agent}
        held = [key for key in agent.get_keys() if key.asbytes() not in refused]
        agent_keys = [key for key in held if key.asbytes() in configured]
        if not target.identities_only:
            agent_keys += [key for key in held if key.asbytes() not in configured and not _needs_a_token(key)]
            # FIDO keys nobody configured go last: a failed signature (no token plugged in)
            # ends the whole connection in paramiko, where ssh(1) just tries its next key.
            token_keys = [key for key in held if key.asbytes() not in configured and _needs_a_token(key)]
        for key in agent_keys:
            offered_by_agent.add(key.asbytes())
            for offer, label in _agent_offers(key, files, target):
                if _try_key(transport, target, offer, label, attempts, options):
                    return True
    if _offer_files(transport, target, options, attempts, files, offered_by_agent, agent):
        return True
    for key in token_keys:
        if _try_key(transport, target, key, f"agent key {key.fingerprint}", attempts, options):
            return True
    return False


def _needs_a_token(key: paramiko.PKey) -> bool:
    """A FIDO security key (`sk-ssh-ed25519@openssh.com`, `sk-ecdsa-sha2-nistp256@openssh.com`),
    which signs only with its hardware token plugged in and touched."""
    return key.get_name().startswith("sk-")


def _offer_files(
    transport: paramiko.Transport, target: SSHTarget, options: AuthOptions, attempts: _Attempts,
    files: list[str], offered_by_agent: set[bytes], agent: paramiko.Agent | None,
) -> bool:
    """Offer the identity files (each with its certificates) the agent did not already offer."""
    for path in files:
        if _public_blobs([path]) & offered_by_agent:
            continue  # ssh(1) offers a key once: refused from the agent (certificates too), its file is not opened
        key = _load_key(path, options, attempts)
        if key is None:
            continue
        if agent is not None and target.add_keys_to_agent is not None:
            _hand_to_agent(agent, key, path, target.add_keys_to_agent, options, attempts)
        for certified, label in _with_certificates(key, path, target):
            if _try_key(transport, target, certified, label, attempts, options):
                return True
    return False


# Key files handed to the agent in this run (AddKeysToAgent): once, however many hosts use them.
_HANDED_TO_AGENT: set[str] = set()
_AGENT_LOCK = threading.Lock()


def _hand_to_agent(
    agent: paramiko.Agent, key: paramiko.PKey, path: str, how: AddKeysToAgent, options: AuthOptions, attempts: _Attempts
) -> None:
    """AddKeysToAgent: put a key just opened from its file into the agent, as ssh(1) does
    whether or not the host then takes it (see ssh_agent_add); `ask` asks first, as ssh(1)
    asks through ssh-askpass, and adds nothing where no one can answer."""
    with _AGENT_LOCK:
        if path in _HANDED_TO_AGENT:
            return
        _HANDED_TO_AGENT.add(path)
    if how.ask:
        answer = ask_on_terminal(f"Add key {_short(path)} to agent? (yes/no) ", options, attempts.give_up)
        if (answer or "").strip().lower() not in ("yes", "y"):
            return
    add_to_agent(agent, key, _short(path), how)


def _ssh_copy_id_args(target: SSHTarget) -> str:
    port = f"-p {target.port} " if target.port != 22 else ""
    return f"{port}{target.user}@{target.hostname}"


class _KeysNotAccepted(Exception):
    """The host refuses public keys outright and another login it allows can be tried."""

    def __init__(self, allowed: list[str]) -> None:
        super().__init__(allowed)
        self.allowed = allowed


class _AgentAt(paramiko.Agent):
    """The ssh-agent listening at a given socket; paramiko.Agent only reads $SSH_AUTH_SOCK."""

    def __init__(self, sock: socket.socket) -> None:
        paramiko.agent.AgentSSH.__init__(self)
        self._connect(sock)


def _open_agent(target: SSHTarget, options: AuthOptions, attempts: _Attempts) -> paramiko.Agent | None:
    """The agent ssh(1) would ask: IdentityAgent's socket when the config names one (1Password,
    Secretive, gpg-agent and forwarded agents are reached this way, often with no
    $SSH_AUTH_SOCK at all), none for `IdentityAgent none`, else $SSH_AUTH_SOCK's."""
    where = target.identity_agent
    if not options.use_agent or (where is not None and where.lower() == "none"):
        return None
    label = "IdentityAgent"
    if where is None or where == "SSH_AUTH_SOCK":
        # paramiko.Agent() quietly holds no keys when $SSH_AUTH_SOCK names a dead socket (a
        # tmux or screen session that outlived the login that started its agent): the
        # failure then read "agent empty". Connected here, the reason is kept for it.
        where, label = os.environ.get("SSH_AUTH_SOCK") or None, "SSH_AUTH_SOCK"
        if where is None:
            return None
    path = os.path.expanduser(where)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(path)
        return _AgentAt(sock)
    except (OSError, paramiko.SSHException) as exc:
        # ssh(1) also goes on with the key files when the agent is not there (1Password locked).
        sock.close()
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        attempts.agent_unreachable = f"{label} {_short(path)}: {reason}"
        return None


def _identity_files(target: SSHTarget) -> list[str]:
    configured = [os.path.expanduser(path) for path in target.identity_files]
    if configured:
        # `IdentityFile none`: no file, and no default ones either (ssh(1) then offers only
        # agent keys); it was reported as a missing file named "none".
        return list(dict.fromkeys(path for path in configured if path.lower() != "none"))
    return [os.path.expanduser(path) for path in DEFAULT_IDENTITY_FILES if os.path.isfile(os.path.expanduser(path))]


def _public_blobs(files: list[str]) -> set[bytes]:
    """Public key blobs of the configured identities, from FILE itself when it is a public key
    (ssh_config(5) allows that, to pick a key held by the agent), `FILE.pub`, or the public
    part of an OpenSSH-format private key FILE, in ssh(1)'s order."""
    blobs: set[bytes] = set()
    for path in files:
        blob = _public_blob(path) or _public_blob(path + ".pub") or _public_blob(path, from_private=True)
        if blob is not None:
            blobs.add(blob)
    return blobs


def _public_blob(path: str, *, from_private: bool = False) -> bytes | None:
    """The public key blob of a public key file (or, `from_private`, of an OpenSSH-format
    private key file); None for anything else."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read(65536)
    except (OSError, UnicodeDecodeError):
        return None
    if text.lstrip().startswith(_OPENSSH_PRIVATE_BEGIN):
        return _private_file_public_blob(text) if from_private else None
    try:
        fields = text.split()
        return paramiko.PublicBlob.from_string(f"{fields[0]} {fields[1]}").key_blob
    except (IndexError, ValueError):
        return None


_OPENSSH_PRIVATE_BEGIN = "-----BEGIN OPENSSH PRIVATE KEY-----"
_OPENSSH_PRIVATE_MAGIC = b"openssh-key-v1\x00"


def _private_file_public_blob(text: str) -> bytes | None:
    """The public key an OpenSSH-format private key file carries in clear, even when the key
    is encrypted (openssh-portable: PROTOCOL.key; sshkey.c, sshkey_parse_private2).

    ssh(1) reads it when an IdentityFile has no `.pub` beside it (sshconnect2.c,
    pubkey_prepare, via sshkey_load_public), so `IdentitiesOnly yes` still lets the agent
    sign with that key. Without it, every agent key was skipped, and an encrypted key file
    then failed under --batch ("forbids the passphrase prompt") although ssh-agent held it.
    """
    body = text.strip()[len(_OPENSSH_PRIVATE_BEGIN):].split("-----END", 1)[0]
    try:
        raw = base64.b64decode("".join(body.split()), validate=True)
        if not raw.startswith(_OPENSSH_PRIVATE_MAGIC):
            return None
        message = paramiko.Message(raw[len(_OPENSSH_PRIVATE_MAGIC):])
        for _ in range(3):  # cipher name, KDF name, KDF options
            message.get_binary()
        if message.get_int() < 1:
            return None
        blob = message.get_binary()
    except (ValueError, IndexError, TypeError, paramiko.SSHException):
        return None
    return blob or None


def _with_certificates(key: paramiko.PKey, path: str, target: SSHTarget) -> list[tuple[paramiko.PKey, str]]:
    """`key` with each user certificate that certifies it, then `key` alone, as ssh(1) offers
    them: `FILE-cert.pub` beside the identity and CertificateFile entries (ssh_config(5),
    CertificateFile; openssh-portable: sshconnect2.c, pubkey_prepare). Before, fleets that log
    in by certificate (sshd TrustedUserCAKeys) failed: only the bare key was offered.
    """
    return _certified((path + "-cert.pub", *target.certificate_files), key, _short(path))


def _agent_offers(key: paramiko.PKey, files: list[str], target: SSHTarget) -> list[tuple[paramiko.PKey, str]]:
    """An agent key with the certificates of the identity files it is the key of, and the
    CertificateFile entries, then alone. ssh(1) signs a certificate's login with the agent's
    key (sshconnect2.c, pubkey_prepare): a key kept in the agent while a CA reissues its
    certificate file (Vault, step-ca: daily) logs in; we offered the agent key bare, were
    refused, and its encrypted file could not be opened under --batch."""
    beside = [path + "-cert.pub" for path in files if key.asbytes() in _public_blobs([path])]
    return _certified((*beside, *target.certificate_files), key, f"agent key {key.fingerprint}")


def _certified(certificates: tuple[str, ...], key: paramiko.PKey, label: str) -> list[tuple[paramiko.PKey, str]]:
    offers: list[tuple[paramiko.PKey, str]] = []
    for certificate in dict.fromkeys(certificates):
        try:
            blob = paramiko.PublicBlob.from_file(certificate)
        except (OSError, ValueError, IndexError, UnicodeDecodeError):
            continue  # none there (the usual case), or not a certificate
        if not _certifies(blob, key):
            continue
        certified = _copy_of(key)  # the cached key stays bare
        certified.load_certificate(certificate)
        offers.append((certified, f"{label} with certificate {_short(certificate)}"))
    bare = key
    if key.public_blob is not None:  # PKey.from_path loads FILE-cert.pub itself (paramiko/pkey.py)
        bare = copy.copy(key)
        bare.public_blob = None
    return [*offers, (bare, label)]


def _copy_of(key: paramiko.PKey) -> paramiko.PKey:
    """A copy to load a certificate into. An agent key is made anew from its blob: copy.copy
    of paramiko's AgentKey recurses without end in its __getattr__ (paramiko/agent.py)."""
    if isinstance(key, paramiko.AgentKey):
        return paramiko.AgentKey(key.agent, key.blob, getattr(key, "comment", ""))
    return copy.copy(key)


def _certifies(blob: paramiko.PublicBlob, key: paramiko.PKey) -> bool:
    """Whether a certificate is for `key`: after its type and nonce, a certificate carries the
    key's public fields as they follow the type in the key's own blob (PROTOCOL.certkeys)."""
    if not blob.key_type.endswith("-cert-v01@openssh.com") or not blob.key_type.startswith(key.get_name()):
        return False
    try:
        message = paramiko.Message(blob.key_blob)
        message.get_binary()  # type
        message.get_binary()  # nonce
        rest = message.get_remainder()
        own = paramiko.Message(key.asbytes())
        own.get_binary()  # type
        return rest.startswith(own.get_remainder())
    except (ValueError, IndexError, TypeError, paramiko.SSHException):
        return False


def _load_key(path: str, options: AuthOptions, attempts: _Attempts) -> paramiko.PKey | None:
    if path in _KEY_CACHE:
        return _KEY_CACHE[path]
    if not os.path.isfile(path):
        # ssh(1) says so only with -v ("no such identity"); the failure below names it.
        attempts.missing.append(_short(path))
        return None
    if _public_blob(path) is not None:
        # A public key as IdentityFile: it chose an agent key above; the private key, if
        # any, is the file without `.pub` (what people mean when they point at the .pub).
        private = path[: -len(".pub")] if path.endswith(".pub") else None
        if private and os.path.isfile(private):
            return _load_key(private, options, attempts)
        attempts.tried.append(f"{_short(path)} (a public key, and no such key in ssh-agent)")
        return None
    try:
        key = paramiko.PKey.from_path(path)
    except TypeError:  # cryptography: "Key is password-protected, but password was not provided"
        return _load_encrypted_key(path, options, attempts)
    except (ValueError, OSError, paramiko.SSHException) as exc:
        attempts.tried.append(f"{_short(path)} (unreadable: {_unreadable_reason(path, exc)})")
        return None
    except Exception as exc:  # noqa: BLE001 - see _unusable: one key file must not fail the host
        attempts.tried.append(f"{_short(path)} ({_unusable(exc)})")
        return None
    _KEY_CACHE[path] = key
    return key


def _unusable(exc: BaseException) -> str:
    """Why a key file that parses as a key cannot be used, for the "tried:" list.

    cryptography refuses FIDO security keys (`sk-ssh-ed25519@openssh.com`, `ssh-keygen -t
    ed25519-sk`: "sk-ssh-ed25519 private keys cannot be loaded", UnsupportedAlgorithm), which
    paramiko cannot sign with, and raises assorted errors (AssertionError, UnsupportedAlgorithm)
    on a damaged file. Escaping the login, either failed the host as "internal error", although
    ssh(1) goes on to the next identity and a later key in the list would have worked.
    """
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if "sk-" in text:
        return "a FIDO security key (-sk), which spec-debug cannot use: give it a plain ed25519 key too"
    return f"unusable: {text}"


def _load_encrypted_key(path: str, options: AuthOptions, attempts: _Attempts) -> paramiko.PKey | None:
    if options.batch:
        attempts.encrypted_skipped.append(_short(path))
        return None
    if options.prompt is getpass.getpass and not _can_ask():
        # getpass falls back to reading stdin without a terminal: in CI or under nohup that
        # blocks forever on an open pipe, or fails with EOFError on /dev/null.
        attempts.encrypted_skipped.append(_short(path))
        attempts.no_terminal = True
        return None
    with _PROMPT_LOCK:
        if path in _KEY_CACHE:  # another host thread asked while we waited
            return _KEY_CACHE[path]
        with options.prompt_guard():
            key = _ask_passphrase(path, options, attempts)
        if key is not None:
            return key
    if not (attempts.tried and attempts.tried[-1].startswith(f"{_short(path)} (")):  # _unusable said why already
        attempts.tried.append(f"{_short(path)} (encrypted, no valid passphrase given)")
    return None


def _ask_passphrase(path: str, options: AuthOptions, attempts: _Attempts) -> paramiko.PKey | None:
    """Up to three tries, like ssh(1); None when none opened the key (or no answer came)."""
    for _ in range(3):
        question = f"Enter passphrase for key '{_short(path)}': "
        if options.prompt is getpass.getpass:
            passphrase = read_passphrase(question, attempts.give_up)
        else:
            passphrase = None if attempts.give_up() else options.prompt(question)
        if not passphrase:
            return None
        try:
            key = paramiko.PKey.from_path(path, passphrase.encode())
        except (ValueError, TypeError):
            continue  # wrong passphrase: ask again, like ssh(1)
        except Exception as exc:  # noqa: BLE001 - opened, but a key we cannot use (_unusable)
            attempts.tried.append(f"{_short(path)} ({_unusable(exc)})")
            return None
        _KEY_CACHE[path] = key
        return key
    return None


_PROMPT_POLL_S = 0.1


def ask_on_terminal(question: str, options: AuthOptions, give_up: Callable[[], bool]) -> str | None:
    """Someone's answer to a yes/no question (an unknown host key), shown as typed; None when no
    one can answer: --batch (or BatchMode), no terminal, or the login was abandoned.

    Asked one at a time across host threads, inside the prompt guard (the live display pauses),
    as the passphrase prompts are."""
    if options.batch or (options.prompt is getpass.getpass and not _can_ask()):
        return None
    with _PROMPT_LOCK, options.prompt_guard():
        if options.prompt is getpass.getpass:
            return read_passphrase(question, give_up, echo=True)
        return None if give_up() else options.prompt(question)


def read_passphrase(question: str, give_up: Callable[[], bool], *, echo: bool = False) -> str | None:
    """getpass.getpass on the terminal, given up (None) as soon as `give_up()` is true.

    getpass blocks in a read of /dev/tty that nothing can interrupt from another thread, with
    echo turned off until it returns (cpython: Lib/getpass.py, unix_getpass). Asked from a host
    thread, Ctrl-C then left the run waiting for Enter, and a run killed there left the
    terminal without echo. Here the read waits in poll() and gives up when the login is
    abandoned; echo comes back in every case.
    """
    if give_up():
        return None
    program = askpass_program(has_terminal=_have_terminal())
    if program is not None:
        return ask_with_program(program, question.strip(), give_up)
    fallback = input if echo else getpass.getpass
    try:
        tty = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return fallback(question)  # no terminal of our own: stdin, a terminal (_have_terminal)
    try:
        try:
            saved = termios.tcgetattr(tty)
        except termios.error:
            return fallback(question)  # /dev/tty is not a terminal we can set up
        quiet = list(saved)
        if not echo:
            quiet[3] &= ~termios.ECHO  # lflags
        termios.tcsetattr(tty, termios.TCSAFLUSH, quiet)
        try:
            return _read_line(tty, question, give_up)
        finally:
            termios.tcsetattr(tty, termios.TCSAFLUSH, saved)
            os.write(tty, b"\n")
    except (OSError, termios.error):
        return None  # the terminal went away (hung up): no answer
    finally:
        os.close(tty)


def _read_line(tty: int, question: str, give_up: Callable[[], bool]) -> str | None:
    """The line typed on `tty` after `question`; None when `give_up()` came first or the terminal hung up."""
    os.write(tty, question.encode())
    typed = bytearray()
    poller = select.poll()
    poller.register(tty, select.POLLIN)
    # Canonical mode: a read returns a whole line once Enter is pressed.
    while b"\n" not in typed:
        if give_up():
            return None
        if not poller.poll(int(_PROMPT_POLL_S * 1000)):
            continue
        chunk = os.read(tty, 1024)
        if not chunk:
            return None
        typed += chunk
    return typed.split(b"\n", 1)[0].decode("utf-8", "replace")


def _can_ask() -> bool:
    """Whether someone can be asked: on the terminal, or through SSH_ASKPASS as ssh(1) would (ssh_askpass)."""
    return _have_terminal() or askpass_program(has_terminal=False) is not None


def _have_terminal() -> bool:
    """Whether getpass can ask someone: it reads /dev/tty, else stdin if that is a terminal."""
    try:
        os.close(os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY))
        return True
    except OSError:
        return sys.stdin is not None and sys.stdin.isatty()


def _try_key(
    transport: paramiko.Transport, target: SSHTarget, key: paramiko.PKey, label: str, attempts: _Attempts, options: AuthOptions
) -> bool:
    attempts.tried.append(label)
    try:
        remaining = transport.auth_publickey(target.user, allow_sha1_rsa_signing(key))
    except paramiko.BadAuthenticationType as exc:
        allowed = list(exc.allowed_types)
        if _can_log_in_without_key(target, options, allowed):
            raise _KeysNotAccepted(allowed) from None
        # A key in authorized_keys cannot help here: sshd turned key logins off for this
        # account (PubkeyAuthentication no, or AuthenticationMethods without publickey).
        admin = "ask the host's admin to allow key logins for this account (PubkeyAuthentication yes)"
        unsupported = _unsupported_logins(allowed)
        if "password" in allowed:
            hint = _password_hint(target, options, admin)
        elif unsupported:
            hint = f"the host takes only {unsupported}, which ssh(1) makes and spec-debug cannot: {admin}"
        else:
            hint = f"spec-debug logs in with keys (or answers keyboard-interactive prompts on a terminal): {admin}"
        raise AuthenticationError(
            f"{target.alias}: server does not accept public keys (allowed: {', '.join(allowed)})", hint=hint
        ) from None
    except paramiko.AuthenticationException as exc:
        # paramiko says "Authentication failed" also when the server never answered or the
        # connection died while it waited (paramiko/auth_handler.py, wait_for_response): that
        # is no verdict on the key, and every later key would fail the same way.
        where = f"{target.hostname}:{target.port}"
        reason = _disconnect_reason(transport)
        if reason is not None and "too many authentication failures" in reason.lower():
            offered_by_agent = sum(1 for tried in attempts.tried if tried.startswith("agent key"))
            raise AuthenticationError(
                f"{target.alias}: {where} ended the login after {len(attempts.tried)} key(s) offered, "
                f"{offered_by_agent} of them from ssh-agent (sshd said {reason!r}: its MaxAuthTries)",
                hint="every key offered counts: set `IdentitiesOnly yes` and this host's IdentityFile in your ssh config, "
                "so only that key is offered",
            ) from None
        if not transport.is_active():
            raise HandshakeError(
                f"{target.alias}: {where} closed the connection during authentication "
                f"(after {len(attempts.tried)} key(s) offered, the last {label})",
                hint="sshd went away mid-login (restarted, killed, its host or jump host went down), or it "
                "stopped after too many offered keys (MaxAuthTries: offer fewer, with IdentitiesOnly yes or the right IdentityFile first)",
            ) from None
        if "timeout" in str(exc).lower():
            raise HandshakeError(
                f"{target.alias}: {where} did not answer authentication within {transport.auth_timeout or 30:g} s",
                hint="sshd is stuck looking the account up (LDAP/sssd, NFS home, a PAM module) or overloaded; "
                "raise ConnectTimeout if it is only slow",
            ) from None
        if _sha2_rsa_unknown_to(transport, key):
            attempts.sha1_rsa_only = True
        return False
    except paramiko.SSHException as exc:
        # ssh-agent refused to sign: a FIDO (-sk) key whose token is not plugged in, a locked
        # agent (ssh-add -x), a key added with confirmation (ssh-add -c) that was declined;
        # paramiko says "key cannot be used for signing" (paramiko/agent.py, sign_ssh_data).
        # ssh(1) goes on to its next key; the host failed here with the first such key.
        if transport.is_active():
            attempts.tried[-1] = f"{label} (ssh-agent would not sign with it: {_one_line(exc)})"
            return False
        if "cannot be used for signing" not in str(exc):
            raise
        # paramiko ends the connection on a refused signature (the failure is raised in its
        # transport thread), so no later key can be offered on it: ssh_connect tries again on a
        # new connection without this key, and this message stands once it has given up.
        raise AgentWouldNotSign(
            key.asbytes(), label,
            f"{target.alias}: ssh-agent would not sign with {label} (tried: {', '.join(attempts.tried)})",
            hint=_AGENT_REFUSED_HINT,
        ) from None
    if remaining and _log_in_without_key(transport, target, options, attempts, remaining):
        # `AuthenticationMethods publickey,keyboard-interactive` (a bastion's one-time code) or
        # `publickey,password`: answered on the terminal, or with the inventory's password.
        return True
    if remaining and remaining[0] == "keyboard-interactive":
        refused = _interactive_refusal(options) or ("", "")
        where = f"{target.user}@{target.hostname}:{target.port}"
        raise AuthenticationError(
            f"{target.alias}: {where} accepted the key ({label}) and then asks for a keyboard-interactive login "
            f"(a one-time code or password), but {refused[0]}",
            hint=refused[1],
        )
    if remaining:
        raise AuthenticationError(
            f"{target.alias}: server wants a second factor after the key ({', '.join(remaining)})",
            hint="only keyboard-interactive and password second factors are supported (a password from the inventory's "
            "ansible_password, or typed on a terminal); use a key-only account",
        )
    return True


def _sha2_rsa_unknown_to(transport: paramiko.Transport, key: paramiko.PKey) -> bool:
    """Whether an RSA key was just refused for its SHA-2 signature by an sshd older than 7.2:
    the server named no signature algorithms, and ssh-rsa was not allowed to us."""
    return (
        key.get_name().startswith(SHA1_RSA)
        and "server-sig-algs" not in transport.server_extensions
        and SHA1_RSA not in transport.preferred_pubkeys
        and _openssh_older_than(transport.remote_version, (7, 2))
    )


def _openssh_older_than(banner: str, version: tuple[int, int]) -> bool:
    """`SSH-2.0-OpenSSH_6.6.1p1 Ubuntu-2ubuntu2` is older than (7, 2); other servers are not judged."""
    found = re.search(r"OpenSSH_(\d+)\.(\d+)", banner or "")
    return found is not None and (int(found.group(1)), int(found.group(2))) < version


def _allowed_methods(transport: paramiko.Transport, target: SSHTarget) -> list[str]:
    """The login methods the server still allows, asked as ssh(1) asks first ("none": RFC 4252,
    section 5.2); paramiko keeps no list after a failed key. Empty when the connection is gone."""
    if not transport.is_active():
        return []
    try:
        transport.auth_none(target.user)
    except paramiko.BadAuthenticationType as exc:
        return list(exc.allowed_types)
    except (paramiko.SSHException, EOFError, OSError):
        return []
    return []


def _without_batch(options: AuthOptions) -> str:
    return "run without --batch" if options.batch_source == "--batch" else "set BatchMode no for this host"


def _interactive_refusal(options: AuthOptions) -> tuple[str, str] | None:
    """Why a keyboard-interactive question cannot be answered here, and what to do; None when it can."""
    key_only = "use an account that logs in with a key alone"
    if not options.interactive:
        return ("it is disabled because the host key changed (StrictHostKeyChecking no, as ssh(1) does)",
                "check the new host key with the host's owner and fix known_hosts")
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
    where = f"{target.user}@{target.hostname}:{target.port}"
    unanswered: list[str] = []
    sent_password: list[bool] = []
    new_password_asked: list[str] = []
    asked: list[str] = []

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
                    hint=f"log in once with `ssh {_ssh_copy_id_args(target)}` on a terminal and choose a new password "
                    f"(or ask an admin: `chage -d`), then update {(target.password_source or 'the password').split(' ')[0]}",
                ) from None
            if not asked and transport.is_active():
                raise _NothingAsked(
                    f"{target.alias}: keyboard-interactive login to {where} failed without a question "
                    "(the host has nothing behind it: an sshd without PAM)",
                    hint="log in with a key, or with a password where the host takes one",
                ) from None
            if unanswered or not transport.is_active():
                raise AuthenticationError(
                    f"{target.alias}: keyboard-interactive login to {where} abandoned: no answer given, or the host "
                    "closed the connection (sshd's LoginGraceTime)",
                ) from None
            if sent_password:
                raise _password_refused(target, where) from None
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


def _usable_logins(target: SSHTarget, options: AuthOptions, allowed: list[str]) -> list[str]:
    """The keyboard-interactive and password logins (of those `allowed`, in the config's order)
    that can be tried: the inventory gives the password, or someone at a terminal can type it."""
    if not options.interactive:
        return []  # a changed host key let through: ssh(1) turns both off (see _interactive_refusal)
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


_AGENT_REFUSED_HINT = (
    "a FIDO (-sk) key needs its token plugged in and touched; a key added with `ssh-add -c` (or AddKeysToAgent "
    "confirm) needs the confirmation accepted; or set IdentitiesOnly yes and this host's IdentityFile so only that key is offered"
)


class AgentWouldNotSign(AuthenticationError):
    """ssh-agent refused to sign with an agent key, and paramiko closed the connection for it."""

    def __init__(self, key_blob: bytes, label: str, message: str, *, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.key_blob = key_blob
        self.label = label


class _NothingAsked(AuthenticationError):
    """A keyboard-interactive login refused before any question was asked."""


class _AnswerRefused(AuthenticationError):
    """A keyboard-interactive login refused the answers typed at the terminal."""


def _keyboard_interactive_retrying(
    transport: paramiko.Transport, target: SSHTarget, options: AuthOptions, attempts: _Attempts
) -> None:
    """keyboard-interactive, asked again after a typo as ssh(1) asks again, up to
    NumberOfPasswordPrompts times (openssh-portable: sshconnect2.c, userauth_kbdint counts
    attempt_kbdint against number_of_password_prompts). One mistyped password failed the host."""
    for attempt in range(max(1, target.password_prompts)):
        try:
            _keyboard_interactive(transport, target, options, attempts)
            return
        except _AnswerRefused:
            if attempt == max(1, target.password_prompts) - 1 or not transport.is_active():
                raise


def _password_login(transport: paramiko.Transport, target: SSHTarget, options: AuthOptions, attempts: _Attempts) -> None:
    """SSH's `password` method (RFC 4252, section 8): sshd's PasswordAuthentication, the only way
    into a fresh Ubuntu box (its sshd_config turns keyboard-interactive off) before a key is
    installed. The inventory's password is sent once; else asked on the terminal with ssh(1)'s
    question, `user@host's password: ` (openssh-portable: sshconnect2.c, userauth_passwd)."""
    where = f"{target.user}@{target.hostname}:{target.port}"
    if target.password is not None:
        attempts.tried.append(f"password from {target.password_source}")
        _send_password(transport, target, target.password, where, lambda: _password_refused(target, where))
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
        if _send_password(transport, target, typed, where, lambda: None):
            return
    raise AuthenticationError(
        f"{target.alias}: {where} refused the password {target.password_prompts} time{'s' if target.password_prompts != 1 else ''}",
        hint=_root_password_hint(target) or "check the user name and the password (`ssh` asks the same question)",
    )


def _send_password(
    transport: paramiko.Transport, target: SSHTarget, password: str, where: str, refused: Callable[[], AuthenticationError | None]
) -> bool:
    """Send one password; True once logged in, False when refused (or raise refused()'s error)."""
    try:
        # fallback=False: paramiko would otherwise resend it as a keyboard-interactive answer.
        remaining = transport.auth_password(target.user, password, fallback=False)
    except paramiko.AuthenticationException:
        if not transport.is_active():
            raise HandshakeError(
                f"{target.alias}: {where} closed the connection during the password login",
                hint="sshd went away mid-login, or ended it after too many failed tries (MaxAuthTries)",
            ) from None
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
        return "which ssh(1) and spec-debug do not send after a changed host key"
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


# Logins ssh(1) makes that we cannot: Kerberos needs python-gssapi and a ticket (paramiko/
# ssh_gss.py), host-based trust needs the setuid ssh-keysign to sign with the client's host key
# (ssh_config(5), HostbasedAuthentication). HPC and lab clusters log their users in this way,
# so `ssh node` works there with no key at all.
_UNSUPPORTED_LOGINS = {
    "gssapi-with-mic": "Kerberos (GSSAPI) logins",
    "gssapi-keyex": "Kerberos (GSSAPI) logins",
    "hostbased": "host-based logins (the cluster's HostbasedAuthentication)",
}
_KEY_FOR_A_CLUSTER = (
    "where ssh gets in without a key (Kerberos, host-based trust), make one for spec-debug: "
    "`ssh-keygen -t ed25519`, then add ~/.ssh/id_ed25519.pub to ~/.ssh/authorized_keys on the host"
)


def _unsupported_logins(allowed: list[str]) -> str:
    """The logins among `allowed` that spec-debug cannot make, in words; empty when none."""
    return " and ".join(dict.fromkeys(_UNSUPPORTED_LOGINS[m] for m in allowed if m in _UNSUPPORTED_LOGINS))


def _disconnect_reason(transport: paramiko.Transport) -> str | None:
    """Why the server hung up, when it said so: the SSH_MSG_DISCONNECT description that
    ssh_connect's transport records (the transport thread reads it before it marks the
    connection down, so it is there by the time a login sees the connection closed)."""
    return getattr(transport, "disconnect_reason", None)


def _unreadable_reason(path: str, exc: BaseException) -> str:
    """A short reason instead of cryptography's "Unable to load PEM file. See https://..."."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(64)
    except OSError as error:
        return error.strerror or str(error)
    if head.startswith(b"PuTTY-User-Key-File"):
        return "a PuTTY .ppk key; convert it with `puttygen KEY -O private-openssh -o KEY.openssh`"
    if not head.strip():
        return "empty file"
    text = str(exc).split(". See https://", 1)[0].strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _short(path: str) -> str:
    home = os.path.expanduser("~")
    return "~" + path[len(home) :] if home != "/" and path.startswith(home + "/") else path


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
