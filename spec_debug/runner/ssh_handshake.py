"""The SSH handshake over an open socket: algorithms and host key types offered, the host key
checked against known_hosts (and KnownHostsCommand), then the login; retried when sshd turns
the connection away before its banner or ssh-agent will not sign."""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import os
import random
import socket
import sys
import threading
import time
from dataclasses import replace
from typing import Callable

import paramiko

from spec_debug.errors import TransportError, UsageError
from spec_debug.runner.ssh_abandon import _ABANDONED, abandonable
from spec_debug.runner.ssh_algorithms import _configure_algorithms
from spec_debug.runner.ssh_auth import AgentWouldNotSign, ask_on_terminal, authenticate
from spec_debug.runner.ssh_config import SSHTarget
from spec_debug.runner.ssh_connection import ConnectOptions
from spec_debug.runner.ssh_errors import HandshakeError, _one_line
from spec_debug.runner.ssh_handshake_failures import (
    _OLD_SSHD_HINT, _SSHD_LIST_HINT, _ClosedBeforeBanner, _kex_hint, _left_out_by_config, _no_common_algorithm, _not_a_banner,
)
from spec_debug.runner.ssh_hostkeys import (
    SHA1_KEX,
    SHA1_RSA,
    KnownHosts,
    allow_sha1_rsa_host_keys,
    configured_key_types,
    known_hosts_from_command,
    preferred_key_types,
    verify_host_key,
)
from spec_debug.runner.ssh_jump import _raise_if_jump_dropped
from spec_debug.runner.ssh_tokens import local_user
from spec_debug.runner.ssh_proxy_command import ProxySaidNothing, ProxyTurnedAway, _proxy_command, _raise_if_proxy_ended
from spec_debug.runner.ssh_pubkey_types import signature_preferences
from spec_debug.runner.ssh_reach_args import reach_args
from spec_debug.runner.ssh_revoked_keys import refuse_if_revoked, refuse_if_short_rsa
from spec_debug.runner.ssh_startups import login_turn, pace, wait_counted_out
from spec_debug.runner.ssh_transport import _CERT_SUFFIX, _SignalAwareTransport


# sshd drops new connections beyond MaxStartups (default 10:30:100: from 10 unauthenticated
# connections on, 30% are dropped, rising to all at 100) before sending its banner
# (openssh-portable: sshd.c, drop_connection). A fleet reaching many hosts through one bastion
# meets it with the first few forks; ssh(1) would fail those hosts, we retry them after a
# jittered pause, as the drop is random and short-lived.
_EARLY_CLOSE_ATTEMPTS = 5
_EARLY_CLOSE_BACKOFF_S = 0.1


def _handshake_retrying(target: SSHTarget, open_socket: Callable[[], object], options: ConnectOptions) -> paramiko.Transport:
    """Open a socket and handshake, again (a bounded few times) when sshd closes it at once, and
    again without an agent key that ssh-agent would not sign with.

    ssh(1) goes on to its next key when the agent refuses a signature ("agent refused
    operation": a FIDO key without its token, a key added with `ssh-add -c` or `AddKeysToAgent
    confirm` and no ssh-askpass to confirm it, a declined 1Password approval). paramiko raises
    the refusal in its transport thread, which ends the connection (paramiko/auth_handler.py,
    _parse_service_accept signs there), so the login starts over on a new one, without that key.
    """
    attempt = 0
    endpoint = (target.hostname, target.port)
    said_nothing = False
    while True:
        pause = 0.0
        try:
            with login_turn(endpoint) as paced:
                try:
                    transport = _handshake(target, open_socket(), options)
                except (_ClosedBeforeBanner, ProxyTurnedAway) as closed:
                    # A ProxyCommand's ssh(1) turned away by its bastion: that sshd's logins take turns.
                    endpoint = getattr(closed, "endpoint", endpoint)
                    pace(endpoint)  # the crowd that met MaxStartups retries one at a time (ssh_startups)
                    if attempt == _EARLY_CLOSE_ATTEMPTS - 1:
                        raise
                    pause = random.uniform(1.0, 2.0) * _EARLY_CLOSE_BACKOFF_S * 2**attempt
                    if paced:
                        # Turned away in our turn: sshd still counts an earlier login (or another
                        # client's). The pause keeps the turn, or the next in line meets the same
                        # count and spends an attempt too.
                        time.sleep(pause)
                        pause = 0.0
                else:
                    if paced:
                        wait_counted_out(transport, endpoint, target.connect_timeout_s)  # the next login's turn
                    return transport
        except ProxySaidNothing as silent:
            if said_nothing or threading.get_ident() in _ABANDONED:
                raise
            # Once more without -q (this and later attempts): it gets through, or says why it
            # cannot, and a bastion's turning it away is then retried as above.
            said_nothing = True
            open_socket = functools.partial(_proxy_command, target, silent.loud)
            continue
        except AgentWouldNotSign as refused:
            if len(options.refused_by_agent) >= _AGENT_REFUSALS_RETRIED or threading.get_ident() in _ABANDONED:
                raise
            options = replace(options, refused_by_agent=(*options.refused_by_agent, (refused.key_blob, refused.label)))
            continue
        time.sleep(pause)
        attempt += 1


# New connections made to get past agent keys that will not sign, before the refusal stands.
_AGENT_REFUSALS_RETRIED = 4


def _handshake(target: SSHTarget, sock: object, options: ConnectOptions) -> paramiko.Transport:
    """SSH handshake, host key check and authentication over an open socket."""
    transport = _SignalAwareTransport(sock)
    transport.banner_timeout = target.handshake_wait_s or target.connect_timeout_s
    transport.auth_timeout = target.connect_timeout_s
    known_hosts = KnownHosts(target.known_hosts_files, target.global_known_hosts_files)
    security = transport.get_security_options()
    offered = list(security.key_types)
    spec = (target.host_key_algorithms or "").strip()
    if spec:
        # HostKeyAlgorithms: paramiko's default set let a host in with a key type the user had
        # ruled out (`-ssh-ed25519`), or picked another than the one put first (`^ecdsa-...`).
        # `+ssh-rsa` (an sshd older than 7.2 proves only an SHA-1 RSA host key) was dropped.
        # Certificate types are named too (`HostKeyAlgorithms ssh-ed25519-cert-v01@openssh.com,...`,
        # as fleets with a host CA write it): paramiko verifies them, and verify_host_key the CA.
        certificates = tuple(f"{name}{_CERT_SUFFIX}" for name in (*offered, SHA1_RSA))
        try:
            offered = configured_key_types(spec, offered, named_only=(SHA1_RSA, *certificates))
        except ValueError as exc:
            transport.close()
            raise UsageError(f"{target.alias}: ssh config: {exc}", hint="list algorithms paramiko supports, or remove the line") from None
        if any(name.startswith(SHA1_RSA) for name in offered):  # ssh-rsa, ssh-rsa-cert-v01@openssh.com
            allow_sha1_rsa_host_keys(transport)
    pubkey_spec = (target.pubkey_accepted_algorithms or "").strip()
    if pubkey_spec:
        # PubkeyAcceptedAlgorithms: which signature an RSA user key makes (paramiko/auth_handler.py,
        # _finalize_pubkey_algorithm picks from preferred_pubkeys); `+ssh-rsa` for an old sshd.
        # Certificate types count for their key's (ssh_pubkey_types, signature_preferences); key
        # types the line leaves out are skipped when keys are offered (left_out_by_config).
        try:
            preferred = signature_preferences(pubkey_spec, tuple(transport._preferred_pubkeys))  # type: ignore[attr-defined]
            if preferred is not None:
                transport._preferred_pubkeys = preferred  # type: ignore[attr-defined]
        except ValueError as exc:
            transport.close()
            raise UsageError(f"{target.alias}: ssh config: {exc}", hint="list algorithms paramiko supports, or remove the line") from None
    _configure_algorithms(transport, target)
    # ssh(1) puts the types known_hosts has for the host first unless HostKeyAlgorithms set a
    # list or a `^` front (openssh-portable: sshconnect2.c, ssh_kex2, use_known_hosts_order).
    if not spec or spec[0] in "+-":
        if target.known_hosts_command is not None:
            # ssh(1) asks the command too when it sorts host key types (`%I` ORDER, no key yet:
            # openssh-portable: sshconnect2.c, order_hostkeyalgs): a host whose service lists
            # only its ECDSA key must not be offered ED25519 first and then be "not known".
            # (OpenSSH 9.2 then keeps only lines for the bare host name, so off port 22 its
            # ORDER finds nothing; we use the lines for `[host]:port` as well.)
            ordering = known_hosts_from_command(
                target.known_hosts_command, alias=target.alias, tokens=_known_hosts_command_tokens(target, None)
            )
            known_hosts = replace(known_hosts, from_command=ordering)
        known = known_hosts.keys_for(target.known_hosts_name)
        if not known and target.known_hosts_portless_name is not None:
            known = known_hosts.keys_for(target.known_hosts_portless_name)  # what verify_host_key falls back to
        offered = preferred_key_types(known, offered)
        authorities = known_hosts.authorities_for(target.known_hosts_name)
        if not authorities and target.known_hosts_portless_name is not None:
            authorities = known_hosts.authorities_for(target.known_hosts_portless_name)
        if authorities:
            # A host CA is trusted for the host: ask for its certificate first, as ssh(1) does
            # (openssh-portable: sshconnect2.c, order_hostkeyalgs puts the CA's cert types first).
            offered = [*(f"{name}{_CERT_SUFFIX}" for name in offered), *offered]
    security.key_types = offered
    try:
        with abandonable(transport.close):
            return _handshake_on(transport, target, sock, known_hosts, options)
    except HandshakeError:
        transport.close()
        _raise_if_jump_dropped(target, sock)
        raise
    except BaseException:
        transport.close()
        raise


def _banner(transport: paramiko.Transport) -> str:
    """The server's identification line ("SSH-2.0-OpenSSH_9.6"), "" before it was read."""
    return (getattr(transport, "remote_version", "") or "").strip()


def _stalled_after_banner(transport: paramiko.Transport, target: SSHTarget, where: str) -> HandshakeError | None:
    """The handshake that ran out of time after sshd said who it is: not "not an SSH server"
    nor "the wrong port", as the plain stall reads. The banner is a few bytes and the key
    exchange's packets the first large ones, so a path that drops large packets (an MTU black
    hole on a VPN or tunnel) stops here, as does an sshd too loaded to finish the exchange."""
    banner = _banner(transport)
    if not banner:
        return None
    return HandshakeError(
        f"{target.alias}: no SSH handshake from {where} within {target.handshake_wait_s or target.connect_timeout_s:g} s: it sent its banner "
        f"({banner[:80]}) but did not finish the key exchange",
        hint="sshd answers but the key exchange stalls: a network path that drops large packets (MTU on a VPN or "
        "tunnel: `ssh -vvv` stops at 'expecting SSH2_MSG_KEX_ECDH_REPLY'), or a host too loaded to finish it; "
        "raise ConnectTimeout for the host if it is only slow",
    )


def _closed_mid_handshake(transport: paramiko.Transport, target: SSHTarget, where: str, exc: BaseException) -> HandshakeError:
    """The server hung up after its banner, before the key exchange ended. paramiko's EOFError
    carries no text, so this read "closed the connection during the SSH handshake (EOFError)",
    with no hint; the server's banner says that an SSH server did answer, and its log why."""
    said = _one_line(exc)
    reason = "" if said == type(exc).__name__ else f" ({said})"
    banner = _banner(transport)[:80]
    after = f", after its banner ({banner})" if banner else ""
    return HandshakeError(
        f"{target.alias}: {where} closed the connection during the SSH handshake{after}{reason}",
        hint="the server ended it before the key exchange finished: its sshd log says why (`journalctl -u ssh` or "
        "/var/log/auth.log there); a proxy, port forward or load balancer in front of sshd does the same when its "
        "own connection to sshd drops",
    )


def _protocol_1_only(transport: paramiko.Transport, target: SSHTarget, where: str) -> HandshakeError:
    """A server that speaks only SSH protocol 1 (`SSH-1.5-...`: a decades-old appliance, a BMC or
    switch management port). paramiko said "Incompatible version (1.5 instead of 2.0)", with
    no hint; ssh(1) says "Protocol major versions differ: 2 vs. 1" (openssh-portable: kex.c,
    kex_exchange_identification) and has had no protocol 1 since OpenSSH 7.6, so no client here
    logs in either."""
    banner = _banner(transport)[:80]
    return HandshakeError(
        f"{target.alias}: {where} speaks only SSH protocol 1 ({banner}), which neither spec-debug nor OpenSSH 7.6+ speaks",
        hint="check that Port and HostName name the host's own sshd (not a BMC or switch); else its SSH server "
        "must be replaced by one that speaks SSH-2",
    )


def _ssh_args_filing_as_we_look(target: SSHTarget) -> str:
    """`ssh` arguments that reach the host and file its key where we look it up, for the
    unknown-key hint (see reach_args). We said `ssh gpu01-key` (the HostKeyAlias, a host name
    that resolves to nothing) or `ssh -p PORT 10.0.0.5` (the address behind the bastion; a key
    filed in ~/.ssh/known_hosts, not in the config's file). Where the config says
    `StrictHostKeyChecking yes`, ssh(1) refuses instead of asking unless told to ask."""
    ask = "-o StrictHostKeyChecking=ask " if target.strict_host_key_checking == "yes" else ""
    return f"{ask}{reach_args(target)}"


def _host_authentication_skipped(target: SSHTarget, sock: object) -> bool:
    """NoHostAuthenticationForLocalhost yes: ssh(1) takes any host key from a loopback address it
    connected to itself (127.0.0.0/8, ::1), unless a HostKeyAlias names the key, files nothing and
    checks nothing more (openssh-portable: sshconnect.c, check_host_key and sockaddr_is_local; a
    ProxyCommand or ProxyJump connection is never local). Set for a tunnel's local end
    (`ssh -L 2222:gpu01:22 bastion`, then `HostName localhost`, `Port 2222`), such a host was
    refused here ("not in known_hosts", or HOST KEY CHANGED once the tunnel led elsewhere)."""
    if not target.no_host_authentication_for_localhost or target.host_key_alias is not None:
        return False
    if not isinstance(sock, socket.socket):
        return False
    try:
        address = ipaddress.ip_address(str(sock.getpeername()[0]).partition("%")[0])
    except (OSError, ValueError):
        return False
    return address.is_loopback if address.version == 4 else address == ipaddress.IPv6Address("::1")


def _other_known_hosts_names(target: SSHTarget, sock: object) -> tuple[str, ...]:
    """Names the host's key may be filed under that ssh(1) does not check it under: the alias
    the user gave (an inventory name, a `Host` alias), and the address connected to (CheckHostIP,
    off by default since OpenSSH 8.5), each as known_hosts writes it for the port."""
    names = [target.alias.lower()]
    if target.inventory_name:  # `ssh lab01` through /etc/hosts filed it under the inventory's name
        names.append(target.inventory_name.lower())
    if isinstance(sock, socket.socket):
        try:
            names.append(str(sock.getpeername()[0]))
        except OSError:
            pass
    port = "" if target.port == 22 else f":{target.port}"
    return tuple(dict.fromkeys(
        f"[{name}]{port}" if port else name for name in names if name != target.known_hosts_name and name != target.hostname.lower()
    ))


def _known_hosts_command_tokens(target: SSHTarget, server_key: paramiko.PKey | None) -> dict[str, str]:
    """KnownHostsCommand's `%` tokens (ssh_config(5), TOKENS), valued as `ssh` passes them
    (checked with OpenSSH 9.2): with the server's key, the HOSTNAME lookup (%H is `[host]:port`
    off port 22); without one, the ORDER lookup (%H the bare host, %t %f %K `NONE`)."""
    jump = ",".join(
        (f"{hop.destination.user}@" if hop.destination.user else "") + hop.destination.host
        + (f":{hop.destination.port}" if hop.destination.port else "")
        for hop in target.proxy_jump
    )
    local = socket.gethostname()
    tokens = {
        "h": target.hostname, "p": str(target.port), "r": target.user, "n": target.alias,
        "k": target.host_key_alias or target.alias, "j": jump, "l": local, "L": local.split(".")[0],
        "u": local_user(), "i": str(os.getuid()), "d": os.path.expanduser("~"),
        "H": target.known_hosts_name, "I": "HOSTNAME", "t": "NONE", "f": "NONE", "K": "NONE",
    }
    if server_key is None:
        tokens.update(H=target.host_key_alias or target.hostname, I="ORDER")
    else:
        tokens.update(t=server_key.get_name(), f=server_key.fingerprint, K=server_key.get_base64())
    # %C: the hash of %l%h%p%r%j (ssh_config(5), TOKENS; openssh-portable: readconf.c, ssh_connection_hash).
    tokens["C"] = hashlib.sha1("".join(tokens[t] for t in "lhprj").encode()).hexdigest()
    return tokens


def _types_we_could_accept(host_types: list[str]) -> list[str]:
    """The host's key types that a HostKeyAlgorithms line could let in: paramiko's own, ssh-rsa
    and their certificates (_handshake_on)."""
    ours = (*paramiko.Transport._preferred_keys, SHA1_RSA)  # type: ignore[attr-defined]
    return [name for name in host_types if name in ours or name.removesuffix(_CERT_SUFFIX) in ours]


def _handshake_on(
    transport: paramiko.Transport, target: SSHTarget, sock: object, known_hosts: KnownHosts, options: ConnectOptions
) -> paramiko.Transport:
    where = target.address
    wait_s = target.handshake_wait_s or target.connect_timeout_s
    stalled = HandshakeError(
        f"{target.alias}: no SSH handshake from {where} within {wait_s:g} s (host stalled or not an SSH server)",
        hint="the host accepts TCP but sshd does not answer: overloaded, hung, or the wrong port",
    )
    if target.proxy_command is not None:
        # No TCP of ours here: the command may still be setting up, or waiting on a login.
        stalled = HandshakeError(
            f"{target.alias}: no SSH handshake from {where} within {wait_s:g} s through its ProxyCommand "
            "(the command passed on nothing an SSH server says)",
            hint="the ProxyCommand may be waiting for a login (cloudflared, tsh and aws sso open a browser) or slow to set "
            "up its tunnel: run it by hand to see; set ConnectTimeout for this host to wait longer; or the host behind "
            "it is hung",
        )
    closed_early = _ClosedBeforeBanner(
        f"{target.alias}: {where} closed the connection before the SSH banner",
        hint="sshd turned us away before the handshake: too many connections at once (MaxStartups; "
        "many hosts through one bastion: lower --forks), or TCP wrappers, fail2ban or a firewall",
    )
    started = time.monotonic()
    try:
        transport.start_client(timeout=wait_s)
    except paramiko.SSHException as exc:
        _raise_if_proxy_ended(target, sock, getattr(transport, "pre_banner", ()))
        text = _one_line(exc)
        said = _not_a_banner(transport)
        if said is not None:
            raise said(target, where) from None
        if "banner" in text.lower() or "timed out" in text.lower():
            # paramiko says "Error reading SSH protocol banner" both for a server that
            # closed at once (EOF) and for one that never spoke; the clock tells them apart.
            if isinstance(exc.__context__, EOFError) or time.monotonic() - started < wait_s / 2:
                raise closed_early from None
            raise (_stalled_after_banner(transport, target, where) or stalled) from None
        if text.startswith("Incompatible version"):
            raise _protocol_1_only(transport, target, where) from None
        unshared = _no_common_algorithm(transport, text)
        if unshared is not None:
            hint = _OLD_SSHD_HINT
            if unshared.startswith("offers no key exchange"):
                hint = _kex_hint(transport)
            if unshared.startswith(("offers no cipher", "offers no MAC")):
                hint = (_SSHD_LIST_HINT.format(what="cipher", keyword="Ciphers", example="aes256-gcm@openssh.com")
                        if "cipher" in unshared else
                        _SSHD_LIST_HINT.format(what="MAC", keyword="MACs", example="hmac-sha2-512-etm@openssh.com"))
            if "host key type" in unshared and SHA1_RSA in transport.server_offer.get("server key", "").split(", "):
                # What ssh(1) needs for the same host since OpenSSH 8.8, and now works here too.
                hint = f"add `HostKeyAlgorithms +ssh-rsa` for this host to your ssh config (as OpenSSH 8.8+ needs too); or {hint}"
            elif "host key type" in unshared and (target.host_key_algorithms or "").strip() and (
                    theirs := _types_we_could_accept(transport.server_offer.get("server key", "").split(", "))):
                # The user's own list left the host's types out (`HostKeyAlgorithms rsa-sha2-512`
                # before a host with an ed25519 key only): ssh(1) fails the same way ("no matching
                # host key type found"), and the fix is that line, not the host's sshd. Only for a
                # type paramiko verifies: a host with an ssh-dss key alone was told to add
                # `+ssh-dss` to a `HostKeyAlgorithms +ssh-rsa` that had left nothing out.
                hint = (f"your ssh config's `HostKeyAlgorithms {target.host_key_algorithms.strip()}` for this host leaves "
                        f"out every type it offers: add one (`HostKeyAlgorithms +{theirs[0]}`) or remove the line")
            sha1_kex = [name for name in transport.server_offer.get("kex algos", "").split(", ") if name in SHA1_KEX]
            if "key exchange" in unshared and sha1_kex:
                # The line ssh(1) needs for the same host too (its default list has no SHA-1
                # key exchange: ssh_config(5), KexAlgorithms), and that spec-debug now honours.
                hint = f"add `KexAlgorithms +{sha1_kex[0]}` for this host to your ssh config (as OpenSSH needs too); or {hint}"
            hint = _left_out_by_config(transport, target, unshared) or hint
            raise HandshakeError(f"{target.alias}: {where} {unshared}", hint=hint) from None
        raise HandshakeError(f"{target.alias}: SSH handshake with {where} failed: {text}") from None
    except (EOFError, OSError) as exc:
        _raise_if_proxy_ended(target, sock, getattr(transport, "pre_banner", ()))
        raise _closed_mid_handshake(transport, target, where, exc) from None
    # start_client returns quietly when its timeout passes mid-handshake (paramiko/transport.py),
    # timed on the monotonic clock by our transport (ssh_transport, start_client).
    if not transport.is_active() or not getattr(transport, "initial_kex_done", True):
        _raise_if_proxy_ended(target, sock)
        raise _stalled_after_banner(transport, target, where) or stalled
    accept_new = options.accept_new or target.strict_host_key_checking in ("accept-new", "no")
    auth_options = options.auth_options()

    def ask_at_terminal(question: str) -> str | None:
        return ask_on_terminal(question, auth_options, lambda: not transport.is_active())

    # ssh(1)'s default: an unknown key is put to whoever sits at the terminal; with no one
    # there (--batch, BatchMode, no terminal) it is refused as under `yes`.
    ask = ask_at_terminal if target.strict_host_key_checking == "ask" and not target.batch_mode else None
    server_key = transport.get_remote_server_key()
    refuse_if_short_rsa(target.label, server_key, target.required_rsa_size)
    for revoked_host_keys in target.revoked_host_keys:
        # Before known_hosts and KnownHostsCommand, as ssh(1) checks them (sshconnect.c, verify_host_key).
        refuse_if_revoked(target.label, server_key, revoked_host_keys)
    skipped = _host_authentication_skipped(target, sock)
    if target.known_hosts_command is not None and not skipped:
        # Keys a fleet's key service vouches for (OpenSSH 8.5+): ignored, every such host was
        # "not in known_hosts" although `ssh` logged in.
        from_command = known_hosts_from_command(
            target.known_hosts_command, alias=target.label, tokens=_known_hosts_command_tokens(target, server_key)
        )
        known_hosts = replace(known_hosts, from_command=from_command)
    warning = None if skipped else verify_host_key(
        alias=target.label,
        known_hosts_name=target.known_hosts_name,
        server_key=server_key,
        known_hosts=known_hosts,
        accept_new=accept_new,
        hash_new=target.hash_known_hosts,
        allow_changed=target.strict_host_key_checking == "no",
        portless_name=target.known_hosts_portless_name,
        ask=ask,
        certificate_name=target.certificate_name,
        other_names=_other_known_hosts_names(target, sock),
        ssh_args=_ssh_args_filing_as_we_look(target),
        config_host=target.alias,
        host_key_alias=target.host_key_alias,
        verify_host_key_dns=target.verify_host_key_dns,
    )
    if warning is not None:
        # ssh(1) prints this on stderr and goes on with key logins only (sshconnect.c,
        # check_host_key: "Password authentication is disabled to avoid man-in-the-middle attacks").
        transport.host_key_warning = warning
        print(warning, file=sys.stderr, flush=True)
        auth_options = replace(auth_options, interactive=False)
    try:
        authenticate(transport, target, auth_options)
    except (paramiko.SSHException, EOFError, OSError) as exc:
        if isinstance(exc, TransportError):
            raise
        raise HandshakeError(f"{target.alias}: connection to {where} failed during authentication: {_one_line(exc)}") from None
    transport.keep_server_alive(max(1, int(target.keepalive_s)), max(1, target.keepalive_count_max))
    return transport
