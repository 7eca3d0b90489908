"""The monotonic-clock waits put on our channels (ssh_transport, _reads_on_the_monotonic_clock)
keep paramiko's semantics and its channels' lifetime.

- A channel dropped unclosed is closed at once, as paramiko's Channel.__del__ does: the waits
  were first set as methods bound to the channel and kept on it, a reference cycle, so such a
  channel (its sshd session slot with it: MaxSessions) stayed open until the garbage collector ran.
- A read with no timeout blocks; a pipe closed while a read waits returns b"" at once; a read
  that times out raises socket.timeout from recv; a send waiting for the window that the
  channel's close ends returns 0, not a timeout (paramiko/channel.py, _wait_for_send_window).
"""

from __future__ import annotations

import gc
import socket
import threading
import time
import weakref
from collections.abc import Iterator

import paramiko
import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_transport import _reads_on_the_monotonic_clock
from tests.sshd_fixture import ClientSetup, SshServer


@pytest.fixture
def no_cycle_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _channel() -> paramiko.Channel:
    channel = paramiko.Channel(0)
    _reads_on_the_monotonic_clock(channel)
    return channel


def test_a_channel_dropped_unclosed_is_closed_at_once(client: ClientSetup, sshd: SshServer, no_cycle_collector: None) -> None:
    client.trust(sshd)
    client.alias("gpu", sshd)
    with SSHTransport.connect("gpu", client.options()) as transport:
        channel = transport.connection.transport.open_session()  # a session slot, not yet used
        dropped = weakref.ref(channel)
        del channel
        # Freed, or at least closed: paramiko's Transport.run keeps the last channel it handled
        # in a local (`chan`) until the next channel message. When sshd's CLOSE reply is read
        # while Channel.__del__ is still running (its send releases the GIL; likely on a busy
        # machine), the transport thread takes a strong reference from its WeakValueDictionary
        # before the weak references are cleared, and the channel lives on, closed, with no
        # fault of ours. The fault this guards against is a reference cycle: then __del__ never
        # runs without the garbage collector, and the channel stays open (its sshd session slot
        # with it).
        deadline = time.monotonic() + 5.0
        while not _freed_or_closed(dropped) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _freed_or_closed(dropped), "a dropped channel stays open until the garbage collector runs (a reference cycle)"


def _freed_or_closed(dropped: weakref.ref[paramiko.Channel]) -> bool:
    channel = dropped()
    return channel is None or channel.closed


def test_a_read_with_no_timeout_blocks_until_data() -> None:
    channel = _channel()
    started = time.monotonic()  # before the timer: a stall between the two cannot shorten the wait
    threading.Timer(0.5, channel.in_buffer.feed, args=(b"late",)).start()
    assert channel.recv(10) == b"late"
    assert time.monotonic() - started >= 0.4


def test_a_channel_closed_while_a_read_waits_ends_it_at_once() -> None:
    channel = _channel()
    channel.settimeout(30.0)
    threading.Timer(0.3, channel.in_buffer.close).start()
    started = time.monotonic()
    assert channel.recv(10) == b""
    assert time.monotonic() - started < 10.0


def test_a_read_that_times_out_raises_socket_timeout() -> None:
    channel = _channel()
    channel.settimeout(0.3)
    with pytest.raises(socket.timeout):
        channel.recv(10)
    with pytest.raises(socket.timeout):
        channel.recv_stderr(10)


def test_a_send_window_wait_ended_by_the_close_is_not_a_timeout() -> None:
    channel = _channel()
    channel.settimeout(30.0)
    channel.out_window_size = 0

    def close() -> None:
        with channel.lock:
            channel._set_closed()

    threading.Timer(0.3, close).start()
    started = time.monotonic()
    with channel.lock:
        assert channel._wait_for_send_window(1024) == 0
    assert time.monotonic() - started < 10.0
