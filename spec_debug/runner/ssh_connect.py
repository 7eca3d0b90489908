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
"""

from __future__ import annotations

import errno
import getpass
import hashlib
import logging
import math
import os
import random
import select
import socket
import subprocess
import sys
import threading
import time
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterator, TypeVar

import paramiko
from paramiko.common import MSG_CHANNEL_CLOSE, MSG_CHANNEL_REQUEST, cMSG_GLOBAL_REQUEST

from spec_debug.errors import TransportError, UsageError
from spec_debug.runner.ssh_auth import AgentWouldNotSign, AuthOptions, PassphrasePrompt, ask_on_terminal, authenticate
from spec_debug.runner.ssh_config import SSH_CONFIG_FILE_OPTION, SSHTarget, load_ssh_config, parse_destination, resolve_target
from spec_debug.runner.ssh_errors import HandshakeError, HostUnreachableError
from spec_debug.runner.ssh_hostkeys import (
    SHA1_KEX,
    SHA1_RSA,
    KnownHosts,
    allow_sha1_kex,
    allow_sha1_rsa_host_keys,
    configured_key_types,
    known_hosts_from_command,
    preferred_key_types,
    verify_host_key,
)

_CERT_SUFFIX = "-cert-v01@openssh.com"

DEFAULT_MAX_SESSIONS = 10
"""sshd_config(5) MaxSessions default: channels one connection may have open at once."""
_MAX_JUMP_DEPTH = 8
_T = TypeVar("_T")

# paramiko logs a traceback at ERROR level for every failed handshake; with no logging set up,
# Python prints it to stderr. We report each failure as one line instead.
logging.getLogger("paramiko").addHandler(logging.NullHandler())


@dataclass(frozen=True)
class ConnectOptions:
    """How to reach hosts; built once from the CLI options and shared by every host."""

    ssh_config_path: Path | None = None
    """`-F FILE`; None reads ~/.ssh/config when it exists."""
    accept_new: bool = False
    """`--accept-new`: add unknown host keys to known_hosts (changed keys are still refused)."""
    batch: bool = False
    """`--batch`: never prompt (an encrypted key not in the agent is an error)."""
    connect_timeout_s: float | None = None
    """Overrides ConnectTimeout from the config (default 15 s)."""
    known_hosts: Path | None = None
    """Overrides UserKnownHostsFile (reads and writes this file only)."""
    max_sessions: int = DEFAULT_MAX_SESSIONS
    use_agent: bool = True
    prompt: PassphrasePrompt | None = None
    """Passphrase prompt; None uses getpass."""
    prompt_guard: Callable[[], AbstractContextManager[object]] | None = None
    """Entered while a passphrase prompt is on the terminal (the CLI pauses its spinner in it)."""
    refused_by_agent: tuple[tuple[bytes, str], ...] = ()
    """Agent keys (blob, label) ssh-agent would not sign with on an earlier try of this login:
    not offered again (see _handshake_retrying)."""

    def auth_options(self) -> AuthOptions:
        chosen: dict[str, object] = {}
        if self.prompt is not None:
            chosen["prompt"] = self.prompt
        if self.prompt_guard is not None:
            chosen["prompt_guard"] = self.prompt_guard
        return AuthOptions(batch=self.batch, use_agent=self.use_agent, refused_by_agent=self.refused_by_agent,
                           **chosen)  # type: ignore[arg-type]


@dataclass
class Connection:
    """An authenticated paramiko transport and the jump connections it runs through."""

    target: SSHTarget
    transport: paramiko.Transport
    via: list["Connection"] = field(default_factory=list)
    release: Callable[[], None] | None = None
    """For a jump connection shared by several hosts: give it back instead of closing it."""

    def close(self) -> None:
        if self.release is not None:
            self.release()
            return
        try:
            self.transport.close()
        finally:
            for hop in reversed(self.via):
                hop.close()


class _JumpPool:
    """Jump host connections shared by every host of the run that goes through them.

    A fleet behind one bastion then costs the bastion one SSH login, not one per host; N
    simultaneous logins would also meet its MaxStartups (10:30:100 by default) and be dropped.
    Each host gets its own direct-tcpip channel over the shared connection, as `ssh -J` gets
    one per `ssh` process; sshd's MaxSessions does not count those (sshd_config(5)).
    The connection closes when the last host using it closes.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._opening: dict[object, threading.Lock] = {}
        self._current: dict[object, Connection] = {}
        self._users: dict[int, int] = {}
        # The outcome of the latest attempt to open each jump, so hosts that waited on a
        # failing one fail with it at once instead of each retrying in turn.
        self._attempt: dict[object, tuple[int, BaseException | None]] = {}

    def lease(self, key: object, open_jump: Callable[[], Connection]) -> Connection:
        with self._lock:
            opening = self._opening.setdefault(key, threading.Lock())
            seen_attempt = self._attempt.get(key, (0, None))[0]
        with opening:
            with self._lock:
                shared = self._current.get(key)
                if shared is not None and shared.transport.is_active():
                    self._users[id(shared)] += 1
                else:
                    shared = None
                    number, failure = self._attempt.get(key, (0, None))
                    if number != seen_attempt and failure is not None:
                        raise failure
            if shared is None:
                try:
                    shared = open_jump()
                except BaseException as exc:
                    with self._lock:
                        self._attempt[key] = (self._attempt.get(key, (0, None))[0] + 1, exc)
                    raise
                with self._lock:
                    self._attempt[key] = (self._attempt.get(key, (0, None))[0] + 1, None)
                    self._current[key] = shared
                    self._users[id(shared)] = 1
        returned = threading.Event()

        def give_back() -> None:
            if returned.is_set():
                return
            returned.set()
            with self._lock:
                self._users[id(shared)] -= 1
                last = self._users[id(shared)] == 0
                if last:
                    del self._users[id(shared)]
                    if self._current.get(key) is shared:
                        del self._current[key]
            if last:
                shared.close()

        return Connection(shared.target, shared.transport, [], release=give_back)


_JUMPS = _JumpPool()


class ConnectAbandoned(HostUnreachableError):
    """The connection was still being opened when the run was interrupted (abandon_connects)."""


# What each host thread is doing right now to open a connection (a TCP connect, a handshake),
# as the callables that stop it; and the threads told to give up. A connection being opened is
# not yet a transport the runner can interrupt: without this, Ctrl-C waits out the
# ConnectTimeout of every host that is still connecting (a stalled or firewalled host: 15 s).
_DIALING_LOCK = threading.Lock()
_DIALING: dict[int, list[Callable[[], None]]] = {}
_ABANDONED: set[int] = set()


def abandon_connects() -> None:
    """Make every connection being opened right now give up at once (ConnectAbandoned).

    For the runner's interrupt (Ctrl-C, SIGTERM), from any thread; connections opened later
    are not affected.
    """
    with _DIALING_LOCK:
        _ABANDONED.update(_DIALING)
        stops = [stop for stage in _DIALING.values() for stop in stage]
    for stop in stops:
        try:
            stop()
        except Exception:  # noqa: BLE001 - a stage already over: nothing left to stop
            pass


@contextmanager
def opening_connection() -> Iterator[None]:
    """The scope of one connection being opened by this thread: a call to abandon_connects()
    during it ends its current stage, and stops the later ones from starting."""
    try:
        yield
    finally:
        with _DIALING_LOCK:
            _ABANDONED.discard(threading.get_ident())


@contextmanager
def abandoned_after(seconds: float) -> Iterator[None]:
    """Connections this thread opens within the block give up (ConnectAbandoned) once
    `seconds` have passed, as abandon_connects() would make them, whatever their ConnectTimeout."""
    me = threading.get_ident()

    def give_up() -> None:
        with _DIALING_LOCK:
            _ABANDONED.add(me)
            stops = list(_DIALING.get(me, []))
        for stop in stops:
            try:
                stop()
            except Exception:  # noqa: BLE001 - a stage already over: nothing left to stop
                pass

    timer = threading.Timer(seconds, give_up)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        timer.join()
        with _DIALING_LOCK:  # fired after the connection was done: later ones are not abandoned
            _ABANDONED.discard(me)


@contextmanager
def abandonable(stop: Callable[[], None]) -> Iterator[None]:
    """A stage of opening a connection that abandon_connects() ends by calling `stop`."""
    me = threading.get_ident()
    with _DIALING_LOCK:
        abandoned = me in _ABANDONED
        if not abandoned:
            _DIALING.setdefault(me, []).append(stop)
    if abandoned:
        raise OSError(errno.ECONNABORTED, "abandoned")
    try:
        yield
    finally:
        with _DIALING_LOCK:
            stages = _DIALING.get(me, [])
            if stop in stages:
                stages.remove(stop)
            if not stages:
                _DIALING.pop(me, None)


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
) -> Connection:
    """Resolve `destination` through ssh config and open an authenticated connection.

    `name` is how the user knows the host (an inventory name whose ansible_host is an address):
    questions and host-key messages say it beside the destination (SSHTarget.label).

    `password` (an inventory's ansible_password, named by `password_source`) is for this host
    only: its jump hosts log in as ssh -J's would, without it.

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
        if password_source is not None:
            target = replace(target, password=password, password_source=password_source)
        if name and _named_otherwise(name, target.alias):
            target = replace(target, inventory_name=name)
        return _open(target, config, options, depth=0)


def _named_otherwise(name: str, alias: str) -> bool:
    """Whether the user's name for a host is another name than the destination (an inventory's
    `lab01` at 10.0.0.5), not the same host written with a user or port (`alice@gpu01:2222`)."""
    try:
        return parse_destination(name).host != alias
    except UsageError:
        return True


def _open(
    target: SSHTarget, config: paramiko.SSHConfig, options: ConnectOptions, *, depth: int, reaching: tuple[SSHTarget, ...] = ()
) -> Connection:
    """`reaching`: the hosts whose connection waits on this one (the target, then its jump hosts)."""
    if depth > _MAX_JUMP_DEPTH:
        raise UsageError(f"{target.alias}: ProxyJump chain deeper than {_MAX_JUMP_DEPTH} (a loop in ssh config?)")
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
                (first, options), lambda: _open(first, config, options, depth=depth + 1, reaching=(*reaching, target))
            ))
            for hop in target.proxy_jump[1:]:
                hop_target = resolve_target(hop.destination, config, connect_timeout_s=options.connect_timeout_s)
                hop_target = replace(hop_target, proxy_jump=(), proxy_command=None)
                if options.known_hosts is not None:
                    hop_target = replace(hop_target, known_hosts_files=(str(options.known_hosts),), global_known_hosts_files=())
                gateway = via[-1]
                via.append(Connection(hop_target, _handshake_retrying(hop_target, lambda t=hop_target, g=gateway: _jump_channel(g, t), options)))
            gateway = via[-1]
            transport = _handshake_retrying(target, lambda: _jump_channel(gateway, target), options)
        elif target.proxy_command:
            transport = _handshake_retrying(target, lambda: _proxy_command(target), options)
        else:
            transport = _handshake_retrying(target, lambda: _tcp_connect(target), options)
        return Connection(target, transport, via)
    except BaseException as exc:
        for hop in reversed(via):
            hop.close()
        if isinstance(exc, Exception) and threading.get_ident() in _ABANDONED:
            raise ConnectAbandoned(f"{target.alias}: connection abandoned: the run was interrupted") from None
        raise


def _refuse_jump_loop(jump: SSHTarget, reaching: tuple[SSHTarget, ...]) -> None:
    """Raise UsageError when `jump` is one of the hosts that are waiting to be reached through it.

    `Host *.corp` + `ProxyJump bastion.corp` gives the bastion itself a ProxyJump to itself. ssh(1)
    then starts `ssh -W` through `ssh -W` without end (OpenSSH 9.2, checked); the shared jump
    connection would wait on itself here (_JumpPool.lease), a silent hang.
    """
    def route(t: SSHTarget) -> tuple[object, ...]:  # the same host reached the same way: a loop
        return (t.hostname.lower(), t.port, t.user, t.proxy_jump, t.proxy_command)

    for waiting in reaching:
        if route(waiting) == route(jump):
            chain = " -> ".join(t.alias for t in (*reaching, jump))
            raise UsageError(
                f"{reaching[0].alias}: ProxyJump loop in ssh config: {chain} ({jump.alias} is set to be reached through itself)",
                hint=f"exclude the jump host from the pattern that sets ProxyJump (`Host *.corp !{jump.alias}`), "
                f"or put `ProxyJump none` in a `Host {jump.alias}` block above it",
            )


_CONNECTION_ATTEMPT_PAUSE_S = 1.0  # ssh(1) sleeps 1 s between attempts (sshconnect.c, ssh_connect_direct)


def _create_connection_attempts(target: SSHTarget) -> socket.socket:
    """ConnectionAttempts as ssh(1) makes them: a refused or timed-out connect is tried again
    a second later, up to that many times (a host rebooting, sshd restarting); the pause is
    abandonable like the connects. A name that does not resolve is not retried."""
    for attempt in range(target.connection_attempts):
        try:
            return _create_connection(target.hostname, target.port, target.connect_timeout_s, _FAMILIES[target.address_family],
                                      bind_address=target.bind_address)
        except (socket.gaierror, _CannotBind):
            raise
        except OSError:
            if attempt == target.connection_attempts - 1 or threading.get_ident() in _ABANDONED:
                raise
        pause = threading.Event()
        with abandonable(pause.set):
            pause.wait(_CONNECTION_ATTEMPT_PAUSE_S)
        if threading.get_ident() in _ABANDONED:
            raise OSError(errno.ECONNABORTED, "abandoned")
    raise AssertionError("unreachable")


def _tcp_connect(target: SSHTarget) -> socket.socket:
    where = f"{target.hostname}:{target.port}"
    try:
        sock = _create_connection_attempts(target)
    except _CannotBind as exc:
        raise HostUnreachableError(
            f"{target.alias}: cannot connect from BindAddress {target.bind_address}: {exc.reason}",
            hint="BindAddress in your ssh config must be an address of this machine (`ip -brief address`), "
            "of the host's address family; remove it where this machine has no such address",
        ) from None
    except socket.gaierror as exc:
        raise HostUnreachableError(
            f"{target.alias}: cannot resolve host name {target.hostname!r} ({exc.strerror})",
            hint="check the name, or its HostName in your ssh config",
        ) from None
    except (socket.timeout, TimeoutError):
        raise HostUnreachableError(
            f"{target.alias}: TCP connect to {where} timed out after {target.connect_timeout_s:g} s",
            hint="host down or firewalled; raise ConnectTimeout if the network is slow",
        ) from None
    except ConnectionRefusedError:
        raise HostUnreachableError(
            f"{target.alias}: connection refused by {where}", hint="is sshd running and listening on that port?"
        ) from None
    except OSError as exc:
        reason = exc.strerror or errno.errorcode.get(exc.errno or 0, str(exc))
        raise HostUnreachableError(f"{target.alias}: cannot reach {where}: {reason}") from None
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    interval = max(1, int(target.keepalive_s))
    if hasattr(socket, "TCP_KEEPIDLE"):  # Linux; macOS has only SO_KEEPALIVE defaults
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, interval)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, interval)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, max(1, target.keepalive_count_max))
    if hasattr(socket, "TCP_USER_TIMEOUT"):
        # Once our keepalive probes are in flight TCP keepalive stops probing. TCP_USER_TIMEOUT
        # (RFC 5482) closes the socket when sent data stays unacknowledged this long: the same
        # ServerAliveInterval x CountMax bound at the TCP level, for a link that goes dark
        # (keep_server_alive catches a peer that still acknowledges but no longer answers).
        timeout_ms = interval * (max(1, target.keepalive_count_max) + 1) * 1000
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, timeout_ms)
    return sock


# AddressFamily -> the getaddrinfo family (ssh_config(5)).
_FAMILIES = {"any": socket.AF_UNSPEC, "inet": socket.AF_INET, "inet6": socket.AF_INET6}


class _CannotBind(OSError):
    """BindAddress is not an address this machine can connect from, for any address of the host."""

    def __init__(self, reason: str) -> None:
        super().__init__(errno.EADDRNOTAVAIL, reason)
        self.reason = reason


def _create_connection(
    hostname: str, port: int, timeout_s: float, address_family: int = socket.AF_UNSPEC, *, bind_address: str | None = None
) -> socket.socket:
    """socket.create_connection (each address in turn), each connect abandonable: shutdown()
    from another thread ends a blocking connect at once on Linux, where close() would not.

    `bind_address` (BindAddress) is bound before each connect, in that address's family, as
    ssh(1) does (openssh-portable: sshconnect.c, ssh_create_socket); an address of the host
    it cannot be bound for is skipped, as ssh(1) goes on to the next."""
    last: OSError | None = None
    bind_failure: str | None = None
    for family, kind, proto, _, address in _getaddrinfo(hostname, port, address_family):
        sock = socket.socket(family, kind, proto)
        if bind_address is not None:
            try:
                local = _getaddrinfo(bind_address, 0, family)
                sock.bind(local[0][4])
            except OSError as exc:
                sock.close()
                bind_failure = exc.strerror or str(exc)
                continue
        try:
            sock.settimeout(timeout_s)
            with abandonable(lambda: sock.shutdown(socket.SHUT_RDWR)):
                sock.connect(address)
            return sock
        except OSError as exc:
            sock.close()
            last = exc
            if threading.get_ident() in _ABANDONED:
                raise
    if last is None and bind_failure is not None:
        raise _CannotBind(bind_failure)
    raise last if last is not None else OSError(errno.EADDRNOTAVAIL, "no address to connect to")


def _getaddrinfo(hostname: str, port: int, family: int = socket.AF_UNSPEC) -> list[tuple]:  # type: ignore[type-arg]
    """socket.getaddrinfo, abandonable.

    A name lookup against a DNS server that does not answer blocks in the C library for the
    resolver's timeout x attempts (resolv.conf(5): 5 s x 2 by default, per name server), and
    nothing can interrupt it; ssh(1)'s ConnectTimeout does not cover it either. This thread
    stops waiting for it on abandon_connects() (Ctrl-C); the lookup ends on its own later.
    """
    return _abandonable_call(lambda: socket.getaddrinfo(hostname, port, family, socket.SOCK_STREAM))


def _abandonable_call(call: Callable[[], _T], discard: Callable[[_T], None] | None = None) -> _T:
    """call_unless(call) as a stage of opening a connection: abandon_connects() ends the wait
    (OSError ECONNABORTED, as an abandoned TCP connect)."""
    me = threading.get_ident()
    with abandonable(lambda: None):  # abandon_connects() then marks this thread, seen below
        result = call_unless(call, lambda: me in _ABANDONED, discard=discard)
    if result is None:
        raise OSError(errno.ECONNABORTED, "abandoned")
    return result


def _proxy_command(target: SSHTarget) -> "_ProxyCommand":
    assert target.proxy_command is not None
    try:
        return _ProxyCommand(target.proxy_command)
    except (OSError, ValueError, paramiko.SSHException) as exc:
        raise HostUnreachableError(f"{target.alias}: ProxyCommand {target.proxy_command!r} failed to start: {exc}") from None


class _ProxyCommand(paramiko.ProxyCommand):
    """paramiko's ProxyCommand, made to notice that the command ended and to say why.

    paramiko's recv loops on os.read while the command's stdout is at EOF, so a proxy that
    exits (bastion down, key refused) spins a CPU until the banner timeout and is reported as a
    stalled host; later in a session it is never noticed at all, and its stderr pipe, which
    nobody reads, can fill and block it (paramiko/paramiko: paramiko/proxy.py, recv). Here EOF
    ends recv (the packetizer turns b"" into EOFError), and stderr is drained into a short
    tail that the error message quotes.
    """

    _STDERR_TAIL = 4096

    def __init__(self, command_line: str) -> None:
        # ssh(1) runs ProxyCommand with the user's shell as `exec COMMAND` (openssh-portable:
        # sshconnect.c, ssh_proxy_connect), so `~`, `$VARS`, redirections and pipes work;
        # paramiko splits it with shlex and runs the first word, which breaks all of those.
        shell = os.environ.get("SHELL") or "/bin/sh"
        self.cmd = [shell, "-c", f"exec {command_line}"]
        self.process = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
        self.timeout = None
        self._stderr_tail = b""
        self._drain = threading.Thread(target=self._drain_stderr, name="proxycommand-stderr", daemon=True)
        self._drain.start()

    def _drain_stderr(self) -> None:
        stream = self.process.stderr
        assert stream is not None
        for chunk in iter(lambda: stream.read1(4096) if hasattr(stream, "read1") else stream.read(4096), b""):
            self._stderr_tail = (self._stderr_tail + chunk)[-self._STDERR_TAIL :]

    def recv(self, size: int) -> bytes:
        start = time.monotonic()
        while True:
            wait = None if self.timeout is None else max(0.0, self.timeout - (time.monotonic() - start))
            if wait_readable(self.process.stdout, wait):
                try:
                    return os.read(self.process.stdout.fileno(), size)  # b"" at EOF: the command ended
                except OSError as exc:
                    raise paramiko.ProxyCommandFailure(" ".join(self.cmd), exc.strerror) from None
            if self.timeout is not None and time.monotonic() - start >= self.timeout:
                raise socket.timeout()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def ended(self) -> str | None:
        """Why the command is gone (exit code and last stderr line), or None while it runs."""
        try:
            code = self.process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return None
        # The process is gone but its last words may still be in the pipe: let the drain read
        # them (it ends at EOF; bounded, a grandchild may hold stderr open).
        self._drain.join(timeout=1.0)
        lines = self._stderr_tail.decode("utf-8", "replace").strip().splitlines()
        return f"exited with code {code}" + (f": {lines[-1].strip()}" if lines else "")


def wait_readable(source: object, timeout_s: float | None) -> bool:
    """Wait until `source` (anything with fileno()) is readable, or timeout_s passes.

    poll, not select: select cannot watch a descriptor numbered FD_SETSIZE (1024) or above and
    raises ValueError, which a big fleet with a high --forks reaches where the file limit is
    raised (containers often allow 1048576).
    """
    poller = select.poll()
    poller.register(source, select.POLLIN | select.POLLHUP | select.POLLERR)  # type: ignore[arg-type]
    return bool(poller.poll(None if timeout_s is None else max(0, math.ceil(timeout_s * 1000))))


def _jump_channel(gateway: Connection, target: SSHTarget) -> "_JumpSocket":
    where = f"{target.hostname}:{target.port}"
    try:
        return _JumpSocket(_open_direct_tcpip(gateway, target), gateway)
    except paramiko.ChannelException as exc:
        if exc.code == _OPEN_ADMINISTRATIVELY_PROHIBITED:
            raise HostUnreachableError(
                f"{target.alias}: jump host {gateway.target.alias} could not open a connection to {where}: "
                f"it refuses to forward connections there ({exc.text})",
                hint=f"{gateway.target.alias}'s sshd_config forbids it (AllowTcpForwarding no, DisableForwarding yes, "
                "a PermitOpen list), or your key's authorized_keys line does (restrict, permitopen=); "
                "`ssh -J` is refused the same way: ask for forwarding to be allowed, or use another jump host",
            ) from None
        raise HostUnreachableError(
            f"{target.alias}: jump host {gateway.target.alias} could not open a connection to {where} ({exc.text})",
            hint="check the target's HostName/Port as seen from the jump host, and AllowTcpForwarding there",
        ) from None
    except (paramiko.SSHException, EOFError, OSError) as exc:
        if threading.get_ident() in _ABANDONED:
            raise
        if dropped_hop([gateway]) is not None:
            raise _jump_dropped(target, gateway, "reaching") from None
        if "timeout opening channel" in str(exc).lower():
            # paramiko/transport.py, open_channel: the jump host's sshd answers a direct-tcpip
            # open only once its own TCP connect to the target ends (openssh-portable:
            # channels.c, channel_connect_to_port is non-blocking), which for a firewalled
            # target is the kernel's SYN retries, minutes.
            raise HostUnreachableError(
                f"{target.alias}: jump host {gateway.target.alias} did not reach {where} within {target.connect_timeout_s:g} s",
                hint="the target is down or firewalled as seen from the jump host; raise ConnectTimeout if the network is slow",
            ) from None
        raise HostUnreachableError(f"{target.alias}: jump through {gateway.target.alias} failed: {_one_line(exc)}") from None


def _open_direct_tcpip(gateway: Connection, target: SSHTarget) -> paramiko.Channel:
    """gateway.transport.open_channel("direct-tcpip", ...), abandonable: the jump host answers
    only once its own TCP connect to the target ends, and closing the jump connection to stop
    the wait would cut off every other host behind it."""
    return _abandonable_call(
        lambda: gateway.transport.open_channel(
            "direct-tcpip", (target.hostname, target.port), ("127.0.0.1", 0), timeout=target.connect_timeout_s
        ),
        discard=close_channel,
    )


_GIVE_UP_POLL_S = 0.05


def call_unless(call: Callable[[], _T], give_up: Callable[[], bool], *, discard: Callable[[_T], None] | None = None) -> _T | None:
    """`call()`'s result (or its exception), or None as soon as `give_up()` is true.

    For the blocking calls of opening a connection that nothing outside can cut short: a
    name lookup, paramiko's wait for a channel (paramiko/transport.py, open_channel: only
    closing the whole connection ends it). `call` runs in a helper thread that the caller
    stops waiting for (Ctrl-C); a result that comes after that goes to `discard`.
    """
    done = threading.Event()
    outcome: list[object] = []  # [result] or [exception]
    given_up = threading.Event()

    def run() -> None:
        try:
            result: object = call()
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            outcome.append(exc)
            done.set()
            return
        outcome.append(result)
        done.set()
        if given_up.is_set() and discard is not None:
            discard(result)  # type: ignore[arg-type]

    threading.Thread(target=run, name="call-unless", daemon=True).start()
    while not done.wait(_GIVE_UP_POLL_S):
        if give_up():
            given_up.set()
            if outcome and discard is not None and not isinstance(outcome[0], BaseException):
                discard(outcome[0])  # type: ignore[arg-type]  # it came meanwhile
            return None
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]  # type: ignore[return-value]


def open_channel_unless(open_channel: Callable[[], paramiko.Channel], give_up: Callable[[], bool]) -> paramiko.Channel | None:
    """A channel, or None when `give_up()` came first: a hung sshd, or a jump host still
    dialing the target, holds paramiko's open for the whole channel timeout. A channel
    granted after that is closed, so the server is not left holding it."""
    return call_unless(open_channel, give_up, discard=close_channel)


# RFC 4254 section 5.1: SSH_OPEN_ADMINISTRATIVELY_PROHIBITED, what sshd answers a direct-tcpip
# open its configuration forbids (openssh-portable: channels.c, channel_connect_to_port).
_OPEN_ADMINISTRATIVELY_PROHIBITED = 1


# How long the jump connection's thread waits, on the server's CLOSE of a forwarded channel,
# for a send in flight on it to finish; a send holds the lock for at most the socket timeout
# paramiko sets (0.1 s) plus the packet's write.
_CLOSE_WAITS_FOR_SEND_S = 2.0


class _JumpSocket:
    """A direct-tcpip channel used as the socket of the next hop's connection, whose sends are
    ordered against its close.

    paramiko's Channel._send checks `closed` under the channel lock, then releases the lock
    before handing the packet to the transport (paramiko/channel.py, `_send`: to avoid a
    rekeying deadlock). A send from the inner connection's thread (its reply to a CLOSE, say)
    can then reach the jump host after the channel's own CLOSE; OpenSSH answers a data packet
    on a channel it has freed by dropping the whole connection ("data packet referred to
    nonexistent channel", openssh-portable: channels.c, channel_from_packet_id), and with it
    every other host of the run behind that jump host. One lock held across the check and the
    send, taken by both ways a channel closes (ours: close(); the server's: the transport's
    CLOSE handler, _handle_channel_close), keeps every packet ahead of the CLOSE.
    """

    def __init__(self, channel: paramiko.Channel, gateway: Connection) -> None:
        self._channel = channel
        self.gateway = gateway
        """The jump connection the channel runs over: the one to blame when it goes down."""
        self._lock = threading.Lock()
        channel.send_lock = self._lock  # type: ignore[attr-defined]  # read by _handle_channel_close

    def send(self, data: bytes) -> int:
        with self._lock:
            if self._channel.closed:
                raise OSError(errno.EPIPE, "jump channel closed")
            return self._channel.send(data)

    def sendall(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[self.send(view.tobytes()) :]

    def close(self) -> None:
        # The CLOSE goes out over the jump connection; when that connection has just died
        # (the bastion went down) the send fails and there is nothing left to close. Raised,
        # it would escape paramiko's transport thread as a traceback on stderr (its run()
        # closes the socket in a `finally`), or stop Connection.close before the bastion is
        # given back.
        with self._lock:
            close_channel(self._channel)

    def __getattr__(self, name: str) -> object:
        # recv, settimeout, getpeername, _closed...: the channel's own. recv is not ordered:
        # a window adjust on a freed channel is only logged by OpenSSH, not fatal.
        return getattr(self._channel, name)


class _ClosedBeforeBanner(HandshakeError):
    """sshd accepted TCP and closed it at once, before its banner."""


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
    while True:
        try:
            return _handshake(target, open_socket(), options)
        except _ClosedBeforeBanner:
            if attempt == _EARLY_CLOSE_ATTEMPTS - 1:
                raise
            time.sleep(random.uniform(1.0, 2.0) * _EARLY_CLOSE_BACKOFF_S * 2**attempt)
            attempt += 1
        except AgentWouldNotSign as refused:
            if len(options.refused_by_agent) >= _AGENT_REFUSALS_RETRIED or threading.get_ident() in _ABANDONED:
                raise
            options = replace(options, refused_by_agent=(*options.refused_by_agent, (refused.key_blob, refused.label)))


# New connections made to get past agent keys that will not sign, before the refusal stands.
_AGENT_REFUSALS_RETRIED = 4


def _handshake(target: SSHTarget, sock: object, options: ConnectOptions) -> paramiko.Transport:
    """SSH handshake, host key check and authentication over an open socket."""
    transport = _SignalAwareTransport(sock)
    transport.banner_timeout = target.connect_timeout_s
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
        try:
            transport._preferred_pubkeys = tuple(configured_key_types(  # type: ignore[attr-defined]
                pubkey_spec, list(transport._preferred_pubkeys), named_only=(SHA1_RSA,), keyword="PubkeyAcceptedAlgorithms"
            ))
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
        "u": getpass.getuser(), "i": str(os.getuid()), "d": os.path.expanduser("~"),
        "H": target.known_hosts_name, "I": "HOSTNAME", "t": "NONE", "f": "NONE", "K": "NONE",
    }
    if server_key is None:
        tokens.update(H=target.host_key_alias or target.hostname, I="ORDER")
    else:
        tokens.update(t=server_key.get_name(), f=server_key.fingerprint, K=server_key.get_base64())
    # %C: the hash of %l%h%p%r%j (ssh_config(5), TOKENS; openssh-portable: readconf.c, ssh_connection_hash).
    tokens["C"] = hashlib.sha1("".join(tokens[t] for t in "lhprj").encode()).hexdigest()
    return tokens


def _handshake_on(
    transport: paramiko.Transport, target: SSHTarget, sock: object, known_hosts: KnownHosts, options: ConnectOptions
) -> paramiko.Transport:
    where = f"{target.hostname}:{target.port}"
    stalled = HandshakeError(
        f"{target.alias}: no SSH handshake from {where} within {target.connect_timeout_s:g} s (host stalled or not an SSH server)",
        hint="the host accepts TCP but sshd does not answer: overloaded, hung, or the wrong port",
    )
    closed_early = _ClosedBeforeBanner(
        f"{target.alias}: {where} closed the connection before the SSH banner",
        hint="sshd turned us away before the handshake: too many connections at once (MaxStartups; "
        "many hosts through one bastion: lower --forks), or TCP wrappers, fail2ban or a firewall",
    )
    started = time.monotonic()
    try:
        transport.start_client(timeout=target.connect_timeout_s)
    except paramiko.SSHException as exc:
        _raise_if_proxy_ended(target, sock)
        text = _one_line(exc)
        said = _not_a_banner(transport)
        if said is not None:
            raise said(target, where) from None
        if "banner" in text.lower() or "timed out" in text.lower():
            # paramiko says "Error reading SSH protocol banner" both for a server that
            # closed at once (EOF) and for one that never spoke; the clock tells them apart.
            if isinstance(exc.__context__, EOFError) or time.monotonic() - started < target.connect_timeout_s / 2:
                raise closed_early from None
            raise stalled from None
        unshared = _no_common_algorithm(transport, text)
        if unshared is not None:
            hint = _OLD_SSHD_HINT
            if unshared.startswith(("offers no cipher", "offers no MAC")):
                hint = (_SSHD_LIST_HINT.format(what="cipher", keyword="Ciphers", example="aes256-gcm@openssh.com")
                        if "cipher" in unshared else
                        _SSHD_LIST_HINT.format(what="MAC", keyword="MACs", example="hmac-sha2-512-etm@openssh.com"))
            if "host key type" in unshared and SHA1_RSA in transport.server_offer.get("server key", "").split(", "):
                # What ssh(1) needs for the same host since OpenSSH 8.8, and now works here too.
                hint = f"add `HostKeyAlgorithms +ssh-rsa` for this host to your ssh config (as OpenSSH 8.8+ needs too); or {hint}"
            sha1_kex = [name for name in transport.server_offer.get("kex algos", "").split(", ") if name in SHA1_KEX]
            if "key exchange" in unshared and sha1_kex:
                # The line ssh(1) needs for the same host too (its default list has no SHA-1
                # key exchange: ssh_config(5), KexAlgorithms), and that spec-debug now honours.
                hint = f"add `KexAlgorithms +{sha1_kex[0]}` for this host to your ssh config (as OpenSSH needs too); or {hint}"
            raise HandshakeError(f"{target.alias}: {where} {unshared}", hint=hint) from None
        raise HandshakeError(f"{target.alias}: SSH handshake with {where} failed: {text}") from None
    except (EOFError, OSError) as exc:
        _raise_if_proxy_ended(target, sock)
        raise HandshakeError(f"{target.alias}: {where} closed the connection during the SSH handshake ({_one_line(exc)})") from None
    # start_client returns quietly when its timeout passes mid-handshake (paramiko/transport.py).
    if not transport.is_active() or not getattr(transport, "initial_kex_done", True):
        _raise_if_proxy_ended(target, sock)
        raise stalled
    accept_new = options.accept_new or target.strict_host_key_checking in ("accept-new", "no")
    auth_options = options.auth_options()

    def ask_at_terminal(question: str) -> str | None:
        return ask_on_terminal(question, auth_options, lambda: not transport.is_active())

    # ssh(1)'s default: an unknown key is put to whoever sits at the terminal; with no one
    # there (--batch, BatchMode, no terminal) it is refused as under `yes`.
    ask = ask_at_terminal if target.strict_host_key_checking == "ask" and not target.batch_mode else None
    server_key = transport.get_remote_server_key()
    if target.known_hosts_command is not None:
        # Keys a fleet's key service vouches for (OpenSSH 8.5+): ignored, every such host was
        # "not in known_hosts" although `ssh` logged in.
        from_command = known_hosts_from_command(
            target.known_hosts_command, alias=target.label, tokens=_known_hosts_command_tokens(target, server_key)
        )
        known_hosts = replace(known_hosts, from_command=from_command)
    warning = verify_host_key(
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


# What a server may print instead of its banner when it turns a connection away: OpenSSH's
# sshd writes "Exceeded MaxStartups" (openssh-portable: sshd.c, drop_connection), and since
# 9.8 "Not allowed at this time" to an address it penalises (PerSourcePenalties).
_MAX_STARTUPS_SAID = "maxstartups"
_PENALTY_SAID = "not allowed at this time"


def _not_a_banner(transport: _SignalAwareTransport) -> Callable[[SSHTarget, str], HandshakeError] | None:
    """The error for a server that printed text instead of an SSH banner, or None if it said nothing.

    paramiko skips the lines before the banner (RFC 4253, section 4.2 allows them) and then
    reports only "Error reading SSH protocol banner"; what was said tells a busy sshd from a
    web or mail server on the port, which would otherwise read as MaxStartups and be retried.
    """
    lines = [line for line in transport.pre_banner if line.strip()]
    if not lines:
        return None
    said = lines[0].strip()[:120]
    if any(_MAX_STARTUPS_SAID in line.lower() for line in lines):
        return lambda target, where: _ClosedBeforeBanner(
            f"{target.alias}: {where} turned us away before the SSH banner (sshd said {said!r})",
            hint="too many unauthenticated connections at once (sshd MaxStartups): lower --forks, "
            "or reach many hosts through one shared ProxyJump",
        )
    if any(_PENALTY_SAID in line.lower() for line in lines):
        return lambda target, where: HandshakeError(
            f"{target.alias}: {where} refuses connections from this address for now (sshd said {said!r})",
            hint="sshd's PerSourcePenalties (OpenSSH 9.8+) blocks an address after failed or aborted logins; "
            "wait for the penalty to expire, or ask the host's owner to exempt it (PerSourcePenaltyExemptList)",
        )
    return lambda target, where: HandshakeError(
        f"{target.alias}: {where} is not an SSH server: it answered {said!r} instead of an SSH banner",
        hint="check Port and HostName in your ssh config or inventory; another service listens on that port",
    )


# paramiko's "Incompatible ssh peer (no acceptable X)" and "Incompatible ssh server (no
# acceptable ciphers|macs)" (paramiko/transport.py, _parse_kex_init): X, the line of the
# server's offer paramiko logs, and where our own list is. The plural two were written
# singular here, never matched, and a cipher-locked sshd read "SSH handshake failed" bare.
_NEGOTIATED = {
    "kex algorithm": ("key exchange algorithm", "kex algos", "kex"),
    "host key": ("host key type", "server key", "key_types"),
    "ciphers": ("cipher", "server encrypt", "ciphers"),
    "macs": ("MAC", "server mac", "digests"),
}
# A cipher or MAC list with none of paramiko's (chacha20-poly1305 or umac only, from a
# hardening guide; arcfour or blowfish on an old box) is the host's sshd_config to widen.
_SSHD_LIST_HINT = (
    "the host's sshd allows only {what}s spec-debug (paramiko) lacks: ask its admin to add one of the accepted ones "
    "to {keyword} in sshd_config (such as {example}, in every OpenSSH since 6.2)"
)
_OLD_SSHD_HINT = (
    "the host's sshd offers only SHA-1 era algorithms (ssh-rsa host keys, diffie-hellman-group1-sha1), refused "
    "by paramiko as by OpenSSH 8.8+: update openssh-server there, or give it an ed25519 host key (ssh-keygen -A)"
)


def _no_common_algorithm(transport: _SignalAwareTransport, text: str) -> str | None:
    """`offers no host key type we accept (it offers: ssh-rsa; we accept: ...)`, as ssh(1)'s
    "no matching host key type found. Their offer: ..." (openssh-portable: kex.c), or None."""
    lowered = text.lower()
    for reason, (what, offer_line, ours_attribute) in _NEGOTIATED.items():
        if f"(no acceptable {reason})" in lowered:
            # Without the markers that ride in the kex list (RFC 8308 ext-info, strict kex).
            offer = ", ".join(
                name for name in transport.server_offer.get(offer_line, "?").split(", ") if not name.startswith(("ext-info-", "kex-strict-"))
            )
            ours = ", ".join(getattr(transport.get_security_options(), ours_attribute))
            return f"offers no {what} we accept (it offers: {offer}; we accept: {ours})"
    return None


def _configure_algorithms(transport: paramiko.Transport, target: SSHTarget) -> None:
    """KexAlgorithms, Ciphers and MACs from the ssh config, read as ssh(1) reads them (`+`, `-`,
    `^` or a list; ssh_config(5)). They were ignored: a host that ssh(1) reached with
    `KexAlgorithms +diffie-hellman-group14-sha1` (an appliance, an sshd older than 6.5) failed
    here with "offers no key exchange algorithm we accept", and a list meant to narrow the
    choice was not honoured either."""
    security = transport.get_security_options()
    for keyword, spec, attribute, named_only in (
        ("KexAlgorithms", target.kex_algorithms, "kex", tuple(SHA1_KEX)),
        ("Ciphers", target.ciphers, "ciphers", ()),
        ("MACs", target.macs, "digests", ()),
    ):
        if not (spec or "").strip():
            continue
        try:
            chosen = configured_key_types(
                _with_paramiko_names(str(spec)), list(getattr(security, attribute)), named_only=named_only, keyword=keyword
            )
        except ValueError as exc:
            transport.close()
            raise UsageError(f"{target.alias}: ssh config: {exc}", hint="list algorithms paramiko supports, or remove the line") from None
        if any(name in SHA1_KEX for name in chosen):
            allow_sha1_kex(transport)
        setattr(security, attribute, chosen)


# curve25519-sha256 (RFC 8731) is the exchange paramiko knows by its older name only; hardened
# configs (ssh-audit's guides) list the new one, which must not leave paramiko nothing to offer.
_PARAMIKO_NAMES = {"curve25519-sha256": "curve25519-sha256@libssh.org"}


def _with_paramiko_names(spec: str) -> str:
    """`spec` with each name paramiko knows under another name followed by that name."""
    prefix = spec.strip()[:1] if spec.strip()[:1] in "+-^" else ""
    names = [name.strip() for name in spec.strip()[len(prefix):].split(",")]
    return prefix + ",".join(f"{name},{_PARAMIKO_NAMES[name]}" if name in _PARAMIKO_NAMES else name for name in names)


def _raise_if_proxy_ended(target: SSHTarget, sock: object) -> None:
    """A ProxyCommand that exited is the cause, whatever the handshake said about it."""
    if isinstance(sock, _ProxyCommand):
        why = sock.ended()
        if why is not None:
            raise HostUnreachableError(
                f"{target.alias}: ProxyCommand {target.proxy_command!r} {why}",
                hint="run the ProxyCommand by hand to see why it cannot reach the host",
            ) from None


def _raise_if_jump_dropped(target: SSHTarget, sock: object) -> None:
    """A jump connection that went down is the cause, whatever the handshake said about it
    (a login cut short by a dying bastion reads as "closed during authentication")."""
    if isinstance(sock, _JumpSocket) and dropped_hop([sock.gateway]) is not None:
        raise _jump_dropped(target, sock.gateway, "logging in to") from None


def _jump_dropped(target: SSHTarget, gateway: Connection, while_: str) -> HostUnreachableError:
    return HostUnreachableError(
        f"{target.alias}: jump host {gateway.target.alias} dropped the connection while {while_} "
        f"{target.hostname}:{target.port} through it",
        hint=f"{gateway.target.alias} rebooted, its sshd restarted or the network to it dropped",
    )


# A jump connection is marked down by its own thread a moment after it closes its channels,
# which is when the connections running over them notice.
_HOP_DEATH_NOTICE_S = 0.3


def dropped_hop(hops: list[Connection], within_s: float = _HOP_DEATH_NOTICE_S) -> Connection | None:
    """The first of `hops` (jump connections) that is down, waiting up to `within_s` for one to
    be seen down; None if all stay up."""
    if not hops:
        return None
    deadline = time.monotonic() + within_s
    while True:
        for hop in hops:
            if not hop.transport.is_active():
                return hop
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.02)


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def close_channel(channel: paramiko.Channel) -> None:
    """Close a channel whose connection may be gone already.

    paramiko's Channel.close sends EOF and CLOSE (paramiko/channel.py, close). On a connection
    that has died but whose transport thread has not noticed yet (its channels still look
    open: a host whose bastion just went down, a peer that reset) that send raises EOFError
    or OSError, which from a `finally` would replace the error being reported with a bare
    "internal error: EOFError". The dead connection is reported by whoever uses it next.
    """
    try:
        channel.close()
    except (paramiko.SSHException, EOFError, OSError):
        pass


def _handle_channel_request(channel: paramiko.Channel, message: paramiko.Message) -> None:
    """Record `exit-signal` (RFC 4254 section 6.10), which paramiko drops, then defer.

    paramiko's Channel._handle_request only knows `exit-status`; a command killed by a signal
    would otherwise read as exit status -1 with the signal name lost (paramiko/channel.py).
    """
    start = message.packet.tell()
    if message.get_text() == "exit-signal":
        message.get_boolean()  # want_reply: always false for exit-signal
        channel.exit_signal_name = message.get_text()  # type: ignore[attr-defined]
        channel.status_event.set()
        return
    message.packet.seek(start)
    paramiko.Channel._handle_request(channel, message)


def _handle_channel_close(channel: paramiko.Channel, message: paramiko.Message) -> None:
    """The server's CLOSE of a jump channel waits for a send in flight on it (see _JumpSocket)."""
    lock: threading.Lock | None = getattr(channel, "send_lock", None)
    taken = lock is not None and lock.acquire(timeout=_CLOSE_WAITS_FOR_SEND_S)
    try:
        paramiko.Channel._handle_close(channel, message)
    finally:
        if taken and lock is not None:
            lock.release()


_OFFER_LINES = frozenset(offer_line for _, offer_line, _ in _NEGOTIATED.values())


class ServerNotResponding(paramiko.SSHException):
    """The server left our keepalive probes unanswered: the connection is given up."""


class _SignalAwareTransport(paramiko.Transport):
    _channel_handler_table = {
        **paramiko.Transport._channel_handler_table,
        MSG_CHANNEL_REQUEST: _handle_channel_request,
        MSG_CHANNEL_CLOSE: _handle_channel_close,
    }

    unanswered_probes = 0
    pre_banner: tuple[str, ...] = ()
    """The first lines the server sent before its SSH banner (usually none)."""
    server_offer: dict[str, str] = {}  # noqa: RUF012 - replaced, never mutated: a per-instance value
    """The server's algorithm lists from its KEXINIT ("server key": "ssh-rsa", ...), as logged."""
    disconnect_reason: str | None = None
    """The description of the server's SSH_MSG_DISCONNECT, if it sent one ("Too many
    authentication failures" from sshd past MaxAuthTries)."""
    not_responding: ServerNotResponding | None = None
    host_key_warning: str | None = None
    """Why the host key was accepted although known_hosts disagrees (StrictHostKeyChecking no)."""
    """Why the connection was given up, when the server stopped answering."""

    @property
    def preferred_keys(self) -> tuple[str, ...]:
        """paramiko's list (the types, then each one's certificate type) without certificate
        types twice over when the list already names them (a host CA in known_hosts)."""
        plain = tuple(self._filter_algorithm("keys"))  # type: ignore[attr-defined]
        certificates = (f"{name}{_CERT_SUFFIX}" for name in plain if not name.endswith(_CERT_SUFFIX))
        return tuple(dict.fromkeys((*plain, *certificates)))

    @property
    def preferred_pubkeys(self) -> tuple[str, ...]:
        """The signature algorithms for user keys, ssh-rsa first where the config allows it and
        the server named none (no server-sig-algs: sshd < 7.2), as ssh(1) then signs with the
        key's own algorithm (openssh-portable: sshconnect2.c, key_sig_algorithm). paramiko
        would sign with rsa-sha2-512, which such a server refuses as it would a wrong key."""
        algorithms = tuple(super().preferred_pubkeys)
        if SHA1_RSA in algorithms and "server-sig-algs" not in self.server_extensions:
            return (SHA1_RSA, *(name for name in algorithms if name != SHA1_RSA))
        return algorithms

    def keep_server_alive(self, interval_s: int, count_max: int) -> None:
        """ServerAliveInterval/ServerAliveCountMax as ssh(1) applies them (openssh-portable:
        clientloop.c, server_alive_check): after `interval_s` quiet seconds, a
        `keepalive@openssh.com` request that wants a reply; `count_max` of them unanswered and
        the connection is given up.

        paramiko's own keepalive asks for no reply (paramiko/transport.py, set_keepalive), so
        it never notices a server whose kernel still acknowledges our packets while sshd
        itself is frozen (a host swapping to death, sshd stuck on a dead NFS mount), nor a
        host that goes quiet behind a healthy bastion. A step with no timeout then waits
        forever. Any server answers the request, with failure if it does not know it (RFC
        4254, section 4). The probe runs in the transport thread, on a quiet read
        (paramiko/packet.py, _check_keepalive); raising there ends the connection as a
        dropped socket would, waking every channel.
        """

        def probe() -> None:
            if self.unanswered_probes >= count_max:
                self.not_responding = ServerNotResponding(f"the server stopped answering ({count_max} keepalives unanswered)")
                raise self.not_responding
            self.unanswered_probes += 1
            request = paramiko.Message()
            request.add_byte(cMSG_GLOBAL_REQUEST)
            request.add_string("keepalive@openssh.com")
            request.add_boolean(True)  # want_reply: the whole point
            self._send_user_message(request)

        self.packetizer.set_keepalive(interval_s, probe)

    def _log(self, level: int, msg: object, *args: object) -> None:
        # paramiko's _check_banner logs each line before the banner as "Banner: LINE" and keeps
        # nothing else of it (paramiko/transport.py); a few are kept for _not_a_banner.
        if isinstance(msg, str) and msg.startswith("Banner: ") and len(self.pre_banner) < 4:
            self.pre_banner = (*self.pre_banner, msg[len("Banner: ") :])
        # _parse_kex_init logs the server's offer, "server key: ssh-rsa" (first key exchange only).
        elif isinstance(msg, str) and not self.initial_kex_done and msg.partition(": ")[0] in _OFFER_LINES:
            name, _, offer = msg.partition(": ")
            self.server_offer = {**self.server_offer, name: offer}
        # Likewise _parse_disconnect logs the server's reason and drops it.
        elif isinstance(msg, str) and msg.startswith("Disconnect (code "):
            self.disconnect_reason = msg.partition("): ")[2].strip() or None
        super()._log(level, msg, *args)

    # Any reply to a global request (ours are only the probes) proves the server alive.
    def _parse_request_success(self, m: paramiko.Message) -> None:
        self.unanswered_probes = 0
        super()._parse_request_success(m)  # type: ignore[misc]

    def _parse_request_failure(self, m: paramiko.Message) -> None:
        self.unanswered_probes = 0
        super()._parse_request_failure(m)  # type: ignore[misc]
