"""Channels of SSH steps that left a process running in the background, still writing to them.

`nohup python -m sglang.launch_server ... &` without a redirection keeps the step's channel
open: the shell exits (sshd sends its exit status), but sshd sends EOF only when every writer
of the output pipe is gone, and ssh(1) would wait for it. A step returns a second after its
shell exits (SSHTransport._pump); closing the channel then would close the server's output
pipe on the host, and the server died at its next log line (SIGPIPE; BrokenPipeError in
Python), while the playbook's next step expected it up. The channel is kept instead, and what
arrives on it is read and dropped (unread, sshd's window fills and the server blocks) until
the host's steps end, as the local runner does with its pipes (local.py, _BackgroundDrain).

A kept channel holds one of sshd's MaxSessions slots: when the server refuses a new session,
the oldest kept channel is closed to free one (the step's own command comes first).
"""

from __future__ import annotations

import threading

import paramiko

from spec_debug.runner.ssh_connect import close_channel, wait_readable

_READ_SIZE = 64 * 1024


class BackgroundChannels:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: list[tuple[paramiko.Channel, threading.Event, threading.Thread]] = []

    def keep(self, channel: paramiko.Channel) -> None:
        """Read and drop what `channel` still carries until it ends or close() is called."""
        stop = threading.Event()
        thread = threading.Thread(target=_drain, args=(channel, stop), name="spec-debug-ssh-background", daemon=True)
        with self._lock:
            self._kept.append((channel, stop, thread))
        thread.start()

    def release_oldest(self) -> bool:
        """Close the oldest kept channel that is still open (a session slot for a new command)."""
        with self._lock:
            for i, (channel, _, _) in enumerate(self._kept):
                if not channel.closed:
                    kept = self._kept.pop(i)
                    break
            else:
                return False
        _stop(*kept)
        return True

    def close(self) -> None:
        with self._lock:
            kept, self._kept = self._kept, []
        for item in kept:
            _stop(*item)


def _stop(channel: paramiko.Channel, stop: threading.Event, thread: threading.Thread) -> None:
    stop.set()
    thread.join(timeout=1.0)
    close_channel(channel)


def _drain(channel: paramiko.Channel, stop: threading.Event) -> None:
    try:
        while not stop.is_set() and not channel.closed and not channel.eof_received:
            progressed = False
            if channel.recv_ready():
                channel.recv(_READ_SIZE)
                progressed = True
            if channel.recv_stderr_ready():
                channel.recv_stderr(_READ_SIZE)
                progressed = True
            if not progressed:
                # paramiko makes the channel's fileno readable when either stream has data or
                # the channel reaches EOF (paramiko/channel.py, fileno).
                wait_readable(channel, 0.2)
    except (paramiko.SSHException, EOFError, OSError):
        pass  # the connection went down: the host's steps report it
