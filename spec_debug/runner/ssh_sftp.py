"""SFTP file copies over the host's one SSH connection, or shell commands where sshd has no SFTP.

A single SFTP channel is opened on first use and kept (it holds one of sshd's MaxSessions
slots; `release_idle` gives it back when sshd refuses a command channel). Downloads raise the
same OSError subclasses as the local transport (FileNotFoundError, PermissionError), so a
fetch step fails alone. Whatever else the host refuses while the connection stays up (no
SFTP subsystem, a ForceCommand, a read-only or full disk on upload) is a RemoteFileError:
one step fails (SD003), the host carries on. Only a broken connection raises
ConnectionLostError and fails the host.

A host whose sshd refuses the SFTP subsystem outright (no `Subsystem sftp` line: hardened
images remove it; or one naming a program that is not installed: Alpine's openssh-server
without openssh-sftp-server) still runs commands, so files go over `cat` on exec channels
instead, as `scp -O` does against such hosts (_ShellCopies). So do a host's whose login shell
prints on stdout for every command, which garbles an external sftp-server's stream (the copies'
output starts after a mark of their own: _DATA_MARK). An SFTP server that answers but fails (a
ForceCommand, a read-only server) is not second-guessed.
"""

from __future__ import annotations

import errno
import math
import os
import posixpath
import re
import shlex
import stat
import threading
import time
import uuid
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import BinaryIO, Callable, Iterator

import paramiko

from spec_debug.errors import UsageError
from spec_debug.runner.copy_script import FIFO_MARK, GET_SCRIPT, fifo_stalled, refusal, said_lines
from spec_debug.runner.fetch_deadline import FetchTimedOut, current_deadline, expiry_watch, keep_partial
from spec_debug.runner.fetch_limit import FetchCut, LocalCopyError, LocalTarget, check_size, copy_capped
from spec_debug.runner.host_path import WITH_STANDARD_PATH
from spec_debug.runner.ssh_connect import close_channel
from spec_debug.runner.ssh_transport import answered_within, request_answer_s
from spec_debug.runner.ssh_errors import ConnectionLostError, CopyInterrupted, RemoteFileError, _one_line

# paramiko's SFTP layer raises its own SFTPError (not an OSError) for protocol trouble, e.g.
# "Garbage packet received" when a ForceCommand or nologin shell answers the sftp subsystem
# request with text (paramiko/paramiko: paramiko/sftp.py, _read_packet).
_SFTP_FAILURES = (paramiko.SSHException, paramiko.SFTPError, EOFError, OSError)
# An SFTP request unanswered this long fails the copy (RemoteFileError), rather than the run hanging.
_STALL_S = 120.0
# A login shell slower than this to run a no-op command lengthens the SFTP start's wait.
_SLOW_LOGIN_S = 0.5
# After a channel error, how long to give paramiko's reader thread to notice a dead connection.
_DEATH_NOTICE_S = 0.3
_LIMIT_ASK_S = 5.0
"""How long the question after an upload's dropped session (`ulimit -f`), or the removal of its
part, may take."""


def wire_path(path: str) -> bytes:
    """path as the bytes the host named it with: a fetch pattern's listing keeps the bytes of a
    name that is not UTF-8 as surrogates (engine._Listing, PEP 383), which paramiko's own
    encoding (strict UTF-8) refuses with UnicodeEncodeError; the SSH and SFTP protocols carry
    any bytes (RFC 4254 6.5, draft-ietf-secsh-filexfer-02 6: filenames are strings)."""
    return path.encode("utf-8", "surrogateescape")


def login_quoted(word: str) -> str:
    """shlex.quote for a command line the login shell reads, whatever it is: a `!` stands
    outside the quotes, as `\\!`. csh and tcsh expand history inside single quotes too, also
    in `tcsh -c` (sshd runs the login shell so), so a copy to or from `run!1.log` on a host
    without SFTP failed with "1.log: Event not found."; an unquoted `\\!` is `!` in sh, bash,
    zsh, fish and tcsh alike."""
    return shlex.quote(word).replace("!", "'\\!'")


def sftp_path(remote_path: str, home: str | None = None, cwd: str | None = None) -> str:
    """`~/x` is `x` and `~` is `.`: relative to where the SFTP server starts, the login directory.

    With `home` (the login's $HOME, what the host's shell makes of `~`) `~` paths are made
    absolute under it, and with `cwd` (where the steps' commands start) relative ones are; each
    stands in for the other when only one is known. An SFTP server may start elsewhere
    (`Subsystem sftp internal-sftp -d /data`: sftp-server(8), -d), where an upload to `~/x`
    would land in /data/x and the step that runs it would not find it. And the commands may
    start elsewhere than $HOME: a ~/.bashrc that does `cd $SCRATCH` (bash reads it for ssh
    commands where built with SSH_SOURCE_BASHRC, as Debian and Fedora build it), or a $HOME that
    does not exist (sshd then starts the session in /): a step's `echo ok > ~/x` and a
    fetch of `~/x` must name the same file, as the fetch's own listing of `~/x*` does.
    """
    tilde = remote_path.startswith("~")
    if remote_path in ("~", "~/"):
        relative = "."
    elif remote_path.startswith("~/"):
        relative = remote_path[2:] or "."
    elif tilde:
        raise UsageError(f"remote path {remote_path!r}: only ~/ (the login user's home) is supported")
    else:
        relative = remote_path
    base = (home or cwd) if tilde else (cwd or home)
    if base is None or relative.startswith("/"):
        return relative
    return base if relative == "." else f"{base.rstrip('/')}/{relative}"


class RemoteFiles:
    def __init__(
        self,
        host: str,
        transport: paramiko.Transport,
        session_slot: Callable[[], AbstractContextManager[None]],
        open_channel: Callable[[], paramiko.Channel] | None = None,
        start_timeout_s: float = 15.0,
        kill: Callable[[int], None] | None = None,
    ) -> None:
        self._host = host
        # Kills a copy's process tree on the host (a `cat` copy given up early: _ShellCopies._end_copy).
        self._kill = kill
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
        """The login's $HOME as the shell sees it, once known (see sftp_path)."""
        self.cwd: str | None = None
        """Where the steps' commands start, once known (see sftp_path)."""
        self._shell_copies: _ShellCopies | None = None
        """Set once sshd refused SFTP itself: copies then go over shell commands."""
        self._pipe_copies: _ShellCopies | None = None
        """Copies of named pipes, which SFTP cannot read (get): over `cat`, made at the first."""
        self._read_copies: _ShellCopies | None = None
        """Set once the SFTP server refused a read the login shell could do: downloads go over `cat`."""
        self._reading: _ShellCopies | None = None
        """The `cat` copy of a download the SFTP server refused, while it runs (interrupt closes its channel)."""
        self._starting: paramiko.Channel | None = None
        """The SFTP channel while it starts (the subsystem request, the version): a fetch step's
        deadline closes it there too (_close_copy_channel)."""
        self._silent: RemoteFileError | None = None
        """Set once the SFTP server never sent its version: later copies fail at once with it."""
        self.login_s = 0.0
        """How long the host's login shell takes to run a no-op command, once known: an
        sftp-server that sshd starts through it waits for the same rc files (_start_wait_s)."""

    def put(self, local_path: Path, remote_path: str) -> None:
        """Upload atomically: write a temp name beside the target, then rename over it."""
        target = sftp_path(remote_path, self.home, self.cwd)
        with self._lock, self._errors(remote_path, upload=True, size=local_path.stat().st_size):
            client = self._sftp()
            if client is None:
                self._shell().put(local_path, target, remote_path)
                return
            try:
                self._sftp_put(client, local_path, target)
            except PermissionError as exc:
                # A read-only SFTP server (`sftp-server -R`, `internal-sftp -R`) answers every
                # write with SSH2_FX_PERMISSION_DENIED (openssh-portable: sftp-server.c, readonly)
                # although the login shell may write the home: the upload goes over `cat` then, as
                # Ansible falls back sftp -> scp -> piped copy (ansible/ansible:
                # lib/ansible/plugins/connection/ssh.py, _file_transport_command). A home the
                # shell cannot write either fails there, saying both.
                if self._interrupted.is_set() or client.get_channel().closed or not self._transport.is_active():
                    raise
                self._drop()  # one session slot at a time (MaxSessions 1)
                self._write_copies(exc.strerror or _one_line(exc)).put(local_path, target, remote_path)

    def _write_copies(self, said: str) -> "_ShellCopies":
        """Uploads over `cat`, for a host whose SFTP server refused a write (said: its answer)."""
        return _ShellCopies(
            self._host, f"the SFTP server refused the write ({said}): is it read-only (sftp-server -R or -P write)?",
            self._session_slot, self._open_channel, self._alive, kill=self._kill, answer_within_s=self._start_timeout_s,
        )

    def _sftp_put(self, client: paramiko.SFTPClient, local_path: Path, target: str) -> None:
        parent = os.path.dirname(target)
        if parent:
            self._makedirs(client, parent)
        partial = f"{target}.part-{uuid.uuid4().hex[:8]}"
        try:
            try:
                client.put(str(local_path), partial)
            except OSError as exc:
                if exc.errno is None and _SIZE_MISMATCH.search(str(exc)):
                    _why_short(client, local_path, partial)
                raise
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
            # Clean up the partial file, unless the server has stopped answering or the connection is gone.
            removed = False
            if not isinstance(exc, TimeoutError) and not client.get_channel().closed:
                try:
                    client.remove(partial)
                    removed = True
                except _SFTP_FAILURES:
                    # the SFTP server died just before (SIGXFSZ below), its channel's close not
                    # yet read: the login shell below removes the part instead
                    pass
            if not removed and not isinstance(exc, TimeoutError) and not self._interrupted.is_set() \
                    and self._alive():
                # The SFTP server died under the upload, the connection did not: a file size
                # limit's SIGXFSZ (_file_size_limit) ends sftp-server at its first write past
                # the limit. The part (the limit's worth of bytes) stayed in ~/.cache/spec-debug,
                # one more each run; the login shell removes it (both start in the home).
                # Under /bin/sh with the standard places on PATH, as the `cat` copies run: a
                # login whose rc file clobbered PATH found no `rm`, and the part stayed.
                self._shell_answer(" ".join(["/bin/sh", "-c", login_quoted(WITH_STANDARD_PATH + 'rm -f -- "$1"'), "sh", login_quoted(partial)]))
            raise

    def get(self, remote_path: str, local_path: Path, max_bytes: int | None = None) -> None:
        """Download to a temp name beside local_path, renamed once complete: a copy cut short
        (the connection dropped) leaves no truncated artifact behind. With max_bytes, the size
        the server's stat gives is checked before a byte is copied (Transport.get).

        Inside a fetch step with a timeout (fetch_deadline), the channel is closed under the copy
        at the deadline, wherever it waits (the stat, the open, a read), and FetchTimedOut says so;
        the bytes copied until then are kept as local_path (fetch_deadline.keep_partial).
        """
        with self._lock, self._dropped_if_expired() as watch, expiry_watch(self._close_copy_channel) as expired, self._errors(
            remote_path, expired
        ):
            watch.append(expired)
            if self._read_copies is not None:
                self._drop()  # one session slot at a time (MaxSessions 1)
                self._shell_read(self._read_copies, remote_path, local_path, max_bytes, expired)
                return
            client = self._sftp()
            if expired.is_set():  # the deadline passed while the SFTP channel opened: nothing to close then
                raise EOFError("the fetch step's deadline passed")
            if client is None:
                self._shell().get(sftp_path(remote_path, self.home, self.cwd), local_path, remote_path, max_bytes, expired)
                return
            try:
                self._sftp_get(client, remote_path, local_path, max_bytes, expired)
            except PermissionError as exc:
                # An SFTP server that refuses reads (`sftp-server -P read`, or an allowlist
                # `-p` without read: SSH2_FX_PERMISSION_DENIED, openssh-portable: sftp-server.c,
                # request_permitted), where the login shell may read the file: the copy goes
                # over `cat`, as uploads do (put). A file the shell cannot read either says both.
                # (filename: a local PermissionError, this machine's, names its file; paramiko's does not)
                if exc.filename is not None or self._interrupted.is_set() or expired.is_set() or client.get_channel().closed \
                        or not self._transport.is_active():
                    raise
                self._drop()
                copies = _ShellCopies(
                    self._host, f"the SFTP server refused the read ({exc.strerror or _one_line(exc)})",
                    self._session_slot, self._open_channel, self._alive, kill=self._kill, answer_within_s=self._start_timeout_s,
                )
                self._shell_read(copies, remote_path, local_path, max_bytes, expired)
                self._read_copies = copies  # the shell read it: later files go the same way

    def _shell_read(
        self, copies: "_ShellCopies", remote_path: str, local_path: Path, max_bytes: int | None, expired: threading.Event
    ) -> None:
        """Copy over `cat` for a host whose SFTP server refused a read; the shell's own refusal
        (a missing or unreadable file) is said with the SFTP server's."""
        self._reading = copies
        try:
            copies.get(sftp_path(remote_path, self.home, self.cwd), local_path, remote_path, max_bytes, expired)
        except (FileNotFoundError, PermissionError, IsADirectoryError) as refused:
            said = os.strerror(refused.errno) if refused.errno else _one_line(refused)
            if isinstance(refused, PermissionError) and copies is not self._read_copies:
                # Refused by both: the file's own mode, not the SFTP server's policy (a log of
                # root's, mode 640, read by another user): the common case says so plainly.
                raise RemoteFileError(
                    f"{self._host}: cannot download {remote_path}: {said} (over SFTP and over `cat` on the login shell: "
                    "the login user may not read it)",
                    hint="give the login user read access (its mode, owner or group: `ls -l` it on the host), "
                    "or fetch a copy the user can read",
                ) from None
            raise RemoteFileError(f"{self._host}: cannot download {remote_path}: {said} ({copies._why_shell()})",
                                  hint="the login user must be able to read it") from None
        finally:
            self._reading = None

    def _sftp_get(
        self, client: paramiko.SFTPClient, remote_path: str, local_path: Path, max_bytes: int | None, expired: threading.Event
    ) -> None:
        try:
            found = client.stat(wire_path(sftp_path(remote_path, self.home, self.cwd)))
        except FileNotFoundError:
            broken = _broken_link(client, sftp_path(remote_path, self.home, self.cwd))
            if broken is not None:
                raise FileNotFoundError(errno.ENOENT, f"No such file: {broken}") from None  # named by _errors
            raise
        if stat.S_ISDIR(found.st_mode or 0):
            # sftp-server answers a read of a folder with a bare "Failure" (SSH2_FX_FAILURE).
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))  # named by _errors
        if stat.S_ISFIFO(found.st_mode or 0):
            # sftp-server seeks to each read's offset (openssh-portable: sftp-server.c,
            # process_read), which a pipe refuses (ESPIPE): a server log written into a named
            # pipe failed to fetch with a bare "Failure", where a local fetch reads it with
            # cat. Copied over `cat` here too; the SFTP channel is given back first, for a
            # host whose sshd allows one session at a time (MaxSessions 1).
            self._drop()
            self._fifo_copies().get(sftp_path(remote_path, self.home, self.cwd), local_path, remote_path, max_bytes, expired)
            return
        size = found.st_size or 0
        if stat.S_ISREG(found.st_mode or 0):
            check_size(size, max_bytes)
        with client.open(wire_path(sftp_path(remote_path, self.home, self.cwd)), "rb") as remote:
            _quiet_prefetch_thread(remote)
            remote.prefetch(size)
            local_path.parent.mkdir(parents=True, exist_ok=True)
            partial = local_path.with_name(f"{local_path.name}.part-{uuid.uuid4().hex[:8]}")
            try:
                with open(partial, "wb") as local:
                    try:
                        target = LocalTarget(local, local_path)
                        copy_capped(remote, target, max_bytes, size)
                        target.flush()
                    except FetchCut:
                        local.close()
                        os.replace(partial, local_path)
                        raise
                    except BaseException:
                        # The deadline closed the channel under the copy (_errors then raises
                        # FetchTimedOut): what came before it is kept. Not on Ctrl-C.
                        if expired.is_set() and not self._interrupted.is_set():
                            local.close()
                            keep_partial(partial, local_path)
                        raise
                os.replace(partial, local_path)
            finally:
                partial.unlink(missing_ok=True)

    def _fifo_copies(self) -> "_ShellCopies":
        if self._pipe_copies is None:
            self._pipe_copies = _ShellCopies(
                self._host, "SFTP cannot read a named pipe", self._session_slot, self._open_channel, self._alive,
                kill=self._kill, answer_within_s=self._start_timeout_s,
            )
        return self._pipe_copies

    @contextmanager
    def _dropped_if_expired(self) -> Iterator[list[threading.Event]]:
        """Forget the SFTP channel once the copy ends if the deadline fired during it (the caller
        holds the lock). It can fire after the copy ended, before its timer is cancelled: the
        channel then closes in a thread of its own, and the next step's copy must not take it
        up (its _sftp() still sees it open) and fail on it."""
        watch: list[threading.Event] = []
        try:
            yield watch
        finally:
            if watch and watch[0].is_set():
                self._drop()

    def exists(self, remote_path: str) -> bool:
        with self._lock, self._errors(remote_path):
            client = self._sftp()
            if client is None:
                return self._shell().exists(sftp_path(remote_path, self.home, self.cwd), remote_path)
            try:
                client.stat(wire_path(sftp_path(remote_path, self.home, self.cwd)))
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
        for copies in (self._shell_copies, self._pipe_copies, self._read_copies, self._reading):
            if copies is not None:
                copies.interrupted = True
        self._close_copy_channel()

    def _close_copy_channel(self) -> None:
        """Close the channel the copy in progress uses, from a thread of its own (see interrupt)."""
        client = self._client
        channel = client.get_channel() if client is not None else self._shell_copies.channel if self._shell_copies else self._starting
        for copies in (self._pipe_copies, self._reading):
            if copies is not None and copies.channel is not None:
                channel = copies.channel  # a named pipe's or a refused read's copy, the SFTP channel given back (get)
        if channel is not None:
            threading.Thread(target=close_channel, args=(channel,), name="sftp-interrupt", daemon=True).start()

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

    def _shell(self) -> "_ShellCopies":
        assert self._shell_copies is not None
        return self._shell_copies

    def _sftp(self) -> paramiko.SFTPClient | None:
        """The SFTP client, or None where the host has no SFTP and copies go over _shell()."""
        if self._interrupted.is_set():
            raise CopyInterrupted(f"{self._host}: file copy not started: the run was interrupted")
        if self._shell_copies is not None:
            return None
        if self._client is not None and self._client.get_channel().closed:
            # The server closed our idle SFTP channel between copies: sshd's ChannelTimeout
            # (OpenSSH 9.2+, `ChannelTimeout session:subsystem:sftp=5m`, sshd_config(5)) ends a
            # session channel that carried no data for that long, while the connection stays.
            # The next copy would fail on it ("Socket is closed"): start a fresh one instead.
            self._drop()
        if self._client is None:
            if not self._transport.is_active():
                raise ConnectionLostError(f"{self._host}: SSH connection lost before a file copy")
            if self._silent is not None:
                raise RemoteFileError(self._silent.message, hint=self._silent.hint)
            slot = self._session_slot()
            slot.__enter__()
            channel: paramiko.Channel | None = None
            stage = "open"
            try:
                # What paramiko's SFTPClient.from_transport does, with our channel opener.
                channel = self._open_channel()
                self._starting = channel
                # paramiko waits for the server's SFTP version without limit; a subsystem that
                # never answers (a ForceCommand reading stdin) would hang the run.
                channel.settimeout(self._start_wait_s())
                stage = "subsystem"
                answer_s = request_answer_s(self._start_wait_s())
                if not answered_within(channel, lambda: channel.invoke_subsystem("sftp"), answer_s):
                    raise _unanswered(self._host, "the SFTP", "its sftp-server", answer_s)
                stage = "version"
                self._client = paramiko.SFTPClient(channel)
                # Then no limit per transfer, only on silence: a home on a hung NFS mount.
                channel.settimeout(_STALL_S)
                if self._interrupted.is_set():  # interrupt() came while this channel opened
                    close_channel(channel)
            except RemoteFileError:  # the channel's opener says why (the run was interrupted)
                self._starting = None
                slot.__exit__(None, None, None)
                raise
            except _SFTP_FAILURES as exc:
                self._starting = None
                slot.__exit__(None, None, None)
                no_sftp = _sftp_refused(channel, stage) if channel is not None else None
                ended = _ended_before_sftp(channel, stage) if channel is not None else None
                if channel is not None:
                    close_channel(channel)
                if not self._alive():
                    raise ConnectionLostError(f"{self._host}: SSH connection lost while starting SFTP") from None
                if no_sftp is not None and not self._interrupted.is_set():
                    self._shell_copies = _ShellCopies(
                        self._host, no_sftp, self._session_slot, self._open_channel, self._alive, kill=self._kill,
                        answer_within_s=self._start_timeout_s,
                    )
                    return None
                reason = f"no answer within {self._start_wait_s():g} s" if isinstance(exc, TimeoutError) else _one_line(exc)
                if stage == "version" and isinstance(exc, TimeoutError) and not self._interrupted.is_set():
                    # A subsystem that started and never answered (an sftp-server stuck on a hung
                    # home, a ForceCommand reading stdin) answers no later copy either: each probe
                    # and fetch step of the host waited the whole start timeout (15 s) again.
                    self._silent = RemoteFileError(
                        f"{self._host}: the host offers no working SFTP ({reason}): its sftp-server started and never answered",
                        hint="the sftp-server sshd_config's `Subsystem sftp` line starts hangs (a hung NFS home?) or "
                        "a ForceCommand answers in its place: try `sftp HOST` by hand; if it is only slow to start, raise "
                        "ConnectTimeout for the host in your ssh config (the SFTP start waits that long)",
                    )
                    raise self._silent from None
                if stage == "version" and isinstance(exc, paramiko.SFTPError) and not self._interrupted.is_set():
                    chatter = self._startup_chatter()
                    if chatter is not None:
                        # Copies over `cat` skip what the login shell prints (_DATA_MARK): they
                        # work where the chatter breaks SFTP (Debian's default `Subsystem sftp
                        # /usr/lib/openssh/sftp-server` starts through the shell). A copy that
                        # fails all the same says why SFTP was not used, with _CHATTER_HINT.
                        self._shell_copies = _ShellCopies(
                            self._host, f"SFTP is unusable: the login shell prints {chatter!r} for every command, "
                            "and that text lands in the SFTP stream", self._session_slot, self._open_channel, self._alive,
                            hint=_CHATTER_HINT, kill=self._kill, answer_within_s=self._start_timeout_s,
                        )
                        return None
                disabled = self._sftp_disabled(channel, stage, exc) if channel is not None else None
                if disabled is not None:
                    self._shell_copies = _ShellCopies(
                        self._host, disabled, self._session_slot, self._open_channel, self._alive, kill=self._kill,
                        answer_within_s=self._start_timeout_s,
                    )
                    return None
                if ended is not None and not self._interrupted.is_set():
                    raise RemoteFileError(
                        f"{self._host}: the host offers no working SFTP: {ended}",
                        hint="a forced command answers the SFTP request in the SFTP server's place (sshd_config "
                        "ForceCommand, often in a Match block, or command=\"...\" on your key in the host's "
                        "~/.ssh/authorized_keys): ask the host's admin to let the sftp subsystem through",
                    ) from None
                raise RemoteFileError(
                    f"{self._host}: the host offers no working SFTP ({reason})",
                    hint="spec-debug copies files over SFTP: enable `Subsystem sftp` in sshd_config, "
                    "and check that no ForceCommand or nologin shell answers instead",
                ) from None
            except BaseException:
                self._starting = None
                slot.__exit__(None, None, None)
                if channel is not None:
                    close_channel(channel)
                raise
            self._starting = None
            self._slot = slot
        assert self._client is not None
        return self._client

    def _sftp_disabled(self, channel: paramiko.Channel, stage: str, exc: BaseException) -> str | None:
        """Why SFTP is not used, when the program sshd ran for the sftp request ended before a
        word of SFTP and no forced command answered in its place; None otherwise.

        `Subsystem sftp /bin/false` (or /bin/true, /usr/sbin/nologin) is how hardening guides
        disable SFTP while commands stay allowed: sshd runs that program for the request
        (openssh-portable session.c, session_subsystem_req -> do_exec), as it refuses one with
        no Subsystem line (_sftp_refused); copies then go over `cat` as they do there. A forced
        command (ForceCommand, command="..." in authorized_keys) that ends the same way is the
        host's policy (_ended_before_sftp): sshd sets SSH_ORIGINAL_COMMAND only under one
        (session.c, do_setup_env), which a command of ours run through it then sees."""
        if stage != "version" or isinstance(exc, TimeoutError) or self._interrupted.is_set() \
                or not channel.status_event.is_set():
            return None
        said = self._shell_answer("/bin/sh -c " + login_quoted(f'[ -n "${{SSH_ORIGINAL_COMMAND+x}}" ] || echo {_UNFORCED}'))
        if said is None or said.decode("utf-8", "replace").strip().rsplit("\n", 1)[-1].strip() != _UNFORCED:
            return None
        code = channel.exit_status
        ended = f"ended with exit code {code}" if code > 0 else "ended"
        return (f"SFTP is disabled: the program sshd_config's `Subsystem sftp` line names {ended} before speaking SFTP "
                "(for SFTP, the host's admin sets `Subsystem sftp internal-sftp`)")

    def _start_wait_s(self) -> float:
        """How long the SFTP server may take to start: ConnectTimeout, plus twice what the host's
        login shell takes to run a command. sshd starts an external sftp-server as `$SHELL -c
        sftp-server` (openssh-portable session.c, do_child; Debian's and RHEL's default
        `Subsystem sftp` lines name one), so ~/.bashrc runs first (Debian's bash reads it for
        ssh commands): on an HPC login node whose rc files load conda and modules from a
        shared file system for 20 s, the steps ran and every copy failed ("no working SFTP:
        no answer within 15 s"), where sftp(1) and scp(1) wait as long as the server takes.
        Twice: a cold file-system cache makes one start slower than the no-op's. A login of
        tenths of a second (most hosts) adds nothing: the wait stays ConnectTimeout."""
        if self.login_s < _SLOW_LOGIN_S:
            return self._start_timeout_s
        return self._start_timeout_s + math.ceil(2 * self.login_s)

    def _startup_chatter(self) -> str | None:
        """The first line an empty command prints on this host, or None when it prints nothing.

        Called when the SFTP server's first answer was not SFTP ("Garbage packet received"):
        sshd starts an external sftp-server through the login shell (`$SHELL -c
        /usr/lib/openssh/sftp-server`, openssh-portable: session.c, do_child), so a ~/.bashrc
        that echoes for non-interactive shells writes into the SFTP stream. Commands are not
        hurt (the wrapper's marker tells chatter from output), so only copies fail, and the
        hint about sshd_config's Subsystem line sent people to the wrong file.
        """
        said = bytearray()
        try:
            with self._session_slot():
                channel = self._open_channel()
                try:
                    channel.settimeout(_CHATTER_WAIT_S)
                    if not answered_within(channel, lambda: channel.exec_command("exit 0"), _CHATTER_WAIT_S):
                        return None
                    channel.shutdown_write()
                    for chunk in iter(lambda: channel.recv(1024), b""):
                        said += chunk
                        if len(said) >= 1024:
                            break
                finally:
                    close_channel(channel)
        except (*_SFTP_FAILURES, RemoteFileError):
            pass  # a diagnosis only: the SFTP failure is reported either way
        lines = [line.strip() for line in said.decode("utf-8", "replace").splitlines() if line.strip()]
        return lines[0][:200] if lines else None

    def _alive(self) -> bool:
        """Whether the connection is still up, giving a dying one a moment to be noticed."""
        deadline = time.monotonic() + _DEATH_NOTICE_S
        while self._transport.is_active():
            if time.monotonic() >= deadline:
                return True
            time.sleep(0.02)
        return False

    def _file_size_limit(self) -> int | None:
        """The host's file size limit in bytes, None when unlimited or unknown.
        A file size limit (RLIMIT_FSIZE: pam_limits' fsize on shared clusters, a ulimit -f in
        sshd's service) ends the SFTP server with SIGXFSZ as an upload passes it (setrlimit(2),
        write(2): EFBIG after the signal, whose default action ends the process): the session
        simply dropped, and the step said only "Server connection dropped"."""
        # sh: POSIX counts it in 512-byte blocks, as dash, busybox and bash as sh do; bash
        # itself says KiB (bash ulimit builtin: -f is 1024 unless in POSIX mode). /bin/sh by its
        # path, as the copy scripts run it: under a PATH an rc file clobbered, `sh` was not found.
        said = self._shell_answer("/bin/sh -c 'ulimit -f'")
        if said is None:
            return None
        # The last line: a login script that prints (a banner in .bashrc) says its words first.
        last = said.decode("ascii", "replace").strip().rsplit("\n", 1)[-1].strip()
        return int(last) * 512 if last.isdigit() else None

    def _shell_answer(self, command: str) -> bytes | None:
        """What command prints (its first 4 KiB) over a channel of its own, within _LIMIT_ASK_S
        each for the channel and each read; None when the connection or the host refuse it."""
        try:
            channel = self._transport.open_session(timeout=_LIMIT_ASK_S)
        except (paramiko.SSHException, EOFError, OSError):
            return None
        said = b""
        try:
            channel.settimeout(_LIMIT_ASK_S)
            channel.exec_command(command)
            while len(said) < 4096:
                chunk = channel.recv(4096)
                if not chunk:
                    break
                said += chunk
        except (paramiko.SSHException, EOFError, OSError, UnicodeError):
            return None
        finally:
            close_channel(channel)
        return said

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
                try:
                    client.mkdir(current)
                except OSError:
                    _DanglingLink.check(client, current)
                    raise

    @contextmanager
    def _errors(
        self, remote_path: str, expired: threading.Event | None = None, *, upload: bool = False, size: int | None = None
    ) -> Iterator[None]:
        """_file_errors, and a copy whose channel the fetch step's deadline closed (expired set)
        raising FetchTimedOut, whatever paramiko or the shell copy said about the closed channel."""
        try:
            with self._file_errors(remote_path, upload=upload, size=size):
                yield
        except (RemoteFileError, *_SFTP_FAILURES):
            if expired is None or not expired.is_set() or self._interrupted.is_set():
                raise
            self._drop()
            deadline = current_deadline()
            raise FetchTimedOut(remote_path, deadline.timeout_s if deadline is not None else 0.0) from None

    @contextmanager
    def _file_errors(self, remote_path: str, *, upload: bool = False, size: int | None = None) -> Iterator[None]:
        """size: an upload's bytes (a file size limit below it is named when its session drops)."""
        try:
            yield
        except (ConnectionLostError, UsageError, RemoteFileError, LocalCopyError):
            raise
        except _SFTP_FAILURES as exc:
            if self._shell_copies is not None and not isinstance(exc, (EOFError, paramiko.SSHException)):
                # _ShellCopies turns its channel's failures into our errors itself: what is left
                # is its refusal of this one file (FileNotFoundError...) or a local file's error.
                raise
            if self._interrupted.is_set():
                self._drop()
                raise CopyInterrupted(f"{self._host}: copy of {remote_path} stopped: the run was interrupted") from None
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
                reason = _short_write(exc.strerror or _one_line(exc))
                if upload:
                    if reason == "Failure":
                        # sftp-server answers EROFS (and all it has no code for) with a bare
                        # SSH2_FX_FAILURE (openssh-portable: sftp-server.c, errno_to_portable): an
                        # upload to a read-only home said only "Failure".
                        reason = "Failure (the SFTP server's one answer for a read-only file system, among other errors)"
                    hint = ("the login user must be able to write there (a read-only or full home, or an SFTP server started with -R?)"
                            if not isinstance(exc, _DanglingLink) else
                            f"create the folder it points to (mkdir -p {shlex.quote(_link_target(exc.filename, exc.target))} on the host), or remove the link")
                    raise RemoteFileError(f"{self._host}: cannot upload to {remote_path}: {reason}", hint=hint) from None
                if exc.filename is not None or exc.errno is None:
                    raise
                # paramiko's SFTP errors carry no file name; name the remote path for the record,
                # and the file it is on the host when `~` or a relative path made it another (a
                # $HOME that does not exist, commands that start elsewhere: sftp_path).
                resolved = sftp_path(remote_path, self.home, self.cwd)
                named = remote_path if resolved in (remote_path, remote_path.removeprefix("~/")) else f"{remote_path} ({resolved})"
                raise type(exc)(exc.errno, f"{self._host}:{named}: {reason}") from None
            # The SFTP channel itself broke: start a fresh one next time.
            self._drop()
            if self._alive():
                limit = self._file_size_limit() if upload and size is not None else None
                if limit is not None and size is not None and limit < size:
                    raise _size_limited(self._host, remote_path, limit, size, "the SFTP session ended", "the SFTP server") from None
                raise RemoteFileError(
                    f"{self._host}: the SFTP session ended while copying {remote_path} ({_one_line(exc)})",
                    hint="the host's sftp-server stopped or refused the transfer; see the host's sshd log",
                ) from None
            raise ConnectionLostError(f"{self._host}: SSH connection lost while copying {remote_path}") from None


# paramiko checks an upload's size once it is written (paramiko/sftp_client.py, putfo): OpenSSH's
# sftp-server answers the pipelined writes that hit a full disk or quota with a bare "Failure"
# (sftp-server.c, errno_to_portable), which paramiko does not raise, so a full disk shows as this.
_SIZE_MISMATCH = re.compile(r"size mismatch in put!\s+(\d+) != (\d+)")


def _unanswered(host: str, channel: str, command: str, within_s: float) -> RemoteFileError:
    """The error of a channel whose exec or subsystem request sshd never answered (ssh_transport.answered_within)."""
    return RemoteFileError(
        f"{host}: the server opened {channel} channel but did not start {command} within {within_s:g} s",
        hint="sshd on the host is hung or overloaded (out of memory: its fork of the command stalls in reclaim, "
        "or sshd itself is swapped out or stopped): check the host's load and memory; raise ConnectTimeout if it is only slow",
    )


class _DanglingLink(FileNotFoundError):
    """A folder of an upload's path that is a symbolic link to nothing: ~/.cache pointed at a
    scratch or project disk (home quotas on clusters are small) that was purged, or is not
    mounted on this node. stat() follows the link (no such file), and the SFTP mkdir then meets
    the link's own name: OpenSSH's sftp-server answers EEXIST as a bare SSH_FX_FAILURE
    (sftp-server.c, errno_to_portable), so the upload said only "Failure"."""

    def __init__(self, path: str, target: str) -> None:
        super().__init__(errno.ENOENT, f"{path} is a symbolic link to {target}, which does not exist", path)
        self.target = target

    @classmethod
    def check(cls, client: paramiko.SFTPClient, path: str) -> None:
        """Raise one for path if it is a symbolic link (the mkdir that failed on it)."""
        try:
            if not stat.S_ISLNK(client.lstat(path).st_mode or 0):
                return
            target = client.readlink(path)
        except OSError:
            return  # the mkdir's own failure is said
        raise cls(path, target or "?")


# The kernel's limit on links followed in one path (Linux: MAXSYMLINKS, 40).
_MAX_LINK_HOPS = 40


def _broken_link(client: paramiko.SFTPClient, path: str) -> str | None:
    """Why path, which stat() says is no file, is one for `ls`: a symbolic link to a file that
    does not exist (a log symlinked to a purged scratch disk, or a volume not mounted on this
    node), or links that lead back to themselves; None where path is no link (or the SFTP
    server will not say). OpenSSH's sftp-server answers both ENOENT and ELOOP with
    SSH2_FX_NO_SUCH_FILE (openssh-portable: sftp-server.c, errno_to_portable), so a fetch of
    either said only "No such file" of a name that `ls -l` lists."""
    chain = [path]
    said: list[str] = []
    try:
        while len(said) < _MAX_LINK_HOPS:
            if not stat.S_ISLNK(client.lstat(wire_path(chain[-1])).st_mode or 0):
                return None  # no link, or one that leads to a file now: the copy's own error stands
            target = client.readlink(wire_path(chain[-1])) or "?"
            said.append(target)
            following = _link_target(chain[-1], target)
            if following in chain:
                return f"it is a symbolic link that leads back to itself (to {', then '.join(said)})"
            chain.append(following)
            try:
                client.lstat(wire_path(following))
            except FileNotFoundError:
                through = f" (through {', then '.join(said[:-1])})" if len(said) > 1 else ""
                return f"it is a symbolic link to {target}, which does not exist{through}"
    except (OSError, paramiko.SFTPError, paramiko.SSHException, EOFError):
        return None
    return None


def _why_short(client: paramiko.SFTPClient, local_path: Path, partial: str) -> None:
    """Ask the SFTP server why an upload came out short, by writing its next bytes once more
    with the answer read: paramiko's put pipelines its writes and drops their answers
    (paramiko/sftp_file.py, _write: an async request for type(None), whose status
    sftp_client._read_response discards), so a server that refuses every write request
    (`sftp-server -P write`, or `internal-sftp -P write` in sshd_config: SSH2_FX_PERMISSION_DENIED,
    openssh-portable: sftp-server.c, process_write and request_permitted) left a 0-byte file,
    which read as a full disk. Raises the refusal (PermissionError); a full disk's bare
    "Failure", or no answer at all, leaves the short write to be said as it was."""
    try:
        written = client.stat(partial).st_size or 0
        with local_path.open("rb") as local:
            local.seek(written)
            data = local.read(32768)
        if not data:
            return
        with client.open(partial, "r+") as remote:  # unbuffered and not pipelined: each answer is read
            remote.seek(written)
            remote.write(data)
    except PermissionError:
        raise
    except _SFTP_FAILURES:
        return


def _short_write(reason: str) -> str:
    """paramiko's "size mismatch in put!  65536 != 200000" said as what it means."""
    match = _SIZE_MISMATCH.search(reason)
    if match is None:
        return reason
    return f"only {match[1]} of {match[2]} bytes could be written: the disk there (or the user's quota) is full"


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


# 127: the shell found no such program (POSIX sh, "Exit Status for Commands"). sshd runs an
# external subsystem as `$SHELL -c PROGRAM` (openssh-portable: session.c, do_child).
_COMMAND_NOT_FOUND = 127
# How long a subsystem that ended gets to deliver its exit status after its output's EOF.
_EXIT_STATUS_WAIT_S = 1.0
_UNFORCED = "spec-debug:no-forced-command"
"""What the question of RemoteFiles._sftp_disabled prints where no forced command runs it."""


# How long the diagnosis of a chatty login shell waits for the empty command's output.
_CHATTER_WAIT_S = 5.0
_CHATTER_HINT = (
    "make the shell's startup file quiet when it is not interactive: print from ~/.bashrc (or "
    "/etc/bash.bashrc, ~/.zshenv) only after `[[ $- == *i* ]] || return`, or to stderr; "
    "`ssh HOST true` must print nothing (or let the host's admin set `Subsystem sftp internal-sftp`, "
    "which starts no shell; a ForceCommand that prints is the admin's to fix)"
)


def _sftp_refused(channel: paramiko.Channel, stage: str) -> str | None:
    """Why the host has no SFTP at all, or None when SFTP started and then failed.

    sshd answers a `subsystem` request it has no `Subsystem` line for with a failure, which
    paramiko reports as "Channel closed." from invoke_subsystem (openssh-portable: session.c,
    session_subsystem_req; paramiko/channel.py, _request_failed). A Subsystem line that names a
    program not installed ends at once with status 127 before any SFTP version.
    """
    if stage == "subsystem":
        return "sshd refuses the sftp subsystem (no `Subsystem sftp` line in its sshd_config)"
    if stage == "version" and channel.status_event.wait(_EXIT_STATUS_WAIT_S) and channel.exit_status == _COMMAND_NOT_FOUND:
        return "the sftp-server program sshd_config names is not installed"
    return None


def _ended_before_sftp(channel: paramiko.Channel, stage: str) -> str | None:
    """How the SFTP channel's program ended before it spoke SFTP (its exit code), when it
    failed so; None otherwise. Called after _sftp_refused, which waited for the exit status.

    A site's ForceCommand that runs every command through a wrapper or a shell gets
    `internal-sftp` for the SFTP request (openssh-portable session.c, do_exec: the Subsystem
    line's command becomes SSH_ORIGINAL_COMMAND); tcsh answers "internal-sftp: Command not
    found." and a policy wrapper "no sftp here", with exit 1. That was reported as paramiko's
    "EOF during negotiation". What they print on stderr never reaches us: sshd drops a
    subsystem's stderr (session.c, do_exec_no_pty: session_set_fds ignores it for subsystems)."""
    if stage != "version" or not channel.status_event.is_set() or channel.exit_status <= 0:
        return None
    return f"the program that answered the SFTP request ended with exit code {channel.exit_status} before speaking SFTP"


# The copies, in POSIX sh run as `sh -c SCRIPT sh ARG...`: one line of single-quoted words,
# which every login shell (bash, zsh, fish, csh) passes on unchanged. An upload goes to a
# temporary name beside the target and is renamed over it, as the SFTP upload does, once it
# holds the $3 bytes sent: `cat` ends the same way when the file ended and when the connection
# dropped or the run was interrupted mid-upload (sshd closes its input either way), and the
# first part of a probe bundle then took the bundle's name, where every later run found it
# (`test -s`) and ran it. wc -c answers from fstat for a regular file (coreutils: src/wc.c);
# BSD's pads its number with spaces. The download's script (copy_script.GET_SCRIPT) is the
# local fetch's too.
# A folder that mkdir -p cannot make because a link to nothing holds its name (_DanglingLink;
# mkdir says only "File exists") is named with the link's target.
_PUT_SCRIPT = (
    'p="$1.part-$2"; d=$(dirname -- "$1"); e=$(mkdir -p -- "$d" 2>&1) || { while [ "$d" != / ] && [ "$d" != . ]; do '
    'if [ -L "$d" ] && [ ! -e "$d" ]; then echo "$d is a symbolic link to $(readlink -- "$d"), which does not exist" >&2; exit 2; fi; '
    'd=$(dirname -- "$d"); done; echo "$e" >&2; exit 1; }; '
    'cat > "$p" && s=$(wc -c < "$p") && [ "${s##* }" = "$3" ] '
    '&& mv -f -- "$p" "$1" && exit 0; r=$?; rm -f -- "$p"; '
    '[ $r -ne 153 ] || echo "ulimit -f $(ulimit -f)" >&2; exit $r'
)
# A `cat` ended by a file size limit (SIGXFSZ, 25 on Linux and the BSDs: 128 + 25) makes the
# script say the limit, which sh counts in 512-byte blocks (RemoteFiles._file_size_limit): the
# shell copy failed as "exit code 153", with the hint of a read-only or full home.
_SIZE_LIMITED = 153
_SIZE_LIMIT_SAID = re.compile(r"^ulimit -f (\d+)$")


def _size_limited(host: str, remote_path: str, limit: int, size: int, ended: str, writer: str) -> RemoteFileError:
    """The error of an upload that a file size limit (ulimit -f) below its size cut short:
    ended, what the copy saw; writer, the process the kernel ended."""
    return RemoteFileError(
        f"{host}: {ended} while copying {remote_path}: the host limits a file its processes write to {limit} bytes "
        f"(ulimit -f), below the copy's {size}, and the kernel ends {writer} (SIGXFSZ) when a write passes it",
        hint="raise the login user's file size limit (fsize in /etc/security/limits.conf, "
        "or the `ulimit -f` of the host's login scripts or sshd's service), or run on a host without one",
    )


_DANGLING_SAID = re.compile(r"(?m)^(.+) is a symbolic link to (.+), which does not exist$")


def _link_target(link: str, target: str) -> str:
    """A link's target as a path the fix's mkdir -p can take from the login folder: a relative
    one (ln -s ../scratch/cache) is relative to the link's folder, not to where the shell is."""
    if target.startswith("/"):
        return target
    return posixpath.normpath(posixpath.join(posixpath.dirname(link), target))
_EXISTS_SCRIPT = '[ -e "$1" ] || [ -L "$1" ]'
# A download's command prints this before the file's bytes: what comes before it was printed by
# the login shell's startup files, which sshd runs first (`$SHELL -c COMMAND`: openssh-portable,
# session.c, do_child; Debian's and Fedora's bash read ~/.bashrc there). A `conda init` line or a
# cluster greeting ended up at the head of the fetched file: a config.json that no longer parsed,
# a log with someone else's first line. No single quotes: the command stays one word in quotes.
# The mark carries the copy's pid (`cat` is exec'd in that process): a copy given up early is
# killed on the host by it (_ShellCopies._run).
_DATA_MARK = b"\x1fspec-debug-copy="
_DATA_MARK_SCRIPT = 'printf "\\037spec-debug-copy=%s\\n" $$; '
# _ShellCopies._run's code for a copy it stopped reading at its receive_limit (no exit status:
# the command was still sending). Out of the range of exit statuses (0-255).
_CUT_SHORT = -2
_CHUNK = 32 * 1024


# How often a shell copy's wait for the host looks again at _STALL_S, which is read at each
# look (as local._WatchedPipe reads local._COPY_STALL_S at each of its 0.1 s looks).
_LOOK_S = 0.25


def _watched(channel: paramiko.Channel, read: Callable[[], bytes]) -> bytes:
    """read() (a recv of the copy's channel), given up with TimeoutError once the host sent
    nothing for _STALL_S s. The limit was set once on the channel (its timeout), so a limit
    lowered while a copy waited (a test's, once the host's `cat` waits on a FIFO) was never
    seen: the test had to choose one long enough for a loaded host to start the copy, 20 s."""
    channel.settimeout(_LOOK_S)
    quiet_since = time.monotonic()
    while True:
        try:
            return read()
        except TimeoutError:  # paramiko's socket.timeout: nothing came in _LOOK_S s
            if time.monotonic() - quiet_since >= _STALL_S:
                raise


def _status_came(channel: paramiko.Channel) -> bool:
    """Whether the copy's exit status came within _STALL_S s (looked at as _watched does)."""
    quiet_since = time.monotonic()
    while not channel.status_event.wait(_LOOK_S):
        if time.monotonic() - quiet_since >= _STALL_S:
            return False
    return True


def _said_fifo(channel: paramiko.Channel) -> bool:
    """Whether a stalled copy's script said on stderr that its source is a FIFO (FIFO_MARK): a
    line of its own anywhere in what came. Not only at the start: sshd and the login shell write
    there before the command runs ("Could not chdir to home directory", a ~/.bashrc's `conda.sh:
    No such file or directory`), and the FIFO's stall was blamed on a hung disk. All that came
    is read (stderr is not read during the copy), not 4 KiB of it."""
    said = bytearray()
    while channel.recv_stderr_ready():
        chunk = channel.recv_stderr(1 << 16)
        if not chunk:
            break
        said += chunk
    return any(line.strip() == FIFO_MARK for line in said.decode("utf-8", "replace").splitlines())


class _AfterMark:
    """A download's output, less what came before _DATA_MARK's line (whose pid it keeps)."""

    def __init__(self) -> None:
        self.seen = False
        self.pid: int | None = None
        """The host's process that copies the file, once the mark has come."""
        self._held = b""

    def after_mark(self, chunk: bytes) -> bytes:
        """The file's bytes in chunk (none until the mark's line has come)."""
        if self.seen:
            return chunk
        held = self._held + chunk
        at = held.find(_DATA_MARK)
        if at < 0:
            self._held = held[-(len(_DATA_MARK) - 1) :]  # the start of a mark cut between two chunks
            return b""
        end = held.find(b"\n", at)
        if end < 0:
            self._held = held[at:]  # the mark's line, cut between two chunks
            return b""
        digits = held[at + len(_DATA_MARK) : end]
        self.seen, self._held, self.pid = True, b"", int(digits) if digits.isdigit() else None
        return held[end + 1 :]


class _ShellCopies:
    """File copies as `cat` on exec channels, for a host whose sshd offers no SFTP."""

    def __init__(
        self,
        host: str,
        no_sftp: str,
        session_slot: Callable[[], AbstractContextManager[None]],
        open_channel: Callable[[], paramiko.Channel],
        alive: Callable[[], bool],
        hint: str | None = None,
        kill: Callable[[int], None] | None = None,
        answer_within_s: float = 15.0,
    ) -> None:
        self._host = host
        self._kill = kill
        """Kills a process tree on the host by its pid (SSHTransport's kill of a timed-out step)."""
        self._answer_within_s = answer_within_s
        """How long sshd may take to start a copy's command (ConnectTimeout): a frozen one never does."""
        self.no_sftp = no_sftp
        """Why SFTP is not used (shown with every failed copy)."""
        self._hint = hint
        """How to make SFTP work again (given with every failed copy), when known."""
        self._session_slot = session_slot
        self._open_channel = open_channel
        self._alive = alive
        self.channel: paramiko.Channel | None = None
        """The channel of the copy in progress (closed by RemoteFiles.interrupt)."""
        self.interrupted = False

    def put(self, local_path: Path, target: str, remote_path: str) -> None:
        size = str(local_path.stat().st_size)
        code, said = self._run(_PUT_SCRIPT, target, uuid.uuid4().hex[:8], size, send=local_path, what=remote_path)
        limited = _SIZE_LIMIT_SAID.match(said or "") if code == _SIZE_LIMITED else None
        if limited is not None:
            raise _size_limited(self._host, remote_path, int(limited[1]) * 512, int(size),
                                f"the copy's cat ended (exit code {code}; {self._why_shell()})", "the copy's cat")
        if code != 0:
            dangling = _DANGLING_SAID.search(said or "")
            raise RemoteFileError(
                f"{self._host}: cannot upload to {remote_path}: {said or f'exit code {code}'} ({self._why_shell()})",
                hint=(f"create the folder it points to (mkdir -p {shlex.quote(_link_target(dangling[1], dangling[2]))} on the host), or remove the link"
                      if dangling else "the login user must be able to write there (a read-only or full home?)"),
            )

    def get(
        self, source: str, local_path: Path, remote_path: str, max_bytes: int | None = None, expired: threading.Event | None = None
    ) -> None:
        local_path.parent.mkdir(parents=True, exist_ok=True)
        partial = local_path.with_name(f"{local_path.name}.part-{uuid.uuid4().hex[:8]}")
        limit = "" if max_bytes is None else str(max_bytes)
        try:
            with open(partial, "wb") as local:
                target = LocalTarget(local, local_path)
                code, said = self._run(
                    GET_SCRIPT, source, limit, receive=target, receive_limit=max_bytes, what=remote_path, expired=expired
                )
                target.flush()
            if code in (0, _CUT_SHORT) and max_bytes is not None and partial.stat().st_size > max_bytes:
                os.truncate(partial, max_bytes)
                os.replace(partial, local_path)
                raise FetchCut(max_bytes, None)
            refusal(code, said, f"{self._host}:{remote_path}", max_bytes)
            if code != 0:
                raise RemoteFileError(
                    f"{self._host}: cannot download {remote_path}: {said or f'exit code {code}'} ({self._why_shell()})", hint=self._hint
                )
            os.replace(partial, local_path)
        except BaseException:
            if expired is not None and expired.is_set() and not self.interrupted:  # as RemoteFiles.get keeps it
                keep_partial(partial, local_path)
            raise
        finally:
            partial.unlink(missing_ok=True)

    def exists(self, source: str, remote_path: str) -> bool:
        code, said = self._run(_EXISTS_SCRIPT, source, what=remote_path)
        if code not in (0, 1):
            raise RemoteFileError(
                f"{self._host}: cannot look for {remote_path}: {said or f'exit code {code}'} ({self._why_shell()})", hint=self._hint
            )
        return code == 0

    def _why_shell(self) -> str:
        return f"copied with cat over ssh: {self.no_sftp}"

    def _run(
        self,
        script: str,
        *args: str,
        what: str,
        send: Path | None = None,
        receive: LocalTarget | None = None,
        receive_limit: int | None = None,
        expired: threading.Event | None = None,
    ) -> tuple[int, str]:
        """Run `script` with `args`, `send`'s bytes on its stdin, its stdout into `receive`:
        its exit code and the last line of its stderr. A fetch deadline that passed (expired)
        before the channel was known here closes nothing: it is checked once the channel is.

        With receive_limit, reading stops one byte past it and the code is _CUT_SHORT: the
        channel's close ends the host's `cat` (GET_SCRIPT copies the whole file, whatever its
        size said: a log being written, a FIFO)."""
        if receive is not None:
            script = _DATA_MARK_SCRIPT + script
        # /bin/sh and the standard places on PATH (host_path): under an rc file that clobbered
        # PATH (`export PATH=/opt/miniconda3/bin`) neither `sh` nor cat/wc/mv was found, and
        # every upload and download of a host without SFTP failed with exit code 127.
        command = " ".join(["/bin/sh", "-c", login_quoted(WITH_STANDARD_PATH + script), "sh", *(login_quoted(arg) for arg in args)])
        errors = bytearray()
        data = _AfterMark()
        with self._session_slot():
            channel = self._open_channel()
            self.channel = channel
            try:
                if self.interrupted or (expired is not None and expired.is_set()):
                    raise EOFError("interrupted")
                channel.settimeout(_STALL_S)
                answer_s = request_answer_s(self._answer_within_s)
                if not answered_within(channel, lambda: channel.exec_command(wire_path(command)), answer_s):
                    raise _unanswered(self._host, "the copy's", "its command", answer_s)
                if send is not None:
                    self._send(channel, send)
                channel.shutdown_write()
                received = 0
                for chunk in iter(lambda: _watched(channel, lambda: channel.recv(1 << 20)), b""):
                    if receive is not None:
                        chunk = data.after_mark(chunk)
                        if receive_limit is not None and received + len(chunk) > receive_limit:
                            receive.write(chunk[: receive_limit + 1 - received])
                            return _CUT_SHORT, ""
                        receive.write(chunk)
                        received += len(chunk)
                for chunk in iter(lambda: _watched(channel, lambda: channel.recv_stderr(4096)), b""):
                    errors[:] = (errors + chunk)[-4096:]
                if not _status_came(channel) or channel.exit_status < 0:
                    raise EOFError("the command's channel closed without an exit status")
                code = channel.exit_status
                if receive is not None and not data.seen and code == 0:
                    raise RemoteFileError(
                        f"{self._host}: cannot download {what}: the login shell did not run the copy's command ({self._why_shell()})",
                        hint="a forced command (sshd_config ForceCommand, or command=\"...\" in authorized_keys) runs instead",
                    )
            except _SFTP_FAILURES as exc:
                if isinstance(exc, RemoteFileError):
                    raise
                if self.interrupted:
                    raise CopyInterrupted(f"{self._host}: copy of {what} stopped: the run was interrupted") from None
                if not self._alive():
                    raise ConnectionLostError(f"{self._host}: SSH connection lost while copying {what}") from None
                if isinstance(exc, TimeoutError):
                    if _said_fifo(channel):
                        raise RemoteFileError(f"{self._host}: cannot download {what}: {fifo_stalled(_STALL_S)}",
                                              hint="start what writes to it first, or fetch the file it is copied to") from None
                    raise RemoteFileError(
                        f"{self._host}: the host did not move any data for {_STALL_S:g} s while copying {what}",
                        hint="the host's disk or home directory hangs (a stuck NFS mount?)",
                    ) from None
                raise RemoteFileError(f"{self._host}: copy of {what} failed: {_one_line(exc)} ({self._why_shell()})", hint=self._hint) from None
            finally:
                self.channel = None
                # Not exit_status_ready(): paramiko sets it when the channel closes, as the
                # deadline's close from another thread does (paramiko/channel.py, _set_closed).
                ended = channel.exit_status >= 0 or getattr(channel, "exit_signal_name", None) is not None
                close_channel(channel)
                if not ended:
                    self._end_copy(data.pid)
        lines = said_lines(bytes(errors))
        return code, lines[-1].strip() if lines else ""

    def _end_copy(self, pid: int | None) -> None:
        """Kill the host's `cat` of a download given up before its end: cut at its limit,
        stopped at the step's deadline or by Ctrl-C, or stalled. Closing the channel stops
        nothing there: sshd keeps the session until the command exits (openssh-portable:
        session.c, session_close_by_channel), and a `cat` blocked reading a FIFO whose writer
        stalled, or a file on a hung mount, never writes again to learn that no one reads it.
        It outlived the run and held one of sshd's MaxSessions slots: on a host with
        MaxSessions 1 every later step failed ("refused a new session channel"). Not the
        `signal` channel request: sshd refuses it for root logins (session.c,
        session_signal_req: "requires privilege separation"), the usual login on cloud GPU hosts."""
        if pid is not None and self._kill is not None:
            self._kill(pid)

    @staticmethod
    def _send(channel: paramiko.Channel, local_path: Path) -> None:
        with open(local_path, "rb") as handle:
            for chunk in iter(lambda: handle.read(_CHUNK), b""):
                try:
                    channel.sendall(chunk)
                except OSError:
                    if channel.exit_status_ready():
                        return  # the command ended before reading it all (mkdir failed): its status says why
                    raise
