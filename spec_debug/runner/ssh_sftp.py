"""SFTP file copies over the host's one SSH connection.

A single SFTP channel is opened on first use and kept (it holds one of sshd's MaxSessions
slots for the life of the connection). Missing files and permission problems raise the same
OSError subclasses as the local transport (FileNotFoundError, PermissionError), so a fetch
step fails alone; a broken connection raises ConnectionLostError and fails the host.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import threading
import uuid
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Callable, Iterator

import paramiko

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_errors import ConnectionLostError


def sftp_path(remote_path: str) -> str:
    """SFTP paths are relative to the login directory, so `~/x` is `x` and `~` is `.`."""
    if remote_path in ("~", "~/"):
        return "."
    if remote_path.startswith("~/"):
        return remote_path[2:] or "."
    if remote_path.startswith("~"):
        raise UsageError(f"remote path {remote_path!r}: only ~/ (the login user's home) is supported")
    return remote_path


class RemoteFiles:
    def __init__(
        self,
        host: str,
        transport: paramiko.Transport,
        session_slot: Callable[[], AbstractContextManager[None]],
    ) -> None:
        self._host = host
        self._transport = transport
        self._session_slot = session_slot
        self._slot: AbstractContextManager[None] | None = None
        self._client: paramiko.SFTPClient | None = None
        # paramiko's SFTPClient is not meant for concurrent requests from several threads.
        self._lock = threading.Lock()

    def put(self, local_path: Path, remote_path: str) -> None:
        """Upload atomically: write a temp name beside the target, then rename over it."""
        target = sftp_path(remote_path)
        with self._lock, self._errors(remote_path):
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
            except BaseException:
                try:
                    client.remove(partial)
                except (OSError, paramiko.SSHException):
                    pass
                raise

    def get(self, remote_path: str, local_path: Path) -> None:
        """Download; the local file is only created once the remote one is open."""
        with self._lock, self._errors(remote_path):
            client = self._sftp()
            size = client.stat(sftp_path(remote_path)).st_size or 0
            with client.open(sftp_path(remote_path), "rb") as remote:
                remote.prefetch(size)
                local_path.parent.mkdir(parents=True, exist_ok=True)
                with open(local_path, "wb") as local:
                    shutil.copyfileobj(remote, local, 1 << 20)

    def exists(self, remote_path: str) -> bool:
        with self._lock, self._errors(remote_path):
            try:
                self._sftp().stat(sftp_path(remote_path))
            except FileNotFoundError:
                return False
            return True

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None
            if self._slot is not None:
                self._slot.__exit__(None, None, None)
                self._slot = None

    def _sftp(self) -> paramiko.SFTPClient:
        if self._client is None:
            if not self._transport.is_active():
                raise ConnectionLostError(f"{self._host}: SSH connection lost before a file copy")
            slot = self._session_slot()
            slot.__enter__()
            try:
                self._client = paramiko.SFTPClient.from_transport(self._transport)
            except BaseException:
                slot.__exit__(None, None, None)
                raise
            self._slot = slot
        assert self._client is not None
        return self._client

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
    def _errors(self, remote_path: str) -> Iterator[None]:
        try:
            yield
        except (ConnectionLostError, UsageError):
            raise
        except (paramiko.SSHException, EOFError, OSError) as exc:
            if isinstance(exc, OSError) and self._transport.is_active():
                if exc.filename is not None or exc.errno is None:
                    raise
                # paramiko's SFTP errors carry no file name; name the remote path for the record.
                raise type(exc)(exc.errno, f"{self._host}:{remote_path}: {exc.strerror or exc}") from None
            self._client = None
            raise ConnectionLostError(f"{self._host}: SSH connection lost while copying {remote_path}") from None
