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

This module offers the keys and says why a login failed; the rest has a module each:
ssh_key_files (identity files, passphrases), ssh_certificates, ssh_agent (IdentityAgent,
AddKeysToAgent), ssh_password_login (keyboard-interactive, password, $SSHPASS), ssh_terminal
(asking someone) and ssh_auth_options (AuthOptions).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import replace

import paramiko

from spec_debug.errors import AuthenticationError
from spec_debug.runner.key_file_mount import chmod_cannot_fix, move_off_mount
from spec_debug.runner.ssh_agent import _hand_to_agent, _open_agent
from spec_debug.runner.ssh_auth_options import AuthOptions, PassphrasePrompt, _Attempts
from spec_debug.runner.ssh_certificates import (
    _agent_offers, _with_certificates, forced_command, source_address_problem, user_certificate_problem,
)
from spec_debug.runner.ssh_config import SSHTarget
from spec_debug.runner.ssh_errors import HandshakeError, _one_line
from spec_debug.runner.ssh_hostkeys import SHA1_RSA, allow_sha1_rsa_signing
from spec_debug.runner.ssh_key_files import (
    _identity_files, _load_key, _public_blob, _public_blobs, _short, default_keys_home_note, passwd_home_identity_note,
    too_open_mode,
)
from spec_debug.runner.ssh_login_turns import closed_mid_login
from spec_debug.runner.ssh_password_login import (
    SSHPASS_VARIABLE,
    _can_log_in_without_key,
    _interactive_refusal,
    _log_in_without_key,
    _no_password,
    _password_hint,
    _with_sshpass,
    _without_batch,
)
from spec_debug.runner.ssh_pubkey_types import file_left_out_by_config, key_type_name, left_out_by_config
from spec_debug.runner.ssh_reach_args import ssh_copy_id_command, verbose_login_command
from spec_debug.runner.ssh_terminal import ask_on_terminal, read_passphrase

# The public names of this module before it was split (ssh_auth_options, ssh_terminal,
# ssh_password_login hold them now): callers and tests import them from here.
__all__ = [
    "SSHPASS_VARIABLE",
    "AgentWouldNotSign",
    "AuthOptions",
    "PassphrasePrompt",
    "ask_on_terminal",
    "authenticate",
    "read_passphrase",
]


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
    transport.signing_agent = agent  # type: ignore[attr-defined]  # its sign time is not sshd's (ssh_transport, _auth_verdict)
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
        transport.signing_agent = None  # type: ignore[attr-defined]
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
    where = f"{target.user}@{target.address}"
    # Agent keys refused on earlier connections of this login (_handshake_retrying in ssh_handshake).
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
    # ssh(1) offers no agent key that no IdentityFile names under IdentitiesOnly (openssh-portable:
    # sshconnect2.c, pubkey_prepare); "agent empty" sent the reader to ssh-add a key the agent held.
    withheld = (f"IdentitiesOnly yes withholds the {attempts.withheld} key(s) ssh-agent holds: no IdentityFile names them"
                if attempts.withheld else None)
    nothing = ("no identity files" if attempts.agent_unreachable
               else withheld or f"{attempts.no_agent or 'agent empty'}, no identity files")
    if target.key_logins is not None:
        nothing = f"key logins are off for this host in your ssh config ({target.key_logins})"
    tried_keys = [*(f"{label} (ssh-agent would not sign with it)" for label in declined), *attempts.tried]
    tried = ", ".join(tried_keys) or (nothing if target.key_logins is not None else f"no keys found ({nothing})")
    if attempts.missing:
        tried = (", ".join(tried_keys) + "; " if tried_keys else "") + f"no such IdentityFile: {', '.join(attempts.missing)}"
    if attempts.agent_unreachable:
        tried += f"; ssh-agent not reached: {attempts.agent_unreachable}"
    # An encrypted key skipped beside keys that were offered: unnamed, the message read as if
    # it had been offered and refused (ssh -v says "no passphrase given, try next key":
    # openssh-portable sshconnect2.c).
    unasked = ("there is no terminal to ask for its passphrase" if attempts.no_terminal
               else f"{options.batch_source} forbids the passphrase prompt")
    for path in attempts.stale_pubs:
        tried += (f"; {_short(path)}.pub beside it is another key's public key: ssh(1) offers that key and cannot "
                  f"sign for it with {_short(path)}")
    if attempts.encrypted_skipped:
        tried += f"; not offered: {', '.join(attempts.encrypted_skipped)} (encrypted, and {unasked})"
    # sshd refuses an account its AllowUsers/AllowGroups/DenyUsers/DenyGroups leave out with the
    # same "Permission denied" as a wrong key, whatever the key (openssh-portable: auth.c,
    # allowed_user); only its log says "not allowed because ...".
    # sshd refuses a key whose type its PubkeyAcceptedAlgorithms leaves out with that same
    # "Permission denied" (auth2-pubkey.c, userauth_pubkey: logs "signature algorithm
    # ssh-ed25519 not in PubkeyAcceptedAlgorithms"); FIPS policies (RHEL's crypto-policies
    # FIPS, STIG-hardened images) leave out ed25519. OpenSSH 9.2's server-sig-algs still lists
    # ssh-ed25519 there, so only where every key offered was ed25519 is that type named.
    refused_type = (", or not take ed25519 keys at all (PubkeyAcceptedAlgorithms without ssh-ed25519, as FIPS "
                    "policies set it: its log says \"not in PubkeyAcceptedAlgorithms\"), where an RSA or ECDSA key "
                    "logs in" if _ed25519_only(attempts.offered_types) else "")
    hint = (f"check User and IdentityFile in your ssh config; `{verbose_login_command(target)}` shows what ssh(1) offers; if ssh(1) is refused "
            f"too with the right key, the host's sshd may not let {target.user} in at all (AllowUsers, AllowGroups, "
            f"DenyUsers: its log says \"not allowed because\"){refused_type}: ask its admin")
    if withheld is not None:
        if tried_keys or attempts.missing:
            tried += f"; {withheld}"
        hint = ("name the host's key with IdentityFile in your ssh config (its .pub file will do for a key ssh-agent holds), "
                "or drop IdentitiesOnly for this host")
    token = target.pkcs11_provider if target.key_logins is None else None
    if token is not None:
        # A PIV smart card or YubiKey (PKCS11Provider, ssh -I): ssh(1) loads the library and
        # signs with the card; paramiko cannot. Named here, it was "no keys found".
        tried += f"; the keys of PKCS11Provider {token} (a smart card or security token), which spec-debug cannot read itself"
    if interactive_refused is not None:
        tried += f"; the host also takes a keyboard-interactive login (a password or one-time code), but {interactive_refused[0]}"
    if "password" in allowed:
        # What `ssh` would have done next: ask for the password. Nobody can type it here and
        # the inventory gave none (or one we cannot read): say so, and how to install a key.
        tried += f"; the host would also take a password, {_no_password(target, options)}"
        hint = f"install your public key there once: `{ssh_copy_id_command(target)}`; or {_password_hint(target, options, hint)}"
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
    if attempts.partly_accepted:
        tried += (f"; the host accepted {attempts.partly_accepted[0]} and then asks for a second, "
                  "different key (sshd AuthenticationMethods publickey,publickey): no other key was accepted")
        hint = ("name the second key the host holds with another IdentityFile line for this host in your ssh config "
                "(or load it into ssh-agent): the host takes two different keys, one after the other")
    if attempts.stale_certificates:
        hint = f"get a new certificate from your CA (Vault, step-ca, Teleport: as you usually get one); or {hint}"
    if attempts.source_bound:
        hint = ("connect from an address the certificate allows (through the bastion it was issued for: ProxyJump in "
                f"your ssh config), or get one from your CA for this machine's address; or {hint}")
    if target.user == "root" and attempts.offered and not attempts.partly_accepted and not attempts.stale_certificates \
            and not attempts.source_bound:
        # sshd refuses every root login under PermitRootLogin no (the default on many images;
        # sshd_config(5)) whatever the key, with the same "Permission denied" as a wrong key.
        # Only once the host refused something: a key file that could not even be read (empty,
        # a .ppk) is the cause on its own, and the hint sent people to change the login user.
        hint = f"many hosts refuse root logins (sshd PermitRootLogin no): log in as your own user (USER@HOST); or {hint}"
    if attempts.too_open:
        # ssh(1) is refused for the mode alone: the hint's `ssh -v` and "if ssh(1) is refused too,
        # ask its admin" sent the reader the wrong way before the key itself was in question.
        path, mode = attempts.too_open[0]
        tried += f"; ssh(1) ignores {_short(path)}: its mode {mode} lets others read it"
        stuck = chmod_cannot_fix(path)
        if stuck is None:
            hint = (f"`chmod 600 {shlex.quote(path)}` first: ssh(1) (and Ansible, which runs it) ignores that key whatever "
                    f"the host holds; then {hint}")
        else:
            # chmod fails there, or succeeds and changes nothing: the key must move.
            tried += f" ({stuck})"
            hint = (f"{move_off_mount(path)}: ssh(1) (and Ansible, which runs it) ignores the key where it lies whatever "
                    f"the host holds; then {hint}")
    if attempts.short_rsa:
        hint = (f"make a key ssh(1) takes, `ssh-keygen -t ed25519`, and add its .pub to ~/.ssh/authorized_keys on the host "
                f"(or lower RequiredRSASize for this host in your ssh config, where your policy allows); or {hint}")
    if attempts.stale_pubs:
        quoted = shlex.quote(attempts.stale_pubs[0])
        hint = (f"rebuild the .pub from the private key, `ssh-keygen -y -f {quoted} > {quoted}.pub`, and check that "
                f"one is in the host's authorized_keys; or {hint}")
    if attempts.type_left_out:
        hint = (f"add the key's type to PubkeyAcceptedAlgorithms for this host in your ssh config "
                f"({target.pubkey_accepted_algorithms!r} now), or name a key of a type it lists; or {hint}")
    if attempts.encrypted_skipped:
        hint = f"load the encrypted key into ssh-agent first (ssh-add {attempts.encrypted_skipped[0]}); or {hint}"
    elsewhere = default_keys_home_note() if not tried_keys and not target.identity_files and target.key_logins is None else None
    if elsewhere is None and attempts.missing and target.key_logins is None:
        elsewhere = passwd_home_identity_note(attempts.missing)
    if elsewhere is not None:
        hint = f"{elsewhere}; or {hint}"
    raise AuthenticationError(f"{target.alias}: authentication failed for {where} (tried: {tried})", hint=hint)


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
        if target.identities_only:
            attempts.withheld = len(held) - len(agent_keys)
        else:
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


def _max_auth_tries_hint(target: SSHTarget, sent: list[str], offered_by_agent: int) -> str:
    """What to change when sshd's MaxAuthTries ended the login after the keys `sent`.
    IdentitiesOnly keeps only ssh-agent's other keys out (ssh_config(5)); "set IdentitiesOnly
    yes" was advice already followed, or one that changes nothing when no agent key was offered:
    a hardened host (MaxAuthTries 1-2) ends the login on the one key it does not know, or
    before it reaches the right one of several IdentityFile lines."""
    if offered_by_agent and not target.identities_only:
        return ("every key offered counts: set `IdentitiesOnly yes` and this host's IdentityFile in your ssh config, "
                "so only that key is offered")
    said = ("IdentitiesOnly is already set" if target.identities_only
            else "no ssh-agent key was offered (IdentitiesOnly would change nothing)")
    # A key and its certificate are two tries but one key (ssh_certificates labels the
    # certificate's offer "KEY with certificate FILE").
    keys = list(dict.fromkeys(label.split(" with certificate ", 1)[0] for label in sent))
    if len(keys) <= 1:
        certified = " with certificate " in " ".join(sent)
        offered = f" ({keys[0]}{', with and without its certificate' if certified else ''})" if keys else ""
        return (f"{said}, and the host refused the one key offered{offered} (most often: it is not in the "
                f"account's ~/.ssh/authorized_keys there): install it once (`{ssh_copy_id_command(target)}`) "
                "or name the key the host takes as this host's IdentityFile")
    return (f"{said}, and the host's MaxAuthTries ended the login after the {len(keys)} keys offered: keep only "
            "the IdentityFile this host takes (or put it first) for this host in your ssh config, "
            "or ask its admin to raise MaxAuthTries")


_SKIPPED = "not offered, as ssh(1) skips it"
"""How a key left out as ssh(1) leaves it out ends its entry in the keys tried."""


def _rsa_shorter_than_required(key: paramiko.PKey, target: SSHTarget) -> bool:
    return key.get_name().startswith(("ssh-rsa", "rsa-sha2")) and 0 < key.get_bits() < target.required_rsa_size


def _rsa_bits(blob: bytes) -> int:
    """The length of an RSA public key blob; 0 for another type or a blob that does not parse."""
    try:
        key = paramiko.RSAKey(data=blob)
    except Exception:  # noqa: BLE001 - not RSA, or damaged: the key file is opened and says so
        return 0
    return int(key.get_bits())


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
        public = _public_blobs([path])
        if public & offered_by_agent:
            continue  # ssh(1) offers a key once: refused from the agent (certificates too), its file is not opened
        blob = next(iter(public)) if public else None
        left_out = file_left_out_by_config(blob, target.pubkey_accepted_algorithms) if blob else None
        if left_out is not None:
            # Skipped unopened, as ssh(1) skips it: an encrypted one asked for its passphrase first.
            attempts.tried.append(f"{_short(path)} ({left_out} key, not in PubkeyAcceptedAlgorithms: {_SKIPPED})")
            attempts.type_left_out = True
            continue
        bits = _rsa_bits(blob) if blob else 0
        if 0 < bits < target.required_rsa_size:
            # Likewise a short RSA key (openssh-portable: ssh.c, load_public_identity_files).
            attempts.tried.append(f"{_short(path)} (RSA {bits} bits, fewer than RequiredRSASize "
                                  f"{target.required_rsa_size}: {_SKIPPED})")
            attempts.short_rsa = True
            continue
        key = _load_key(path, options, attempts)
        if key is None:
            continue
        if agent is not None and target.add_keys_to_agent is not None:
            _hand_to_agent(agent, key, path, target.add_keys_to_agent, options, attempts)
        mode = too_open_mode(path)
        if mode is not None:
            attempts.too_open.append((path, mode))
        beside = _public_blob(path + ".pub")
        if beside is not None and beside != key.asbytes():
            # ssh(1) offers FILE.pub's key, not the private key's (openssh-portable: authfile.c,
            # sshkey_load_public), and cannot sign for it ("contents do not match public").
            attempts.stale_pubs.append(path)
        for certified, label in _with_certificates(key, path, target):
            if _try_key(transport, target, certified, label, attempts, options):
                return True
    return False


class _KeysNotAccepted(Exception):
    """The host refuses public keys outright and another login it allows can be tried."""

    def __init__(self, allowed: list[str]) -> None:
        super().__init__(allowed)
        self.allowed = allowed


def _ed25519_only(key_types: list[str]) -> bool:
    """Whether every key offered was an ed25519 one (plain, security-key or certificate)."""
    return bool(key_types) and all(name.startswith(("ssh-ed25519", "sk-ssh-ed25519")) for name in key_types)


def _try_key(
    transport: paramiko.Transport, target: SSHTarget, key: paramiko.PKey, label: str, attempts: _Attempts, options: AuthOptions
) -> bool:
    if not transport.is_active():
        # The host hung up while this side prepared the key (a passphrase typed past sshd's
        # LoginGraceTime): paramiko would say only "No existing session".
        raise _closed_mid_login(transport, target, target.address, attempts, label)
    if _rsa_shorter_than_required(key, target):
        # ssh(1) skips it unoffered, from a file or the agent (openssh-portable: sshconnect2.c,
        # pubkey_prepare, sshkey_check_rsa_length): offered, we logged in where `ssh` could not.
        attempts.tried.append(f"{label} (RSA {key.get_bits()} bits, fewer than RequiredRSASize {target.required_rsa_size}: "
                              f"{_SKIPPED})")
        attempts.short_rsa = True
        return False
    if left_out_by_config(key, target.pubkey_accepted_algorithms):
        # Likewise a type the list leaves out (ssh_pubkey_types): offered, we logged in where
        # `ssh` and Ansible are refused.
        attempts.tried.append(f"{label} ({key_type_name(key)} key, not in PubkeyAcceptedAlgorithms: "
                              f"{_SKIPPED})")
        attempts.type_left_out = True
        return False
    offered_as = label  # before the reasons added below, which a login that went through has no use for
    problem = user_certificate_problem(key, target.user)
    if problem is not None:
        label = f"{label} ({problem[0]})"
        if problem[1]:
            attempts.stale_certificates.append(label)
    bound = source_address_problem(key, transport)
    if bound is not None:
        label = f"{label} ({bound})"
        attempts.source_bound.append(label)
    attempts.tried.append(label)
    attempts.offered = True
    attempts.offered_types.append(key.get_name())
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
        where = target.address
        reason = _disconnect_reason(transport)
        if reason is not None and "too many authentication failures" in reason.lower():
            # Keys skipped unoffered, as ssh(1) skips them, never reached sshd's count.
            sent = [tried for tried in attempts.tried if not tried.endswith(f"{_SKIPPED})")]
            offered_by_agent = sum(1 for tried in sent if tried.startswith("agent key"))
            raise AuthenticationError(
                f"{target.alias}: {where} ended the login after {len(sent)} key(s) offered, "
                f"{offered_by_agent} of them from ssh-agent (sshd said {reason!r}: its MaxAuthTries)",
                hint=_max_auth_tries_hint(target, sent, offered_by_agent),
            ) from None
        if not transport.is_active():
            raise _closed_mid_login(transport, target, where, attempts, label) from None
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
        # transport thread), so no later key can be offered on it: ssh_handshake tries again on a
        # new connection without this key, and this message stands once it has given up.
        raise AgentWouldNotSign(
            key.asbytes(), label,
            f"{target.alias}: ssh-agent would not sign with {label} (tried: {', '.join(attempts.tried)})",
            hint=_AGENT_REFUSED_HINT,
        ) from None
    if "publickey" in remaining:
        # `AuthenticationMethods publickey,publickey` (sshd_config(5): "two different public
        # keys"): accepted in part, and ssh(1) goes on to its next key, ahead of a password
        # (PreferredAuthentications); sshd takes no key twice (auth2-pubkey.c,
        # auth2_key_already_used). This one was "a second factor we do not support".
        attempts.partly_accepted.append(label)
        return False
    # A certificate's force-command runs in place of every command: named where the first
    # command finds the login shell did not run it (ssh.SSHTransport._check_shell_ran).
    command = forced_command(key)
    transport.forced_command = None if command is None else (offered_as, command)  # type: ignore[attr-defined]
    if remaining and _log_in_without_key(transport, target, options, attempts, remaining):
        # `AuthenticationMethods publickey,keyboard-interactive` (a bastion's one-time code) or
        # `publickey,password`: answered on the terminal, or with the inventory's password.
        return True
    if remaining and remaining[0] == "keyboard-interactive":
        refused = _interactive_refusal(options) or ("", "")
        where = f"{target.user}@{target.address}"
        raise AuthenticationError(
            f"{target.alias}: {where} accepted the key ({label}) and then asks for a keyboard-interactive login "
            f"(a one-time code or password), but {refused[0]}",
            hint=refused[1],
        )
    if remaining and remaining[0] == "password":
        # `AuthenticationMethods publickey,password` with no password to send (--batch, none in
        # the inventory): "password second factors are supported ...; use a key-only account"
        # named as supported the very login that was refused, and not how to give the password.
        where = f"{target.user}@{target.address}"
        raise AuthenticationError(
            f"{target.alias}: {where} accepted the key ({label}) and then asks for a password, {_no_password(target, options)}",
            hint=_password_hint(target, options, "use an account that logs in with a key alone"),
        )
    if remaining:
        raise AuthenticationError(
            f"{target.alias}: server wants a second factor after the key ({', '.join(remaining)})",
            hint="only keyboard-interactive and password second factors are supported (a password from the inventory's "
            "ansible_password, or typed on a terminal); use a key-only account",
        )
    return True


def _closed_mid_login(
    transport: paramiko.Transport, target: SSHTarget, where: str, attempts: _Attempts, label: str
) -> HandshakeError:
    """The host hung up while a key was offered, or before the next one could be (a passphrase
    typed past sshd's LoginGraceTime read "failed during authentication: No existing session")."""
    sent = [tried for tried in attempts.tried if not tried.endswith(f"{_SKIPPED})")]
    offered = (f"after {len(sent)} key(s) offered, the last {label}" if label in attempts.tried
               else f"before {label} was offered")
    return closed_mid_login(transport, target, where, during=offered,
                            host_checks="keys (AuthorizedKeysCommand, LDAP/sssd, PAM, an NFS home)",
                            our_fix="load the key into ssh-agent beforehand (`ssh-add`) and answer its prompts sooner")


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


# ssh-agent signs with a key added with `ssh-add -h` (destination constraints, OpenSSH 8.9+) only
# on a connection bound to the host (session-bind@openssh.com) for a publickey-hostbound-v00
# login (openssh-portable: ssh-agent.c, process_sign_request, "refusing use of
# destination-constrained key to sign on unbound connection"): paramiko makes neither, so
# `ssh` gets in with the key and we are refused, the cause said only in the agent's own log.
_AGENT_REFUSED_HINT = (
    "a FIDO (-sk) key needs its token plugged in and touched; a key added with `ssh-add -c` (or AddKeysToAgent "
    "confirm) needs the confirmation accepted; a key added with `ssh-add -h` (destination-constrained) signs only for "
    "ssh(1), which binds the agent to the host as spec-debug cannot: add it again without -h (`ssh-add KEY`), or name "
    "its file with IdentityFile; or set IdentitiesOnly yes and this host's IdentityFile so only that key is offered"
)


class AgentWouldNotSign(AuthenticationError):
    """ssh-agent refused to sign with an agent key, and paramiko closed the connection for it."""

    def __init__(self, key_blob: bytes, label: str, message: str, *, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.key_blob = key_blob
        self.label = label


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
    ssh_transport's transport records (the transport thread reads it before it marks the
    connection down, so it is there by the time a login sees the connection closed)."""
    return getattr(transport, "disconnect_reason", None)
