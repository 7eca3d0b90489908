"""SFTP file copies over the host's one SSH connection.

A single SFTP channel is opened on first use and kept (it holds one of sshd's MaxSessions
slots; `release_idle` gives it back when sshd refuses a command channel). Downloads raise the
same OSError subclasses as the local transport (FileNotFoundError, PermissionError), so a
fetch step fails alone. Whatever else the host refuses while the connection stays up (no
SFTP subsystem, a ForceCommand, a read-only or full disk on upload) is a RemoteFileError:
one step fails (SD003), the host carries on. Only a broken connection raises
ConnectionLostError and fails the host.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import threading
import time
import uuid
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Callable, Iterator

import paramiko

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_connect import close_channel
from spec_debug.runner.ssh_errors import ConnectionLostError, RemoteFileError

# paramiko's SFTP layer raises its own SFTPError (not an OSError) for protocol trouble, e.g.
# "Garbage packet received" when a ForceCommand or nologin shell answers the sftp subsystem
# request with text (paramiko/paramiko: paramiko/sftp.py, _read_packet).
_SFTP_FAILURES = (paramiko.SSHException, paramiko.SFTPError, EOFError, OSError)
# An SFTP request unanswered this long fails the copy (RemoteFileError), rather than the run hanging.
_STALL_S = 120.0
# After a channel error, how long to give paramiko's reader thread to notice a dead connection.
_DEATH_NOTICE_S = 0.3


def sftp_path(remote_path: str, home: str | None = None) -> str:
    """`~/x` is `x` and `~` is `.`: relative to where the SFTP server starts, the login directory.

    With `home` (the login directory as the host's shell sees it), `~` paths and relative
    ones are made absolute under it: an SFTP server may start elsewhere (`Subsystem sftp
    internal-sftp -d /data`: sftp-server(8), -d), where an upload to `~/x` would land in
    /data/x and the step that runs it would not find it.
    """
    if remote_path in ("~", "~/"):
        relative = "."
    elif remote_path.startswith("~/"):
        relative = remote_path[2:] or "."
    elif remote_path.startswith("~"):
        raise UsageError(f"remote path {remote_path!r}: only ~/ (the login user's home) is supported")
    else:
        relative = remote_path
    if home is None or relative.startswith("/"):
        return relative
    return home if relative == "." else f"{home.rstrip('/')}/{relative}"


class RemoteFiles:
    def __init__(
        self,
        host: str,
        transport: paramiko.Transport,
        session_slot: Callable[[], AbstractContextManager[None]],
        open_channel: Callable[[], paramiko.Channel] | None = None,
        start_timeout_s: float = 15.0,
    ) -> None:
        self._host = host
        self._transport = transport
        self._session_slot = session_slot
        # The SSH transport's channel opener, which waits out a server that is briefly at
        # MaxSessions (a just-closed command channel not yet freed by sshd).
        self._open_channel = open_channel or transport.open_session
        self._start_timeout_s = start_timeout_s
        self._slot: AbstractContextManager[None] | None = None
        self._client: paramiko.SFTPClient | None = None
        # paramiko's SFTPClient is not meant for concurrent requests from several threads.
        self._lock = threading.Lock()
        self._interrupted = threading.Event()
        self.home: str | None = None
        """The login directory as the shell sees it, once known (see sftp_path)."""

    def put(self, local_path: Path, remote_path: str) -> None:
        """Upload atomically: write a temp name beside the target, then rename over it."""
        target = sftp_path(remote_path, self.home)
        with self._lock, self._errors(remote_path, upload=True):
            client = self._sftp()
            parent = os.path.dirname(target)
            if parent:
                self._makedirs(client, parent)
            partial = f"{target}.part-{uuid.uuid4().hex[:8]}"
            try:
                client.put(str(local_path), partial)
                try:
                    client.posix_rename(partial, target)  # OpenSSH extension: atomic replace
                except OSError:
                    # Servers without posix-rename@openssh.com: plain rename refuses to
                    # overwrite, so remove the old copy first (not atomic, still correct).
                    try:
                        client.remove(target)
                    except FileNotFoundError:
                        pass
                    client.rename(partial, target)
            except BaseException as exc:
                # Clean up the partial file, unless the server has stopped answering or hung up.
                if not isinstance(exc, TimeoutError) and not client.get_channel().closed:
                    try:
                        client.remove(partial)
                    except _SFTP_FAILURES:
                        pass
                raise

    def get(self, remote_path: str, local_path: Path) -> None:
        """Download to a temp name beside local_path, renamed once complete: a copy cut short
        (the connection dropped) leaves no truncated artifact behind."""
        with self._lock, self._errors(remote_path):
            client = self._sftp()
            size = client.stat(sftp_path(remote_path, self.home)).st_size or 0
            with client.open(sftp_path(remote_path, self.home), "rb") as remote:
                _quiet_prefetch_thread(remote)
                remote.prefetch(size)
                local_path.parent.mkdir(parents=True, exist_ok=True)
                partial = local_path.with_name(f"{local_path.name}.part-{uuid.uuid4().hex[:8]}")
                try:
                    with open(partial, "wb") as local:
                        shutil.copyfileobj(remote, local, 1 << 20)
                    os.replace(partial, local_path)
                finally:
                    partial.unlink(missing_ok=True)

    def exists(self, remote_path: str) -> bool:
        with self._lock, self._errors(remote_path):
            try:
                self._sftp().stat(sftp_path(remote_path, self.home))
            except FileNotFoundError:
                return False
            return True

    def close(self) -> None:
        with self._lock:
            self._drop()

    def interrupt(self) -> None:
        """Stop the copy in progress, and refuse later ones (Ctrl-C, from another thread).

        A copy has no deadline of its own: a multi-GB fetch would hold the interrupted run for
        minutes. Closing its channel under it (without the lock, which the copy holds) makes
        its next read or write fail at once. The close runs in a thread of its own: sending
        the CLOSE can wait behind the copy's own write to a host that stopped reading, and
        the caller (the run's Ctrl-C handler) has every other host to stop.
        """
        self._interrupted.set()
        client = self._client
        if client is not None:
            threading.Thread(target=close_channel, args=(client.get_channel(),), name="sftp-interrupt", daemon=True).start()

    def release_idle(self) -> bool:
        """Close the SFTP channel if no copy is using it, freeing its server session slot.

        Called when sshd refuses a new command channel: on a server with MaxSessions 1 the
        kept SFTP channel would otherwise block every later step. Returns whether one was closed.
        """
        if not self._lock.acquire(blocking=False):
            return False
        try:
            had_client = self._client is not None
            self._drop()
            return had_client
        finally:
            self._lock.release()

    def _drop(self) -> None:
        """Forget the SFTP channel and give back its slot (the caller holds the lock)."""
        client, self._client = self._client, None
        if client is not None:
            try:
                client.close()
            except _SFTP_FAILURES:
                pass
        if self._slot is not None:
            self._slot.__exit__(None, None, None)
            self._slot = None

    def _sftp(self) -> paramiko.SFTPClient:
        if self._interrupted.is_set():
            raise RemoteFileError(f"{self._host}: file copy not started: the run was interrupted")
        if self._client is not None and self._client.get_channel().closed:
            # The server closed our idle SFTP channel between copies: sshd's ChannelTimeout
            # (OpenSSH 9.2+, `ChannelTimeout session:subsystem:sftp=5m`, sshd_config(5)) ends a
            # session channel that carried no data for that long, while the connection stays.
            # The next copy would fail on it ("Socket is closed"): start a fresh one instead.
            self._drop()
        if self._client is None:
            if not self._transport.is_active():
                raise ConnectionLostError(f"{self._host}: SSH connection lost before a file copy")
            slot = self._session_slot()
            slot.__enter__()
            channel: paramiko.Channel | None = None
            try:
                # What paramiko's SFTPClient.from_transport does, with our channel opener.
                channel = self._open_channel()
                # paramiko waits for the server's SFTP version without limit; a subsystem that
                # never answers (a ForceCommand reading stdin) would hang the run.
                channel.settimeout(self._start_timeout_s)
                channel.invoke_subsystem("sftp")
                self._client = paramiko.SFTPClient(channel)
                # Then no limit per transfer, only on silence: a home on a hung NFS mount.
                channel.settimeout(_STALL_S)
                if self._interrupted.is_set():  # interrupt() came while this channel opened
                    close_channel(channel)
            except RemoteFileError:  # the channel's opener says why (the run was interrupted)
                slot.__exit__(None, None, None)
                raise
            except _SFTP_FAILURES as exc:
                slot.__exit__(None, None, None)
                if channel is not None:
                    close_channel(channel)
                if not self._alive():
                    raise ConnectionLostError(f"{self._host}: SSH connection lost while starting SFTP") from None
                reason = f"no answer within {self._start_timeout_s:g} s" if isinstance(exc, TimeoutError) else _one_line(exc)
                raise RemoteFileError(
                    f"{self._host}: the host offers no working SFTP ({reason})",
                    hint="spec-debug copies files over SFTP: enable `Subsystem sftp` in sshd_config, "
                    "and check that no ForceCommand or nologin shell answers instead",
                ) from None
            except BaseException:
                slot.__exit__(None, None, None)
                if channel is not None:
                    close_channel(channel)
                raise
            self._slot = slot
        assert self._client is not None
        return self._client

    def _alive(self) -> bool:
        """Whether the connection is still up, giving a dying one a moment to be noticed."""
        deadline = time.monotonic() + _DEATH_NOTICE_S
        while self._transport.is_active():
            if time.monotonic() >= deadline:
                return True
            time.sleep(0.02)
        return False

    @staticmethod
    def _makedirs(client: paramiko.SFTPClient, directory: str) -> None:
        parts = directory.split("/")
        current = "/" if directory.startswith("/") else ""
        for part in parts:
            if not part:
                continue
            current = os.path.join(current, part) if current else part
            try:
                if not stat.S_ISDIR(client.stat(current).st_mode or 0):
                    raise NotADirectoryError(errno.ENOTDIR, "not a directory", current)
            except FileNotFoundError:
                client.mkdir(current)

    @contextmanager
    def _errors(self, remote_path: str, *, upload: bool = False) -> Iterator[None]:
        try:
            yield
        except (ConnectionLostError, UsageError, RemoteFileError):
            raise
        except _SFTP_FAILURES as exc:
            if self._interrupted.is_set():
                self._drop()
                raise RemoteFileError(f"{self._host}: copy of {remote_path} stopped: the run was interrupted") from None
            if isinstance(exc, TimeoutError) and self._transport.is_active():
                self._drop()  # a request is still unanswered: the channel cannot be reused
                raise RemoteFileError(
                    f"{self._host}: the SFTP server did not answer for {_STALL_S:g} s while copying {remote_path}",
                    hint="the host's disk or home directory hangs (a stuck NFS mount?)",
                ) from None
            # paramiko raises OSError("Socket is closed") when it writes to an SFTP channel the
            # server already closed: that is the session ending, not a refusal of this file.
            channel_open = self._client is not None and not self._client.get_channel().closed
            refused = isinstance(exc, OSError) and not isinstance(exc, (EOFError, paramiko.SSHException))
            if refused and channel_open and self._transport.is_active():
                # A refusal by the SFTP server: the channel is fine, only this file failed.
                reason = exc.strerror or _one_line(exc)
                if upload:
                    raise RemoteFileError(
                        f"{self._host}: cannot upload to {remote_path}: {reason}",
                        hint="the login user must be able to write there (a read-only or full home, or an SFTP server started with -R?)",
                    ) from None
                if exc.filename is not None or exc.errno is None:
                    raise
                # paramiko's SFTP errors carry no file name; name the remote path for the record.
                raise type(exc)(exc.errno, f"{self._host}:{remote_path}: {reason}") from None
            # The SFTP channel itself broke: start a fresh one next time.
            self._drop()
            if self._alive():
                raise RemoteFileError(
                    f"{self._host}: the SFTP session ended while copying {remote_path} ({_one_line(exc)})",
                    hint="the host's sftp-server stopped or refused the transfer; see the host's sshd log",
                ) from None
            raise ConnectionLostError(f"{self._host}: SSH connection lost while copying {remote_path}") from None


def _quiet_prefetch_thread(remote: paramiko.SFTPFile) -> None:
    """Let the download's prefetch thread end quietly when the channel goes away under it.

    paramiko sends a file's read requests from a thread of its own, which nothing guards
    (paramiko/sftp_file.py, _prefetch_thread): a connection that drops while it still sends
    (a multi-GB file) raises there, and Python prints the traceback in the middle of the run's
    output. The copy itself sees the same failure on its next read and reports it.
    """
    send_requests = remote._prefetch_thread

    def guarded(*args: object) -> None:
        try:
            send_requests(*args)
        except _SFTP_FAILURES:
            pass

    remote._prefetch_thread = guarded  # type: ignore[method-assign]  # read by _start_prefetch


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
