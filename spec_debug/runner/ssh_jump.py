"""ProxyJump: jump connections shared by the hosts behind them (_JumpPool), the direct-tcpip
channel through a jump host used as the next hop's socket, loops, and a jump host that drops."""

from __future__ import annotations

import errno
import threading
import time
from typing import Callable, Iterable

import paramiko

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_abandon import _ABANDONED, _abandonable_call
from spec_debug.runner.ssh_config import SSHTarget
from spec_debug.runner.ssh_connection import Connection
from spec_debug.runner.ssh_errors import HostUnreachableError, _one_line
from spec_debug.runner.ssh_transport import close_channel


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


def _prohibited_hint(jump: str, where: str, server_debug: Iterable[str]) -> str:
    """What forbids the jump host to forward to `where`. After a key login sshd tells the client
    the options of the authorized_keys line that let the key in ("FILE:LINE: key options:
    port-forwarding pty ..."; openssh-portable: auth.c, auth_log_authopts): a line without
    port-forwarding (restrict, no-port-forwarding) or with a permitopen= list is the cause, and
    a line that allows it leaves sshd_config. The hint guessed among them all, and sent people
    to ask an admin to change sshd_config where their own key's line was the cause."""
    for said in server_debug:
        line, marker, options = said.rpartition(": key options:")
        if not (marker and line):
            continue
        words = options.split()
        if "port-forwarding" not in words:
            return (f"the line of your key in {jump}'s authorized_keys ({line}) forbids forwarding (restrict, or "
                    "no-port-forwarding; sshd says its options are: " + (" ".join(words) or "none") + "): add "
                    f"port-forwarding to that line (restrict,port-forwarding), or reach {jump} with another key; "
                    "`ssh -J` is refused the same way")
        if "permitopen" in words:
            return (f"the line of your key in {jump}'s authorized_keys ({line}) has a permitopen= list that leaves "
                    f"{where} out: add permitopen=\"{where}\" to it, or reach {jump} with another key; "
                    "`ssh -J` is refused the same way")
        return (f"{jump}'s sshd_config forbids it (AllowTcpForwarding no, DisableForwarding yes, a PermitOpen list; "
                f"your key's line, {line}, allows forwarding); `ssh -J` is refused the same way: ask for forwarding "
                "to be allowed, or use another jump host")
    return (f"{jump}'s sshd_config forbids it (AllowTcpForwarding no, DisableForwarding yes, "
            "a PermitOpen list), or your key's authorized_keys line does (restrict, permitopen=); "
            "`ssh -J` is refused the same way: ask for forwarding to be allowed, or use another jump host")


def _jump_channel(gateway: Connection, target: SSHTarget) -> "_JumpSocket":
    where = target.address
    try:
        return _JumpSocket(_open_direct_tcpip(gateway, target), gateway)
    except paramiko.ChannelException as exc:
        if exc.code == _OPEN_ADMINISTRATIVELY_PROHIBITED:
            raise HostUnreachableError(
                f"{target.alias}: jump host {gateway.target.alias} could not open a connection to {where}: "
                f"it refuses to forward connections there ({exc.text})",
                hint=_prohibited_hint(gateway.target.alias, where, getattr(gateway.transport, "server_debug", ())),
            ) from None
        raise HostUnreachableError(
            f"{target.alias}: jump host {gateway.target.alias} could not open a connection to {where} ({exc.text})",
            hint=f"check {target.alias}'s HostName and Port as {gateway.target.alias} sees them, and that sshd runs there",
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


# RFC 4254 section 5.1: SSH_OPEN_ADMINISTRATIVELY_PROHIBITED, what sshd answers a direct-tcpip
# open its configuration forbids (openssh-portable: channels.c, channel_connect_to_port).
_OPEN_ADMINISTRATIVELY_PROHIBITED = 1


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


def _raise_if_jump_dropped(target: SSHTarget, sock: object) -> None:
    """A jump connection that went down is the cause, whatever the handshake said about it
    (a login cut short by a dying bastion reads as "closed during authentication")."""
    if isinstance(sock, _JumpSocket) and dropped_hop([sock.gateway]) is not None:
        raise _jump_dropped(target, sock.gateway, "logging in to") from None


def _jump_dropped(target: SSHTarget, gateway: Connection, while_: str) -> HostUnreachableError:
    return HostUnreachableError(
        f"{target.alias}: jump host {gateway.target.alias} dropped the connection while {while_} "
        f"{target.address} through it",
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
