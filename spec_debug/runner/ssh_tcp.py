"""The TCP connect to a host as ssh(1) makes it: AddressFamily, BindAddress,
ConnectionAttempts, and socket options for short commands and dead peers; every wait
abandonable (ssh_abandon)."""

from __future__ import annotations

import errno
import socket
import threading

from spec_debug.runner.ssh_abandon import _ABANDONED, _abandonable_call, abandonable
from spec_debug.runner.ssh_config import SSHTarget, invalid_host_name, quoted_host_name
from spec_debug.runner.ssh_errors import HostUnreachableError


class _TcpSocket(socket.socket):
    """A connection's socket that notes when the kernel gave up on it (ETIMEDOUT): no
    acknowledgement, or a receive window that stayed closed, for TCP_USER_TIMEOUT (a host that
    stopped answering, or a network gone dark). paramiko cannot tell: since Python 3.10
    socket.timeout is TimeoutError, so its packetizer takes the ETIMEDOUT for its own 0.1 s read
    timeout and reads on, and the next send fails with EPIPE, an EOFError like a host that
    rebooted (paramiko/packet.py, read_all and write_all). A fetch from a host whose sshd froze
    (its kernel still acknowledging, the window closed once its buffers filled) was said to
    have "rebooted, sshd restarted or the network dropped"."""

    gave_up_after_s: float | None = None
    """TCP_USER_TIMEOUT in seconds, once the kernel gave up on the connection."""
    user_timeout_s: float | None = None

    def recv(self, size: int, flags: int = 0) -> bytes:
        try:
            return super().recv(size, flags)
        except TimeoutError as exc:
            self._note_timeout(exc)
            raise

    def send(self, data: bytes, flags: int = 0) -> int:  # type: ignore[override]
        try:
            return super().send(data, flags)
        except TimeoutError as exc:
            self._note_timeout(exc)
            raise

    def _note_timeout(self, exc: TimeoutError) -> None:
        if exc.errno == errno.ETIMEDOUT:  # the kernel's give-up, not a socket timeout of ours
            self.gave_up_after_s = self.user_timeout_s


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


def _attempts_said(target: SSHTarget, after: str = " after") -> str:
    """` after 3 attempts (ConnectionAttempts 3)` where the config asked for several: a host
    refused after `ConnectionAttempts 3` said "connection refused" alone, read as one try, and
    the user raised ConnectionAttempts that was already raised. ssh(1) tries again only after
    a failed connect (sshconnect.c, ssh_connect_direct), so every attempt was made."""
    if target.connection_attempts <= 1:
        return ""
    return f"{after} {target.connection_attempts} attempts (ConnectionAttempts {target.connection_attempts})"


# What a newcomer types for "this machine" with no sshd on it. `--host LOCAL` (run's own word
# in capitals) was looked up in DNS ("cannot resolve host name 'local'") and `--host localhost`
# was "connection refused by localhost:22", neither naming `--host local`, which runs the
# playbook here without ssh.
_THIS_MACHINE = frozenset({"local", "localhost", "127.0.0.1", "::1"})


def _this_machine_hint(target: SSHTarget, hint: str) -> str:
    if target.alias.lower() not in _THIS_MACHINE or target.port != 22:
        return hint
    said = "to run on this machine without ssh: `--host local`" + (" (lower case)" if target.alias.lower() == "local" else "")
    return f"{hint} {said[0].upper()}{said[1:]}" if hint.endswith("?") else f"{hint}; {said}"


def _tcp_connect(target: SSHTarget) -> socket.socket:
    where = target.address
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
            f"{target.alias}: cannot resolve host name {quoted_host_name(target.hostname)} ({exc.strerror})",
            hint=_this_machine_hint(target, "check the name, or its HostName in your ssh config"),
        ) from None
    except (socket.timeout, TimeoutError):
        raise HostUnreachableError(
            f"{target.alias}: TCP connect to {where} timed out after {target.connect_timeout_s:g} s{_attempts_said(target, ' on each of')}",
            hint="host down or firewalled; raise ConnectTimeout if the network is slow",
        ) from None
    except ConnectionRefusedError:
        raise HostUnreachableError(
            f"{target.alias}: connection refused by {where}{_attempts_said(target)}",
            hint=_this_machine_hint(target, "is sshd running and listening on that port?"),
        ) from None
    except OSError as exc:
        reason = exc.strerror or errno.errorcode.get(exc.errno or 0, str(exc))
        raise HostUnreachableError(f"{target.alias}: cannot reach {where}: {reason}{_attempts_said(target)}") from None
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    interval = max(1, int(target.keepalive_s))
    if hasattr(socket, "TCP_KEEPIDLE"):  # Linux; macOS has only SO_KEEPALIVE defaults
        # The kernel refuses (EINVAL) a keepalive past its bounds, which ssh(1)'s own
        # ServerAliveInterval 1d / ServerAliveCountMax 500 are not held to: every connect
        # ended in that OSError. Kept within them (Linux include/net/tcp.h, MAX_TCP_KEEPIDLE,
        # MAX_TCP_KEEPINTVL, MAX_TCP_KEEPCNT); the SSH keepalive keeps the interval as set.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, min(interval, _MAX_TCP_KEEP_S))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, min(interval, _MAX_TCP_KEEP_S))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, min(max(1, target.keepalive_count_max), _MAX_TCP_KEEPCNT))
    if hasattr(socket, "TCP_USER_TIMEOUT"):
        # Once our keepalive probes are in flight TCP keepalive stops probing. TCP_USER_TIMEOUT
        # (RFC 5482) closes the socket when sent data stays unacknowledged this long: the same
        # ServerAliveInterval x CountMax bound at the TCP level, for a link that goes dark
        # (keep_server_alive catches a peer that still acknowledges but no longer answers).
        timeout_ms = min(interval * (max(1, target.keepalive_count_max) + 1) * 1000, 2**31 - 1)  # a C int
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, timeout_ms)
        if isinstance(sock, _TcpSocket):
            sock.user_timeout_s = timeout_ms / 1000
    return sock


_MAX_TCP_KEEP_S = 32767
"""Linux's bound on TCP_KEEPIDLE and TCP_KEEPINTVL (include/net/tcp.h, MAX_TCP_KEEPIDLE)."""
_MAX_TCP_KEEPCNT = 127
"""Linux's bound on TCP_KEEPCNT (include/net/tcp.h, MAX_TCP_KEEPCNT)."""

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
        sock = _TcpSocket(family, kind, proto)
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
    try:
        return _abandonable_call(lambda: socket.getaddrinfo(hostname, port, family, socket.SOCK_STREAM))
    except UnicodeError:
        # Python encodes the name with the idna codec before the lookup, which refuses an empty
        # or over-63-character label (`gpu..lab`, a typo; a name pasted twice) with a UnicodeError:
        # the host failed as "internal error: UnicodeError: encoding with 'idna' codec failed",
        # naming neither the host nor its name. ssh(1) says it cannot resolve the name.
        raise socket.gaierror(socket.EAI_NONAME, invalid_host_name(hostname)) from None
