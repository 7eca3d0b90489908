"""Opening one authenticated SSH connection: socket, jump hosts, handshake, host key, auth.

The socket gets TCP_NODELAY (paramiko leaves Nagle on, and each short command then pays a
delayed-ACK stall of ~40 ms) and TCP keepalives, so a peer that vanishes without a FIN is
noticed. ProxyJump is done the way Fabric does it (fabric/fabric: fabric/connection.py,
`gateway`): an SSH connection to the jump host, then a `direct-tcpip` channel through it
used as the socket of the next connection, hop after hop; every host of a run behind the same
jump host shares that one connection (_JumpPool). A server that hangs up before its banner
(MaxStartups) is retried a few times; ProxyCommand runs through the shell as in ssh(1).
Once logged in, keepalives that want a reply (ServerAliveInterval x ServerAliveCountMax, as
ssh(1)) give up on a server that stops answering.

This module resolves the host and routes the connection; each stage has a module: ssh_tcp
(the TCP connect), ssh_proxy_command, ssh_jump (ProxyJump, _JumpPool), ssh_handshake (host
key and login) with ssh_handshake_failures (what a failed one means) and ssh_algorithms
(KexAlgorithms, Ciphers, MACs), ssh_transport (the paramiko Transport), ssh_abandon (Ctrl-C
during a connect), ssh_control_master (a refused login where ssh(1) rides an open master) and
ssh_connection (ConnectOptions, Connection).
"""

from __future__ import annotations

import copy
import logging
import os
import pwd
import threading
from dataclasses import replace
from functools import partial
from typing import Callable

import paramiko

from spec_debug.errors import AuthenticationError, TransportError, UsageError
from spec_debug.runner.ssh_abandon import (
    _ABANDONED,
    ConnectAbandoned,
    _abandonable_call,
    abandon_connects,
    abandonable,
    abandoned_after,
    call_unless,
    open_channel_unless,
    opening_connection,
)
from spec_debug.runner.ssh_config import SSH_CONFIG_FILE_OPTION, SSHTarget, load_ssh_config, parse_destination, quoted_host_name, resolve_target
from spec_debug.runner.ssh_target import jump_text
from spec_debug.runner.ssh_control_master import with_master_note
from spec_debug.runner.ssh_connection import DEFAULT_MAX_SESSIONS, Connection, ConnectOptions
from spec_debug.runner.ssh_handshake import _handshake_retrying
from spec_debug.runner.ssh_errors import HostUnreachableError
from spec_debug.runner.ssh_jump import _JUMPS, _jump_channel, _refuse_jump_loop, dropped_hop
from spec_debug.runner.ssh_key_files import _in_pattern_list, passwd_home_config_note
from spec_debug.runner.ssh_proxy_command import _proxy_command, wait_readable
from spec_debug.runner.ssh_tcp import _tcp_connect
from spec_debug.runner.ssh_transport import ServerNotResponding, close_channel

# The public names of this module before it was split (ssh_abandon, ssh_connection, ssh_jump,
# ssh_proxy_command, ssh_transport hold them now): callers and tests import them from here.
__all__ = [
    "DEFAULT_MAX_SESSIONS",
    "ConnectAbandoned",
    "ConnectOptions",
    "Connection",
    "ServerNotResponding",
    "abandon_connects",
    "abandonable",
    "abandoned_after",
    "call_unless",
    "close_channel",
    "connect",
    "dropped_hop",
    "open_channel_unless",
    "opening_connection",
    "wait_readable",
]


_MAX_JUMP_DEPTH = 8

# paramiko logs a traceback at ERROR level for every failed handshake; with no logging set up,
# Python prints it to stderr. We report each failure as one line instead.
logging.getLogger("paramiko").addHandler(logging.NullHandler())


def connect(
    destination: str,
    options: ConnectOptions,
    *,
    port: int | None = None,
    user: str | None = None,
    identity_file: str | None = None,
    ssh_options: dict[str, str] | None = None,
    password: str | None = None,
    password_source: str | None = None,
    name: str | None = None,
    typed_password: str | None = None,
) -> Connection:
    """Resolve `destination` through ssh config and open an authenticated connection.

    `name` is how the user knows the host (an inventory name whose ansible_host is an address):
    questions and host-key messages say it beside the destination (SSHTarget.label).

    `password` (an inventory's ansible_password, named by `password_source`) is for this host
    only: its jump hosts log in as ssh -J's would, without it. `typed_password`, one typed at the
    prompt for an earlier connection to the host (SSHTarget.typed_password), likewise.

    A `-F FILE` among the host's own ssh arguments (an inventory's ansible_ssh_common_args,
    see parse_ssh_args) is the config read for it and its jump hosts, as ssh(1) passes -F on
    to the ssh it starts for -J."""
    ssh_options = dict(ssh_options or {})
    own_config = ssh_options.pop(SSH_CONFIG_FILE_OPTION, None)
    config = load_ssh_config(own_config if own_config is not None else options.ssh_config_path)
    with opening_connection():
        # Resolving may look names up (CanonicalizeHostname: a DNS server that does not
        # answer holds it for 10 s a domain) or run commands (Match exec): abandonable too.
        try:
            target = _abandonable_call(lambda: resolve_target(
                destination,
                config,
                user=user,
                port=port,
                identity_file=identity_file,
                connect_timeout_s=options.connect_timeout_s,
                ssh_options=ssh_options,
            ))
        except OSError:
            if threading.get_ident() in _ABANDONED:
                raise ConnectAbandoned(f"{destination}: connection abandoned: the run was interrupted") from None
            raise
        except TransportError as exc:  # a name no CanonicalDomains resolves
            raise _said_with_name(exc, name, _host_of(destination)) from exc.__cause__
        if password_source is not None:
            target = replace(target, password=password, password_source=password_source)
        if typed_password is not None:
            target = replace(target, typed_password=typed_password)
        if name and _named_otherwise(name, target.alias):
            target = replace(target, inventory_name=name)
        config_file = _config_file_named(own_config if own_config is not None else options.ssh_config_path)
        try:
            return _open(target, config, options, depth=0, config_file=config_file)
        except TransportError as exc:
            exc = _with_case_note(exc, target, config)
            if own_config is None and options.ssh_config_path is None:
                exc = _with_passwd_home_config(exc, target)
            raise _said_with_name(_said_through_jump(exc, target), name, target.alias) from exc.__cause__


def _config_file_named(path: object) -> str | None:
    """The config file named with -F, unless it is the one ssh(1) reads by default (~/.ssh/config
    under the passwd database's home: openssh-portable, ssh.c, process_config_files), which an
    `ssh` run by hand reads without being told."""
    if path is None:
        return None
    named = os.path.expanduser(str(path))
    try:
        default = os.path.join(pwd.getpwuid(os.getuid()).pw_dir, ".ssh", "config")
    except KeyError:
        return named
    return None if os.path.realpath(named) == os.path.realpath(default) else named


def _with_case_note(exc: TransportError, target: SSHTarget, config: paramiko.SSHConfig) -> TransportError:
    """`--host GPU01` with `Host gpu01` in the config: ssh(1) matches Host patterns against the
    name as typed, case-sensitively (openssh-portable readconf.c, oHost: match_pattern), so the
    block does not apply, and then looks up the name in lower case (ssh.c, main: lowercase(host));
    OpenSSH_9.2p1 `ssh -G GPU01` prints `hostname gpu01` and `port 22`. spec-debug does the
    same, and the failure (cannot resolve gpu01, or a refused port 22) said only "check the
    name": the hint names the block written for the name in lower case. A copy, as in
    _said_with_name."""
    alias, lowered = target.alias, target.alias.lower()
    if (not isinstance(exc, HostUnreachableError) or alias == lowered or target.hostname != lowered
            or not exc.message.startswith(f"{alias}: ")):
        return exc
    for entry in getattr(config, "_config", []):
        patterns = entry.get("host") or []
        if _in_pattern_list(lowered, patterns, own=True, fold_case=False) and \
                not _in_pattern_list(alias, patterns, own=False, fold_case=False):
            break
    else:
        return exc
    note = (f"your ssh config's `Host {' '.join(patterns)}` is for {lowered}, not {alias}: ssh(1) matches Host patterns "
            f"against the name as typed, case-sensitively (`ssh -G {alias}` shows the same), then looks up the name in "
            f"lower case; name the host {lowered}")
    noted = copy.copy(exc)
    noted.hint = f"{note}; or {exc.hint}" if exc.hint else note
    return noted.with_traceback(exc.__traceback__)


def _with_passwd_home_config(exc: TransportError, target: SSHTarget) -> TransportError:
    """A name looked up as given (no HostName for it in the config read), the host's or a jump
    host's, here or by the jump host before it, that could not be reached, whose `Host` block is
    in the ~/.ssh/config ssh(1) reads under the passwd database's home: the hint names both
    files (passwd_home_config_note), then still says what it said (a `Host gpu*` there matches
    a typo too). A copy, as in _said_with_name."""
    if not isinstance(exc, HostUnreachableError):
        return exc
    # the host itself, or a jump host of its ProxyJump (whose failure reaches it as its own)
    names = [target.alias, *(hop.destination.host for hop in target.proxy_jump)]
    index = next((index for index, alias in enumerate(names) if _looked_up_as_given(exc.message, alias)), None)
    if index is None:
        return exc
    # reached through a jump host: the host itself behind its ProxyJump, a hop behind the one before
    note = passwd_home_config_note(names[index], proxied=index > 1 or (index == 0 and bool(target.proxy_jump)))
    if note is None:
        return exc
    noted = copy.copy(exc)
    noted.hint = f"{note}; or {exc.hint}" if exc.hint else note
    return noted.with_traceback(exc.__traceback__)


def _looked_up_as_given(message: str, alias: str) -> bool:
    """Whether message says alias, as its own host name, resolved nowhere here (ssh_tcp) or
    could not be reached by the jump host before it (ssh_jump._jump_channel: the jump host
    looks the name up), but for a jump host that refuses to forward at all."""
    # the name ssh(1) and ssh_config look up is the typed one in lower case (ssh.c, main:
    # lowercase(host)): `GPUBOX` was looked up as 'gpubox'
    if message.startswith(f"{alias}: cannot resolve host name {quoted_host_name(alias.lower())} ("):
        return True
    head, said, rest = message.partition(" could not open a connection to ")
    return bool(said) and head.startswith(f"{alias}: jump host ") and rest.startswith(f"{alias}:") \
        and "it refuses to forward" not in rest


def _said_through_jump(exc: TransportError, target: SSHTarget) -> TransportError:
    """`gpu03: jump host bastion: connection refused by bastion:22` where a jump host's own
    failure reached the host behind it: the message started with the jump host's name alone, so
    run.json, its SD005 and the report's "could not be checked" said `gpu03`: `bastion:
    connection refused`, and with the jump set by an inventory's ansible_ssh_common_args
    nothing in the report said what bastion was to gpu03. A copy, as in _said_with_name."""
    if not target.proxy_jump or exc.message.startswith(f"{target.alias}: "):
        return exc
    named = copy.copy(exc)
    named.message = f"{target.alias}: jump host {exc.message}"
    named.args = (named.message,)
    return named.with_traceback(exc.__traceback__)


def _said_with_name(exc: TransportError, name: str | None, address: str) -> TransportError:
    """Start exc's message with `lab01 at 10.0.0.5: ` where it starts with the address alone
    and the user knows the host by another name (an inventory host), as questions and host-key
    messages already name it (SSHTarget.label): `10.0.0.5: authentication failed` in run.json,
    the SD005 finding and the console said nothing of which of a fleet's hosts it was. A
    message about a jump host starts with that host's name and is left as it is. A copy: a jump
    host's failure may be one exception raised to every host behind it (ssh_jump._JumpPool)."""
    prefix = f"{address}: "
    if not name or not _named_otherwise(name, address) or not exc.message.startswith(prefix):
        return exc
    named = copy.copy(exc)
    named.message = f"{name} at {address}: {exc.message[len(prefix):]}"
    named.args = (named.message,)
    return named.with_traceback(exc.__traceback__)


def _host_of(destination: str) -> str:
    try:
        return parse_destination(destination).host
    except UsageError:
        return destination


def _named_otherwise(name: str, alias: str) -> bool:
    """Whether the user's name for a host is another name than the destination (an inventory's
    `lab01` at 10.0.0.5), not the same host written with a user or port (`alice@gpu01:2222`)."""
    try:
        return parse_destination(name).host != alias
    except UsageError:
        return True


def _open(
    target: SSHTarget, config: paramiko.SSHConfig, options: ConnectOptions, *, depth: int, reaching: tuple[SSHTarget, ...] = (),
    config_file: str | None = None,
) -> Connection:
    """`reaching`: the hosts whose connection waits on this one (the target, then its jump hosts).
    `config_file`: the config named with -F, which the hints' `ssh` commands pass (_config_file_named)."""
    if depth > _MAX_JUMP_DEPTH:
        raise UsageError(f"{target.alias}: ProxyJump chain deeper than {_MAX_JUMP_DEPTH} (a loop in ssh config?)")
    if config_file is not None:
        target = replace(target, config_file=config_file)
    if options.known_hosts is not None:
        target = replace(target, known_hosts_files=(str(options.known_hosts),), global_known_hosts_files=())
    via: list[Connection] = []
    try:
        if target.proxy_jump:
            # The first hop is resolved with its own settings (it may itself jump); later
            # hops are reached through the previous one, as `ssh -J a,b` does.
            first = resolve_target(target.proxy_jump[0].destination, config, connect_timeout_s=options.connect_timeout_s)
            _refuse_jump_loop(first, (*reaching, target))
            via.append(_JUMPS.lease(
                (first, options), lambda: _open(first, config, options, depth=depth + 1, reaching=(*reaching, target),
                                                config_file=config_file)
            ))
            for i, hop in enumerate(target.proxy_jump[1:], start=1):
                # resolved as ssh resolves it in the `ssh -J <hops before> hop` it starts: with a
                # ProxyJump on its command line, so `CanonicalizeHostname yes` leaves its name
                # alone (ssh.c, main: no canonicalization through a proxy); node7 behind a login
                # node is no DNS name here
                before = jump_text(target.proxy_jump[:i])
                hop_target = resolve_target(hop.destination, config, connect_timeout_s=options.connect_timeout_s,
                                            ssh_options={"proxyjump": before})
                # Its ProxyJump stays: it is the `-J` of the ssh(1) that reaches this hop (the hops
                # before it), which hints name (ssh_handshake, _ssh_args_filing_as_we_look) and
                # KnownHostsCommand's %j says; the connection itself goes through `gateway`.
                hop_target = replace(hop_target, proxy_command=None, config_file=config_file)
                if options.known_hosts is not None:
                    hop_target = replace(hop_target, known_hosts_files=(str(options.known_hosts),), global_known_hosts_files=())
                gateway = via[-1]
                via.append(Connection(hop_target, _logged_in(hop_target, partial(_jump_channel, gateway, hop_target), options)))
            gateway = via[-1]
            transport = _logged_in(target, lambda: _jump_channel(gateway, target), options)
        elif target.proxy_command:
            transport = _logged_in(target, lambda: _proxy_command(target), options)
        else:
            transport = _logged_in(target, lambda: _tcp_connect(target), options)
        return Connection(target, transport, via)
    except BaseException as exc:
        for opened in reversed(via):
            opened.close()
        if isinstance(exc, Exception) and threading.get_ident() in _ABANDONED:
            raise ConnectAbandoned(f"{target.alias}: connection abandoned: the run was interrupted") from None
        raise


def _logged_in(target: SSHTarget, open_socket: Callable[[], object], options: ConnectOptions) -> paramiko.Transport:
    """_handshake_retrying, where a refused login of this host, the target or one of its jump
    hosts, says that ssh(1) would ride a master connection open for it (with_master_note):
    a bastion behind a second factor is where sites tell users to keep one."""
    try:
        return _handshake_retrying(target, open_socket, options)
    except AuthenticationError as exc:
        raise with_master_note(exc, target.alias, target.control_path) from exc.__cause__
