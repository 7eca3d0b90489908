"""The paramiko Transport we open connections with: what it keeps of the server's words
(pre-banner lines, algorithm offer, disconnect reason), keepalives that want a reply, and
channel handlers for `exit-signal` and a jump channel's CLOSE."""

from __future__ import annotations

import functools
import heapq
import itertools
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

import paramiko
from paramiko.auth_handler import AuthHandler
from paramiko.buffered_pipe import BufferedPipe
from paramiko.common import (
    CONNECTION_FAILED_CODE,
    DEBUG,
    ERROR,
    MSG_CHANNEL_CLOSE,
    MSG_CHANNEL_DATA,
    MSG_CHANNEL_EXTENDED_DATA,
    MSG_CHANNEL_REQUEST,
    cMSG_GLOBAL_REQUEST,
)
from paramiko.packet import NeedRekeyException

from spec_debug.runner.ssh_handshake_failures import _OFFER_LINES
from spec_debug.runner.ssh_hostkeys import SHA1_RSA
from spec_debug.runner.ssh_login_turns import LoginTurns


_CERT_SUFFIX = "-cert-v01@openssh.com"


# The timeout handed to paramiko's own wall-clock waits that a monotonic timer of ours bounds
# instead: never reached, even by a clock stepped years ahead.
_NO_WALL_CLOCK_BOUND_S = 100 * 365 * 86400.0


@dataclass(order=True)
class _Alarm:
    deadline: float
    ident: int
    call: Callable[[], None] | None = field(compare=False)
    """None once cancelled: the call (and the transport it holds) is dropped then, not at its deadline."""


class _Alarms:
    """Calls at deadlines on the monotonic clock, all from one daemon thread: the bounds put
    on paramiko's per-channel waits (open_channel below) and on a login's banner, key exchange
    and authentication waits (a 16-host fleet's logins started three Timer threads a host).
    A call may block or raise: each runs on a thread of its own once due. A threading.Timer
    per channel open started and ended a thread on every step's channel: measured on a
    loopback sshd, 1.5 ms of CPU per open_session + exec + close became 1.8 ms. Arming and
    cancelling here is a heap push and a mark; the thread wakes only for the earliest deadline."""

    def __init__(self) -> None:
        self._cv = threading.Condition()
        self._due: list[_Alarm] = []  # a heap
        self._armed: dict[int, _Alarm] = {}
        self._idents = itertools.count()
        self._thread: threading.Thread | None = None

    def after(self, seconds: float, call: Callable[[], None]) -> int:
        with self._cv:
            alarm = _Alarm(time.monotonic() + seconds, next(self._idents), call)
            heapq.heappush(self._due, alarm)
            self._armed[alarm.ident] = alarm
            if self._thread is None or not self._thread.is_alive():  # first use, or a forked child
                self._thread = threading.Thread(target=self._run, name="spec-debug-alarms", daemon=True)
                self._thread.start()
            elif self._due[0] is alarm:
                self._cv.notify()
            return alarm.ident

    def cancel(self, ident: int) -> None:
        with self._cv:
            alarm = self._armed.pop(ident, None)
            if alarm is None:
                return
            alarm.call = None
            if len(self._due) > 2 * len(self._armed) + 64:
                self._due = [kept for kept in self._due if kept.call is not None]
                heapq.heapify(self._due)

    def _run(self) -> None:
        while True:
            with self._cv:
                call = self._next_due()
            # Each call that comes due runs on a thread of its own: one that blocks (a give-up
            # that waits on a transport lock a stalled send holds, a close waiting on a
            # ProxyCommand) or raises would otherwise hold or end every other host's bounds.
            # Calls come due only when a bound runs out, rarely; arming and cancelling, the
            # common path, start no thread.
            try:
                threading.Thread(target=_call_quietly, args=(call,), name="spec-debug-alarm-call", daemon=True).start()
            except RuntimeError:  # "can't start new thread" (a process at its thread limit): run it here
                _call_quietly(call)

    def _next_due(self) -> Callable[[], None]:
        """Waits (the condition held) for the earliest armed deadline and returns its call."""
        while True:
            if not self._due:
                self._cv.wait()
                continue
            alarm = self._due[0]
            if alarm.call is None:
                heapq.heappop(self._due)
                continue
            left = alarm.deadline - time.monotonic()
            if left > 0:
                self._cv.wait(left)
                continue
            heapq.heappop(self._due)
            del self._armed[alarm.ident]
            return alarm.call


def _call_quietly(call: Callable[[], None]) -> None:
    try:
        call()
    except Exception:  # noqa: BLE001 - a bound's own failure has no one to be told to
        pass


_ALARMS = _Alarms()


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
    # The bound is an alarm on the shared thread: a watcher thread per request started and
    # ended one on every step's exec and every copy's subsystem request. The close, which
    # sends and may wait on the connection, runs only when the alarm fires (on its own thread).
    settled = threading.Lock()
    gave_up = threading.Event()

    def give_up() -> None:
        with settled:
            if answered:
                return
            gave_up.set()
        close_channel(channel)

    answered: list[bool] = []
    alarm = _ALARMS.after(within_s, give_up)
    try:
        request()
    except paramiko.SSHException:
        if not gave_up.is_set():
            raise
    finally:
        _ALARMS.cancel(alarm)
        with settled:
            answered.append(True)
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


def _reads_on_the_monotonic_clock(channel: paramiko.Channel) -> None:
    """A channel's reads and sends under a timeout (channel.settimeout: our SFTP copies' stall
    bound, the 0.1 s reads paramiko's packetizer makes on a jump channel) timed on the
    monotonic clock. paramiko counts the time waited with time.time() (paramiko/buffered_pipe.py,
    read; paramiko/channel.py, _wait_for_send_window), so a wall clock stepped forward ended a
    healthy copy's wait at once as a stall, and one stepped back made a single read wait the
    step's size (a stalled copy, or the keepalive checks of a host behind a jump host, held that
    long). Set before anyone reads the channel.

    The class is swapped, not the methods set on the instance: a method bound to the channel
    and kept on it is a reference cycle, and a channel dropped unclosed then outlived its last
    reference until the garbage collector ran, its sshd session slot with it, instead of being
    closed at once by paramiko's Channel.__del__."""
    channel.__class__ = _MonotonicChannel
    for pipe in (channel.in_buffer, channel.in_stderr_buffer):
        pipe.__class__ = _MonotonicPipe


class _MonotonicChannel(paramiko.Channel):
    def _wait_for_send_window(self, size: int) -> int:
        """A send's wait for the peer to open its window (called with the channel's lock
        held), counted on the monotonic clock under the channel's timeout: paramiko counts it
        with time.time() as a read's, so a clock stepped forward failed a healthy upload to a
        slow host as a stall. Once the window is open (or the channel closed) paramiko's own
        wait returns at once, with 0 for a closed channel as before: not a timeout."""
        timeout = self.timeout
        if timeout is not None and timeout > 0 and self.out_window_size == 0:
            deadline = time.monotonic() + timeout
            while self.out_window_size == 0 and not (self.closed or self.eof_sent):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise socket.timeout()
                self.out_buffer_cv.wait(left)
        return int(super()._wait_for_send_window(size))


class _MonotonicPipe(BufferedPipe):  # type: ignore[type-arg]
    def read(self, nbytes: int, timeout: float | None = None) -> bytes:
        """BufferedPipe.read with its timeout counted on the monotonic clock: the wait is
        ours, on the pipe's own condition, and paramiko's read then runs with no wait at all.
        No timeout (None) blocks as paramiko's; a pipe closed while waiting returns b"" at once."""
        if timeout is None or timeout <= 0:
            return bytes(super().read(nbytes, timeout))
        deadline = time.monotonic() + timeout
        with self._cv:
            while len(self._buffer) == 0 and not self._closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._cv.wait(left)
        return bytes(super().read(nbytes, 0.0))  # PipeTimeout when nothing came in time


def _keepalive_on_the_monotonic_clock(packetizer: paramiko.Packetizer, interval_s: float, probe: Callable[[], None]) -> None:
    """paramiko's keepalive schedule (a probe after interval_s with nothing written, checked on
    each quiet read) on the monotonic clock. paramiko keeps it with time.time()
    (paramiko/packet.py, _check_keepalive and write_all), so a wall clock stepped back (NTP or
    chrony correcting a clock that ran fast, a VM's after a restore) sent no probe until the
    clock caught up: a host that froze mid-step went unnoticed for the size of the step, and a
    step with no timeout waited on it that long."""
    written_at = [time.monotonic()]
    write_all = packetizer.write_all

    def written(out: bytes) -> None:
        written_at[0] = time.monotonic()
        write_all(out)

    def check() -> None:
        if packetizer.need_rekey():
            return  # as paramiko: not while keys are being renegotiated
        now = time.monotonic()
        if now - written_at[0] > interval_s:
            written_at[0] = now
            probe()

    packetizer.write_all = written  # type: ignore[method-assign]
    packetizer._check_keepalive = check  # type: ignore[method-assign]


class _AlarmHandle:
    """An alarm on _ALARMS in the shape paramiko's packetizer keeps its handshake timer: cancel()."""

    def __init__(self, ident: int) -> None:
        self.ident = ident

    def cancel(self) -> None:
        _ALARMS.cancel(self.ident)


class _HandshakeBoundOnAlarms(paramiko.Packetizer):
    """paramiko's packetizer with its handshake bound (handshake_timeout, 15 s) an alarm on the
    shared thread: paramiko starts a threading.Timer per connection for it (paramiko/packet.py,
    start_handshake), one more thread per host of a fleet's logins. The transport's packetizer
    class; the bound and what it does (read_timer) are paramiko's. It also notes when reading
    ended the connection (read_ended, for _SignalAwareTransport.is_active), and whose turn the
    time went to (turns, for ssh_auth's word on a login sshd cut off)."""

    read_ended = False
    """Reading met the connection's end (EOF, a reset, a mangled packet): the transport's loop
    is over, though paramiko has not yet cleared `active`."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.turns = LoginTurns()
        """Whose turn the time went to (ssh_auth says which side was slow when sshd hangs up mid-login)."""

    def send_message(self, data: paramiko.Message) -> None:
        self.turns.sent()  # before the write: the answer can be read before send_message returns
        super().send_message(data)

    def read_message(self) -> tuple[int, paramiko.Message]:
        try:
            message = super().read_message()
        except NeedRekeyException:  # the loop goes on: a key exchange, not an end
            raise
        except BaseException:
            self.read_ended = True
            self.turns.ended()
            raise
        self.turns.answered()
        return message  # type: ignore[no-any-return]

    def start_handshake(self, timeout: float) -> None:
        # The timer is paramiko's private __timer (paramiko/packet.py 3.4.0 to 4.0.0): a release
        # that renames it gets paramiko's own Timer, the bound kept, rather than a login failing.
        if not hasattr(self, "_Packetizer__timer"):
            super().start_handshake(timeout)
        elif not self._Packetizer__timer:  # type: ignore[attr-defined]
            self._Packetizer__timer = _AlarmHandle(_ALARMS.after(float(timeout), self.read_timer))


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
    signing_agent: object | None = None
    """The ssh-agent the login in progress signs with (ssh_auth.authenticate), which _auth_verdict waits for."""
    server_debug: tuple[str, ...] = ()
    """The server's SSH_MSG_DEBUG texts, each once, the first few: after a key login sshd sends
    the options of the authorized_keys line that let the key in (`FILE:LINE: key options:
    command`; openssh-portable: auth.c, auth_log_authopts), which `ssh -v` prints as "Remote:"."""
    """Why the connection was given up, when the server stopped answering."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        # paramiko's own hook (Transport(packetizer_class=...), since 3.4, the oldest release
        # pyproject allows), not a class swapped on the live packetizer.
        kwargs.setdefault("packetizer_class", _HandshakeBoundOnAlarms)
        self._held_until_new_keys: list[paramiko.Message] = []
        """Messages of the transport's own thread sent during a key exchange (_send_user_message)."""
        self._refusals: dict[int, paramiko.ChannelException] = {}
        """The server's refusal of each channel open still awaited (_parse_channel_open_failure)."""
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def get_exception(self) -> Exception | None:
        """paramiko's, but a refused channel open gets its own refusal. paramiko keeps one
        saved exception for the whole connection (paramiko/transport.py,
        _parse_channel_open_failure sets saved_exception, open_channel reads it back through
        get_exception, which clears it): two opens refused together (MaxSessions reached, a step
        beside a copy or a kill) both took the second refusal, or one took it and the other
        found none and raised "Unable to open channel.", which read as the connection lost
        (seen in a run of tests/ssh/test_transport.py on a loaded machine)."""
        opening: list[int] | None = getattr(self._opening, "chanid", None)  # open_channel's, in this thread
        if opening:
            with self.lock:
                refusal = self._refusals.pop(opening[0], None)
            if refusal is not None:
                return refusal
        return super().get_exception()  # type: ignore[no-any-return]

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

    def is_active(self) -> bool:
        """paramiko's, False as soon as reading ended the connection. paramiko's run() closes
        every channel (Channel._unlink) before it clears `active`: a step that saw its channel
        closed by the host going down found the transport still active, and was recorded as
        a timeout whose processes were killed, or as an sshd ChannelTimeout, instead of a host
        lost (seen in a CI run on a loaded machine)."""
        return super().is_active() and not getattr(self.packetizer, "read_ended", False)

    def _send_user_message(self, data: paramiko.Message) -> None:
        """paramiko's send, which waits while a key exchange runs; from the transport's own
        thread the message waits in a queue instead, sent once the new keys are in use.

        That thread answers the server's CHANNEL_CLOSE (Channel._handle_close) and its
        want-reply channel requests (sshd's ClientAliveInterval keepalive) through here, and it
        alone runs the key exchange: in one that paramiko started (REKEY_BYTES, 2^29 bytes
        either way: a large fetch or a step's flood of output) a CLOSE that crossed our KEXINIT
        blocked it for clear_to_send_timeout (30 s), after which the connection was dropped
        with "Key-exchange timed out waiting for key negotiation" (paramiko/paramiko#822, open).
        Only the thread's own messages wait: no other message may go out before NEWKEYS
        (RFC 4253, section 7.1), and another thread's send still waits as paramiko makes it."""
        if threading.current_thread() is self and not self.clear_to_send.is_set():
            self._held_until_new_keys.append(data)
            return
        super()._send_user_message(data)

    def _parse_newkeys(self, m: paramiko.Message) -> None:
        super()._parse_newkeys(m)  # type: ignore[misc]
        held, self._held_until_new_keys = self._held_until_new_keys, []
        for data in held:
            # Through the override: a key exchange another thread began since (renegotiate_keys)
            # queues them again rather than blocking this thread.
            self._send_user_message(data)

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
        _keepalive_on_the_monotonic_clock(self.packetizer, interval_s, probe)

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

    def _parse_debug(self, m: paramiko.Message) -> None:
        """paramiko's, keeping what the server said (server_debug); paramiko only logs it."""
        m.get_boolean()  # always_display
        said = " ".join(m.get_string().decode("utf-8", "replace").split())[:300]
        m.get_string()  # language
        if said and said not in self.server_debug and len(self.server_debug) < 8:
            self.server_debug = (*self.server_debug, said)
        self._log(DEBUG, f"Debug msg: {said}")

    def _parse_channel_open_failure(self, m: paramiko.Message) -> None:
        """paramiko's, keeping what the server said of why. paramiko names the refusal by its
        code alone (paramiko/transport.py, _parse_channel_open_failure: CONNECTION_FAILED_CODE),
        so a jump host that could not reach the next hop said "Connect failed" whether the name
        did not resolve there, nothing listened or no route led to it; sshd says which
        (openssh-portable: channels.c, channel_post_connecting sends strerror(), connect_to_helper
        the resolver's message), as `ssh -J` prints it ("open failed: connect failed: Connection
        refused"). sshd's placeholder "open failed" adds nothing and is left out."""
        chanid = m.get_int()
        reason = m.get_int()
        described = " ".join(m.get_text().split())[:200]
        m.get_text()  # language tag
        text = CONNECTION_FAILED_CODE.get(reason, "(unknown code)")
        if described and described.lower() not in ("open failed", text.lower()):
            text = f"{text}: {described}"
        self._log(ERROR, f"Secsh channel {chanid:d} open FAILED: {text}")
        refusal = paramiko.ChannelException(reason, text)
        with self.lock:
            if chanid in self.channel_events:
                # For the open_channel that waits on it alone (get_exception).
                self._refusals[chanid] = refusal
                self._channels.delete(chanid)
                self.channel_events[chanid].set()
                del self.channel_events[chanid]
            else:
                self.saved_exception = refusal

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
        ran_out, over = threading.Event(), threading.Event()
        alarm = [0]

        def run_out() -> None:
            # The key is signed in this wait (paramiko/auth_handler.py, _parse_service_accept):
            # while ssh-agent waits on its user (ssh_agent._AgentAt), and for `bound` after it
            # answers, the time is not sshd's. ssh(1) waits for the agent without limit; sshd's
            # LoginGraceTime still ends a login nobody approves.
            if over.is_set():
                return
            agent = self.signing_agent
            if getattr(agent, "signing_since", None) is not None:
                alarm[0] = _ALARMS.after(1.0, run_out)
                return
            signed_at = getattr(agent, "signed_at", None)  # read after: set before signing_since clears
            if signed_at is not None and signed_at + bound > time.monotonic():
                alarm[0] = _ALARMS.after(signed_at + bound - time.monotonic(), run_out)
                return
            ran_out.set()
            answered.set()  # ends paramiko's wait; no verdict came, so it raises

        self.auth_timeout = None  # paramiko's own bound reads time.time()
        alarm[0] = _ALARMS.after(bound, run_out)
        try:
            return self.auth_handler.wait_for_response(answered)  # type: ignore[union-attr]
        except paramiko.AuthenticationException:
            if ran_out.is_set() and self.is_active() and not self.is_authenticated():
                raise paramiko.AuthenticationException("Authentication timeout.") from None
            raise
        finally:
            over.set()
            _ALARMS.cancel(alarm[0])
            self.auth_timeout = bound

    # paramiko times start_client's wait for the key exchange with the wall clock
    # (paramiko/transport.py, start_client: max_time = time.time() + timeout): a clock stepped
    # forward ended it at once (a healthy host "gave no SSH handshake within 15 s"), one stepped
    # back held a run on a host whose key exchange stalled (an MTU black hole) for the step's
    # size. The wait is paramiko's with no wall-clock bound, ended by a monotonic timer that
    # sets its event: start_client then returns with the exchange unfinished, as on its timeout.
    def start_client(self, event: threading.Event | None = None, timeout: float | None = None) -> None:
        if event is not None or timeout is None:
            return super().start_client(event, timeout)  # type: ignore[no-any-return]

        def run_out() -> None:
            completion: threading.Event | None = getattr(self, "completion_event", None)
            if completion is not None:
                completion.set()

        alarm = _ALARMS.after(timeout, run_out)
        try:
            super().start_client(timeout=_NO_WALL_CLOCK_BOUND_S)
        finally:
            _ALARMS.cancel(alarm)

    # paramiko waits for sshd's banner on the wall clock as well (paramiko/transport.py,
    # _check_banner reads through paramiko/packet.py, _read_timeout: time.time()): a clock
    # stepped forward before a slow host's banner came read as sshd closing at once, so the
    # login was retried and the host paced as if it had met MaxStartups; one stepped back kept
    # us on a stalled host for the step's size. The wait is paramiko's with no wall-clock
    # bound, ended by a monotonic timer that closes the socket after banner_timeout.
    def _check_banner(self) -> None:
        bound = self.banner_timeout
        waiting = threading.Lock()
        ran_out = threading.Event()

        def run_out() -> None:
            with waiting:
                if ran_out.is_set():
                    return
                ran_out.set()
            # The close ends paramiko's read (EOFError), then ours below. A ProxyCommand's close
            # waits up to 2 s for the command to end (ssh_proxy_command.close): the alarm's own
            # thread (_Alarms._run), so no other host's bound waits on it.
            self.packetizer.close()

        self.banner_timeout = _NO_WALL_CLOCK_BOUND_S
        alarm = _ALARMS.after(bound, run_out)
        try:
            super()._check_banner()  # type: ignore[misc]
        except paramiko.SSHException:
            if not ran_out.is_set():
                raise
        finally:
            _ALARMS.cancel(alarm)
            self.banner_timeout = bound
        with waiting:
            stalled = ran_out.is_set()
            ran_out.set()  # a timer firing now finds the banner read
        if stalled:
            # Raised outside the except: no EOFError as its context, which reads "closed at once".
            raise paramiko.SSHException("Error reading SSH protocol banner: timed out")

    # paramiko bounds its wait for sshd's answer to a CHANNEL_OPEN with the wall clock too
    # (paramiko/transport.py, open_channel: start_ts = time.time()): a clock stepped forward
    # read as a host that "did not open a session within 15 s" a moment in, and one stepped
    # back (NTP after a VM's clock ran fast) held a step on a hung sshd for the step's size.
    # The wait below is paramiko's with no wall-clock bound, ended at the bound by _ALARMS,
    # which answers the request as refused ("Timeout opening channel.", paramiko's own words).
    _opening = threading.local()

    def _next_channel(self) -> int:
        chanid = int(super()._next_channel())  # type: ignore[misc]
        opening: list[int] | None = getattr(self._opening, "chanid", None)
        if opening is not None:  # called by open_channel under self.lock, in the opener's thread
            opening.append(chanid)
            self._refusals.pop(chanid, None)  # an id used again: not its earlier open's refusal
        return chanid

    def open_channel(  # type: ignore[override]
        self, kind: str, dest_addr: tuple[str, int] | None = None, src_addr: tuple[str, int] | None = None,
        window_size: int | None = None, max_packet_size: int | None = None, timeout: float | None = None,
    ) -> paramiko.Channel:
        bound = self.channel_timeout if timeout is None else timeout
        ran_out = threading.Event()
        opening: list[int] = []
        self._opening.chanid = opening
        alarm = _ALARMS.after(bound, functools.partial(self._give_up_opening, opening, ran_out))
        try:
            channel = super().open_channel(kind, dest_addr, src_addr, window_size, max_packet_size, timeout=_NO_WALL_CLOCK_BOUND_S)
        except paramiko.SSHException:
            if ran_out.is_set() and self.is_active():
                raise paramiko.SSHException("Timeout opening channel.") from None
            raise
        finally:
            _ALARMS.cancel(alarm)
            self._opening.chanid = None
        _reads_on_the_monotonic_clock(channel)
        return channel

    def _give_up_opening(self, opening: list[int], ran_out: threading.Event) -> None:
        """The timer's end of a CHANNEL_OPEN left unanswered: what paramiko does on a refusal
        (paramiko/transport.py, _parse_channel_open_failure), so its wait ends with no channel."""
        with self.lock:
            chanid = opening[0] if opening else None
            if chanid is None or chanid not in self.channel_events:
                return  # answered (or not yet sent: the timer is far longer than the send)
            ran_out.set()
            self._channels.delete(chanid)
            self.channel_events.pop(chanid).set()

    # Any reply to a global request (ours are only the probes) proves the server alive.
    def _parse_request_success(self, m: paramiko.Message) -> None:
        self.unanswered_probes = 0
        super()._parse_request_success(m)  # type: ignore[misc]

    def _parse_request_failure(self, m: paramiko.Message) -> None:
        self.unanswered_probes = 0
        super()._parse_request_failure(m)  # type: ignore[misc]
