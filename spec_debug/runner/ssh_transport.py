"""The paramiko Transport we open connections with: what it keeps of the server's words
(pre-banner lines, algorithm offer, disconnect reason), keepalives that want a reply, and
channel handlers for `exit-signal` and a jump channel's CLOSE."""

from __future__ import annotations

import threading
import time
from typing import Callable

import paramiko
from paramiko.auth_handler import AuthHandler
from paramiko.common import MSG_CHANNEL_CLOSE, MSG_CHANNEL_DATA, MSG_CHANNEL_EXTENDED_DATA, MSG_CHANNEL_REQUEST, cMSG_GLOBAL_REQUEST

from spec_debug.runner.ssh_handshake_failures import _OFFER_LINES
from spec_debug.runner.ssh_hostkeys import SHA1_RSA


_CERT_SUFFIX = "-cert-v01@openssh.com"


# How long the jump connection's thread waits, on the server's CLOSE of a forwarded channel,
# for a send in flight on it to finish; a send holds the lock for at most the socket timeout
# paramiko sets (0.1 s) plus the packet's write.
_CLOSE_WAITS_FOR_SEND_S = 2.0


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


# The least a step's or a copy's exec or subsystem request waits for sshd's answer, whatever
# ConnectTimeout says: sites set ConnectTimeout 2-5 s to fail fast on hosts that are down, and a
# loaded but healthy host's sshd can take that long to fork the command (a step's exec answered
# after 3-6 s was cut off as a hung host). As long as the first command after login gets
# (SSHTransport.check_login_shell); a larger ConnectTimeout raises it.
REQUEST_ANSWER_FLOOR_S = 10.0


def request_answer_s(connect_timeout_s: float) -> float:
    """How long a step's or a copy's channel request waits for sshd's answer (answered_within):
    ConnectTimeout, but never under REQUEST_ANSWER_FLOOR_S."""
    return max(connect_timeout_s, REQUEST_ANSWER_FLOOR_S)


def answered_within(channel: paramiko.Channel, request: Callable[[], None], within_s: float) -> bool:
    """Make a channel request (exec_command, invoke_subsystem) and wait at most within_s for
    sshd's answer; False, the channel closed, when none came. paramiko waits for it without
    limit (paramiko/channel.py, _wait_for_event), and sshd answers an exec or subsystem request
    only once it has forked the command (openssh-portable session.c, do_exec_no_pty): an sshd
    that opened the channel and then froze (its fork stalled in memory reclaim, a thrashing
    host, a stopped process) held the run for good. Closing the channel wakes that wait
    (paramiko/channel.py, _set_closed sets the event)."""
    answered, gave_up = threading.Event(), threading.Event()

    def watch() -> None:
        # A thread of its own, not threading.Timer: the fetch deadline's own timer is one, and
        # tests/core/test_review18_sftp_deadline_after_copy.py makes every Timer fire on cancel().
        if not answered.wait(within_s):
            gave_up.set()
            close_channel(channel)

    threading.Thread(target=watch, name="channel-request-watch", daemon=True).start()
    try:
        request()
    except paramiko.SSHException:
        if not gave_up.is_set():
            raise
    finally:
        answered.set()
    return not gave_up.is_set()


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


def _handle_data(channel: paramiko.Channel, message: paramiko.Message) -> None:
    """Note when the server last sent a channel's output (data_arrived_at), then defer."""
    channel.transport.data_arrived_at = time.monotonic()  # type: ignore[union-attr]
    paramiko.Channel._feed(channel, message)


def _handle_extended_data(channel: paramiko.Channel, message: paramiko.Message) -> None:
    channel.transport.data_arrived_at = time.monotonic()  # type: ignore[union-attr]
    paramiko.Channel._feed_extended(channel, message)


def keepalive_request() -> paramiko.Message:
    """ssh(1)'s `keepalive@openssh.com` global request, wanting a reply: any server answers it,
    with failure when it does not know it (RFC 4254, section 4)."""
    request = paramiko.Message()
    request.add_byte(cMSG_GLOBAL_REQUEST)
    request.add_string("keepalive@openssh.com")
    request.add_boolean(True)  # want_reply: the whole point
    return request


class ServerNotResponding(paramiko.SSHException):
    """The server left our keepalive probes unanswered: the connection is given up."""


class _SignalAwareTransport(paramiko.Transport):
    _channel_handler_table = {
        **paramiko.Transport._channel_handler_table,
        MSG_CHANNEL_REQUEST: _handle_channel_request,
        MSG_CHANNEL_CLOSE: _handle_channel_close,
        MSG_CHANNEL_DATA: _handle_data,
        MSG_CHANNEL_EXTENDED_DATA: _handle_extended_data,
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
    data_arrived_at = 0.0
    """time.monotonic() of the last channel output received: a link still busy carrying it
    (slow, or a flood of output) is told from a server that went silent."""
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
            self._send_user_message(keepalive_request())

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

    # paramiko bounds the wait for sshd's verdict on a login with the wall clock
    # (paramiko/auth_handler.py, AuthHandler.wait_for_response: time.time() + auth_timeout), so a
    # clock stepped forward while a key, password or "none" was being answered (NTP or chrony
    # correcting a VM paused, restored from a snapshot or migrated; a laptop waking) read as a
    # healthy host that "did not answer authentication within 15 s", a fraction of a second in.
    # Each login below starts paramiko's request with an event and waits in paramiko's own wait
    # with no wall-clock bound, ended by a timer (monotonic) after auth_timeout.
    def auth_publickey(self, username: str, key: paramiko.PKey, event: threading.Event | None = None) -> list[str]:
        if event is not None:
            return super().auth_publickey(username, key, event)
        answered = threading.Event()
        super().auth_publickey(username, key, answered)
        return self._auth_verdict(answered)

    def auth_password(
        self, username: str, password: str, event: threading.Event | None = None, fallback: bool = True
    ) -> list[str]:
        if event is not None or fallback:  # paramiko's fallback to keyboard-interactive waits in its own code
            return super().auth_password(username, password, event, fallback)
        answered = threading.Event()
        super().auth_password(username, password, answered)
        return self._auth_verdict(answered)

    def auth_none(self, username: str) -> list[str]:
        # paramiko's auth_none takes no event; this is its body with one (paramiko/transport.py).
        if not self.active or not self.initial_kex_done:
            raise paramiko.SSHException("No existing session")
        answered = threading.Event()
        self.auth_handler = AuthHandler(self)
        self.auth_handler.auth_none(username, answered)
        return self._auth_verdict(answered)

    def _auth_verdict(self, answered: threading.Event) -> list[str]:
        """paramiko's wait for sshd's answer to a login request, bounded by auth_timeout on the
        monotonic clock (a timer) instead of its wall-clock one; the same exception on running out."""
        bound = self.auth_timeout
        if bound is None:
            return self.auth_handler.wait_for_response(answered)  # type: ignore[union-attr]
        ran_out = threading.Event()

        def run_out() -> None:
            ran_out.set()
            answered.set()  # ends paramiko's wait; no verdict came, so it raises

        timer = threading.Timer(bound, run_out)
        timer.daemon = True
        self.auth_timeout = None  # paramiko's own bound reads time.time()
        timer.start()
        try:
            return self.auth_handler.wait_for_response(answered)  # type: ignore[union-attr]
        except paramiko.AuthenticationException:
            if ran_out.is_set() and self.is_active() and not self.is_authenticated():
                raise paramiko.AuthenticationException("Authentication timeout.") from None
            raise
        finally:
            timer.cancel()
            self.auth_timeout = bound

    # Any reply to a global request (ours are only the probes) proves the server alive.
    def _parse_request_success(self, m: paramiko.Message) -> None:
        self.unanswered_probes = 0
        super()._parse_request_success(m)  # type: ignore[misc]

    def _parse_request_failure(self, m: paramiko.Message) -> None:
        self.unanswered_probes = 0
        super()._parse_request_failure(m)  # type: ignore[misc]
