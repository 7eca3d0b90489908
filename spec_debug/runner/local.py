"""The local transport: runs steps on this machine (``--host local``)."""

from __future__ import annotations

import os
import selectors
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, Callable

from spec_debug.runner.copy_script import FIFO_MARK, GET_SCRIPT, fifo_stalled, refusal, said_lines
from spec_debug.runner.fetch_deadline import FetchDeadline, FetchTimedOut, current_deadline, keep_partial
from spec_debug.runner.fetch_limit import FetchCut, LocalTarget, copy_capped
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.proctree import descendants, kill_tree, pipe_holders, pipe_ids
from spec_debug.runner.transport import CommandOutcome, Transport

_SHELL = "/bin/bash" if Path("/bin/bash").exists() else "/bin/sh"
# A BASH_ENV file (bash(1), INVOCATION: read by every non-interactive bash before its command;
# a CI runner's or a module system's) that sets an EXIT trap (`trap 'echo bye' EXIT`) printed
# into the step's stdout after its output: `that: stdout == '...'` failed on a line the step
# never wrote. As for the ssh login's rc files (ssh.py _QUIET_LOGIN_EXIT_TRAP), the trap is set
# again before the step, on the same line (LINENO and a syntax error's line number unchanged),
# to run as written with its output dropped; a trap the step sets replaces it and prints.
# Only when BASH_ENV is set: without it no trap exists before the step and the command is as typed.
# The same text as ssh.py's (kept here: local runs do not import paramiko).
_QUIET_LOGIN_EXIT_TRAP = (
    '__spec_debug_t=$(trap -p EXIT); if [ -n "$__spec_debug_t" ]; then __spec_debug_t=${__spec_debug_t#trap -- }; '
    'eval "__spec_debug_t=${__spec_debug_t% EXIT}"; trap -- \'eval "$__spec_debug_t" >/dev/null 2>&1\' EXIT; fi; '
)
# What the BASH_ENV file prints as bash reads it (`echo loaded-env`, a module system's banner)
# came first in the step's stdout (its stderr lines in the step's stderr): `that:
# stdout.startswith(...)`, a json: capture and an exact compare read a line the step never
# wrote. The ssh runner drops what the login's rc files print before the step (ssh.py,
# _PID_MARKER). Here bash gets BASH_ENV empty (it reads nothing) and the step's first line
# reads the file as bash would have, in the same shell (its functions, variables, `set` options
# and traps stay) with its output dropped, then exports BASH_ENV again as it was, for the
# step's own bash scripts.
_SAVED_BASH_ENV = "__SPEC_DEBUG_BASH_ENV"
_QUIET_BASH_ENV = (
    f'BASH_ENV=${_SAVED_BASH_ENV}; unset {_SAVED_BASH_ENV}; '
    # `.` looks a name with no slash up on PATH; bash reads BASH_ENV as a path
    'case $BASH_ENV in */*) { . "$BASH_ENV"; } >/dev/null 2>&1;; *) { . "./$BASH_ENV"; } >/dev/null 2>&1;; esac; '
)
# bash expands the value first, as between double quotes: parameter expansion, command
# substitution and arithmetic (bash(1), INVOCATION; shell.c execute_env_file,
# expand_string_unsplit_to_string(..., Q_DOUBLE_QUOTES)), and reads nothing when that is empty.
# `BASH_ENV='$HOME/.envrc'` (a CI runner's, direnv's) was left to bash and its banner printed
# into every local step. The step's line expands it the same way (eval between double quotes, in
# the same shell and environment bash would); a value holding `"` or a backslash, whose quoting
# that eval would change, is still left to bash.
_QUIET_EXPANDED_BASH_ENV = (
    f'BASH_ENV=${_SAVED_BASH_ENV}; unset {_SAVED_BASH_ENV}; '
    '{ eval "__spec_debug_e=\\"$BASH_ENV\\""; } >/dev/null 2>&1; '
    'case $__spec_debug_e in "") ;; */*) { . "$__spec_debug_e"; } >/dev/null 2>&1;; '
    '*) { . "./$__spec_debug_e"; } >/dev/null 2>&1;; esac; unset __spec_debug_e; '
)
_READ_SIZE = 65536
# After the main process exits, a background grandchild may still hold the pipes open
# (`nohup python -m sglang.launch_server ... &` without a redirection): we wait this long for
# the pipes to close, then the step ends and the pipes are handed to a _BackgroundDrain. Closing
# them instead killed such a server at its next log line (SIGPIPE, or BrokenPipeError in
# Python) while the playbook's next step waited for it to become healthy. ssh(1) would hang on
# them until the server exits (it waits for the channel's EOF).
_DRAIN_AFTER_EXIT_S = 1.0
# Linux refuses one execve argument longer than 32 pages (MAX_ARG_STRLEN, 128 KiB:
# torvalds/linux include/uapi/linux/binfmts.h), so `bash -c <script>` fails with E2BIG for a
# long pasted script. Past this size the script goes to a private temp file that bash reads.
_INLINE_SCRIPT_LIMIT = 64 * 1024
# How long a killed step's process is waited for. One that waits in the kernel (state D: a GPU
# driver that stopped answering, as `nvidia-smi` does after an Xid 79 "GPU has fallen off the
# bus"; a file on a dead NFS server) does not die on SIGKILL until that wait ends: the Linux
# FUSE/NFS request waits are uninterruptible once a request is in flight (torvalds/linux
# fs/fuse/dev.c, request_wait_answer). A bare wait() after the kill hung the whole run with it,
# the step's timeout notwithstanding. A process freeing a large address space or a GPU context
# takes a few seconds at most.
_REAP_AFTER_KILL_S = 5.0
# How long a timed-out step's streams are still read after its tree was killed: what it printed
# as it died is often the evidence of where it hung (torchrun's "Received Signals.SIGTERM death
# signal, shutting down workers", a faulthandler stack dump registered for SIGTERM, a trap's
# cleanup log). They come within kill_tree's grace; a pipe a survivor holds is left after this.
_DYING_WORDS_S = 1.0
# How long a fetch's local copy may read nothing before the step gives up on it (as an SFTP
# request unanswered this long fails the copy: ssh_sftp._STALL_S).
_COPY_STALL_S = 120.0


class LocalTransport(Transport):
    def __init__(self, host: str = "local") -> None:
        self.host = host
        self._running_pid: int | None = None
        self._running_pipes: frozenset[str] = frozenset()
        """The running step's output pipes (proctree.pipe_ids): its processes that left the tree hold them."""
        self._abandon_at: float | None = None
        self._background = _BackgroundDrain()
        self._interrupted = threading.Event()
        """Set by interrupt(): a copy in progress is given up (it may wait in the kernel)."""

    def interrupt(self) -> None:
        self._interrupted.set()
        pid, pipes = self._running_pid, self._running_pipes
        if pid is not None:
            # A process waiting in the kernel outlives the kill: the step stops waiting for it
            # then, or Ctrl-C would hang as long as the dead mount does.
            self._abandon_at = time.monotonic() + _REAP_AFTER_KILL_S
            kill_tree(pid, pipes=pipes)

    def run(
        self,
        command: str,
        *,
        stdout: StreamCapture,
        stderr: StreamCapture,
        timeout_s: float | None = None,
        env: dict[str, str] | None = None,
    ) -> CommandOutcome:
        started = time.monotonic()
        if self._interrupted.is_set():
            # Stopped between the engine's last look at the stop and here (the step's command
            # rendered, its probe bundle copied, its line shown): interrupt() had no process to
            # kill, and the command ran to its end, a Ctrl-C unheeded for a whole benchmark.
            # ssh.py's run() refuses it the same way.
            return CommandOutcome(exit_code=None, duration_s=0.0)
        bash_env = (env or {}).get("BASH_ENV") or os.environ.get("BASH_ENV")
        if _SHELL == "/bin/bash" and bash_env:
            command = _QUIET_LOGIN_EXIT_TRAP + command
            expanded = "$" in bash_env or "`" in bash_env
            if not expanded or ('"' not in bash_env and "\\" not in bash_env):
                command = (_QUIET_EXPANDED_BASH_ENV if expanded else _QUIET_BASH_ENV) + command
                env = {**(env or {}), "BASH_ENV": "", _SAVED_BASH_ENV: bash_env}
        script = _script_file(command)
        try:
            return self._run(script or command, bool(script), stdout, stderr, timeout_s, env, started)
        finally:
            if script is not None:
                Path(script).unlink(missing_ok=True)

    def _run(
        self,
        command: str,
        from_file: bool,
        stdout: StreamCapture,
        stderr: StreamCapture,
        timeout_s: float | None,
        env: dict[str, str] | None,
        started: float,
    ) -> CommandOutcome:
        process = subprocess.Popen(
            _utf8_argv([_SHELL, command] if from_file else [_SHELL, "-c", command]),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group, so a timeout can kill the tree
            env={**os.environb, **{_utf8(k): _utf8(v) for k, v in env.items()}} if env else None,
        )
        assert process.stdout is not None and process.stderr is not None
        self._abandon_at = None
        pipes = pipe_ids(process.stdout.fileno(), process.stderr.fileno())
        self._running_pid, self._running_pipes = process.pid, pipes
        if self._interrupted.is_set():
            # interrupt() came while the process was being started: it saw no pid to kill.
            self._abandon_at = time.monotonic() + _REAP_AFTER_KILL_S
            kill_tree(process.pid, pipes=pipes)
        selector = selectors.DefaultSelector()
        selector.register(process.stdout, selectors.EVENT_READ, stdout)
        selector.register(process.stderr, selectors.EVENT_READ, stderr)
        deadline = None if timeout_s is None else started + timeout_s
        timed_out = abandoned = False
        exited_at: float | None = None
        handed_off: list[IO[bytes]] = []
        try:
            while selector.get_map():
                now = time.monotonic()
                if deadline is not None and now >= deadline:
                    timed_out = True
                    kill_tree(process.pid, pipes=pipes)
                    _read_dying_words(selector)
                    break
                if self._abandon_at is not None and now >= self._abandon_at:
                    abandoned = True
                    break
                if exited_at is None and process.poll() is not None:
                    exited_at = now
                if exited_at is not None and now - exited_at > _DRAIN_AFTER_EXIT_S:
                    handed_off = self._hand_off(selector)
                    break
                _copy_ready(selector, 0.2 if deadline is None else max(0.0, min(0.2, deadline - now)))
                stdout.show_unended()  # a prompt or a line with no end yet, once quiet (--show-output)
                stderr.show_unended()
            if not timed_out and not abandoned:
                # Both streams closed, the command still running: a script that sends its own
                # output to a file (`exec > bench.log 2>&1`, `cmd > server.log 2>&1`) reaches here
                # at once, and a bare wait() let it run past its timeout for as long as it liked.
                timed_out, abandoned = _wait_until(process, deadline, lambda: self._abandon_at)
        except BaseException:
            # Ctrl-C or any failure while the step runs: leave no process behind.
            kill_tree(process.pid, pipes=pipes)
            raise
        finally:
            self._running_pid = None
            selector.close()
            for pipe in (process.stdout, process.stderr):
                if pipe not in handed_off:
                    pipe.close()
        if timed_out or abandoned:
            stdout.survived_kill = _reap(process, 0.0 if abandoned else _REAP_AFTER_KILL_S)
            return CommandOutcome(exit_code=None, duration_s=time.monotonic() - started, timed_out=timed_out)
        returncode = process.wait()
        duration = time.monotonic() - started
        if returncode < 0:
            return CommandOutcome(exit_code=128 - returncode, duration_s=duration, signal=-returncode)
        return CommandOutcome(exit_code=returncode, duration_s=duration)

    def _hand_off(self, selector: selectors.BaseSelector) -> list[IO[bytes]]:
        """The pipes still open after the command exited go on being read (and their output
        dropped) until this transport closes; each capture names the processes holding them."""
        keys = list(selector.get_map().values())
        for key in keys:
            selector.unregister(key.fileobj)
            capture: StreamCapture = key.data
            capture.held_open_by = pipe_holders(key.fd)
        pipes = [key.fileobj for key in keys]
        self._background.add(pipes)  # type: ignore[arg-type]
        return pipes  # type: ignore[return-value]

    def close(self) -> None:
        self._background.close()

    def put(self, local_path: Path, remote_path: str) -> None:
        target = Path(os.path.expanduser(remote_path))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(local_path, target)

    def get(self, remote_path: str, local_path: Path, max_bytes: int | None = None) -> None:
        """Copy to a temp name beside local_path, renamed once complete (as the SSH transport
        does): a copy cut short by a full disk or Ctrl-C leaves no truncated artifact (one given up
        at the fetch step's deadline keeps what it copied: fetch_deadline.keep_partial). With
        max_bytes, a larger file is refused before a byte is copied (FetchTooLarge), and one that
        proves longer than its size said is cut there (FetchCut, the cut copy kept).

        The file is read by a child process (copy_script.GET_SCRIPT, as over SSH without SFTP)
        and its output watched: on a dead NFS server or FUSE mount every access to the file
        waits in the kernel (state D) for good, and a fetch that read it in the controller
        hung the run with it; a thread would hold the process too (it cannot exit while one
        of its threads waits there). The step gives up after _COPY_STALL_S s without a byte
        (as an SFTP copy does: ssh_sftp._STALL_S), at the fetch step's deadline (FetchTimedOut:
        fetch_deadline), or at once on interrupt(), and leaves the child waiting in the kernel.
        """
        process = subprocess.Popen(
            _utf8_argv(["/bin/sh", "-c", GET_SCRIPT, "sh", os.path.expanduser(remote_path),
                        "" if max_bytes is None else str(max_bytes)]),
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        )
        assert process.stdout is not None and process.stderr is not None
        partial = local_path.with_name(f"{local_path.name}.part-{os.getpid()}-{time.monotonic_ns()}")
        try:
            local_path.parent.mkdir(parents=True, exist_ok=True)
            with open(partial, "wb") as local:
                try:
                    watched = _WatchedPipe(process.stdout, self._interrupted, remote_path, current_deadline())
                    target = LocalTarget(local, local_path)  # a write that fails says so (ulimit -f: EFBIG)
                    copy_capped(watched, target, max_bytes, None)
                    target.flush()
                except FetchCut:
                    local.close()
                    os.replace(partial, local_path)
                    raise
                except FetchTimedOut:
                    local.close()
                    keep_partial(partial, local_path)
                    raise
                except TimeoutError:
                    if _said_so_far(process.stderr).startswith(FIFO_MARK):
                        raise TimeoutError(fifo_stalled(_COPY_STALL_S)) from None
                    raise
            try:
                code = process.wait(timeout=_REAP_AFTER_KILL_S)  # its output ended: it is exiting
            except subprocess.TimeoutExpired:
                raise TimeoutError(f"the copy of {remote_path} sent all its bytes but did not exit") from None
            said = said_lines(process.stderr.read(4096))
            refusal(code, said[-1] if said else "", remote_path, max_bytes)
            if code != 0:
                raise OSError(f"{remote_path}: {said[-1] if said else f'the copy exited with code {code}'}")
            os.replace(partial, local_path)
        except BaseException:
            if process.poll() is None:  # once reaped, its pid may be another process's
                kill_tree(process.pid)
            raise
        finally:
            partial.unlink(missing_ok=True)
            process.stdout.close()
            process.stderr.close()


def _said_so_far(stderr: IO[bytes]) -> str:
    """What the copy's child wrote on stderr so far, without waiting for more."""
    with selectors.DefaultSelector() as selector:
        selector.register(stderr, selectors.EVENT_READ)
        return os.read(stderr.fileno(), 4096).decode("utf-8", "replace") if selector.select(0) else ""


class _WatchedPipe:
    """A child's output read as a file, which gives up when the child sends nothing for
    _COPY_STALL_S s, the fetch step's deadline passes (a file that trickles never stalls), or
    the transport is interrupted (the child may wait in the kernel)."""

    def __init__(self, pipe: IO[bytes], interrupted: threading.Event, what: str, deadline: FetchDeadline | None = None) -> None:
        self._pipe = pipe
        self._interrupted = interrupted
        self._what = what
        self._deadline = deadline

    def read(self, size: int) -> bytes:
        last = time.monotonic()
        with selectors.DefaultSelector() as selector:
            selector.register(self._pipe, selectors.EVENT_READ)
            # Both before each read too: a file that never pauses never waits below. Only there
            # the interrupt was looked at, and Ctrl-C during the copy of a checkpoint on a slow
            # disk, or of a log a server keeps writing (a FIFO), went on copying to the end or
            # the artifact limit: the run did not stop.
            self._check_interrupted()
            self._check_deadline()
            while not selector.select(0.1):
                self._check_interrupted()
                self._check_deadline()
                if time.monotonic() - last > _COPY_STALL_S:
                    raise TimeoutError(
                        f"no data read from it for {_COPY_STALL_S:g} s: its file system hangs (a dead NFS server or "
                        "FUSE mount?); the copy was given up and is left waiting in the kernel"
                    )
        return os.read(self._pipe.fileno(), size)

    def _check_interrupted(self) -> None:
        if self._interrupted.is_set():
            raise InterruptedError(f"copy of {self._what} stopped: the run was interrupted")

    def _check_deadline(self) -> None:
        if self._deadline is not None and self._deadline.passed():
            raise FetchTimedOut(self._what, self._deadline.timeout_s)


class _BackgroundDrain:
    """Reads and drops what processes left running by earlier steps still print, so that a
    server started in the background keeps running while the later steps use it. Closing
    stops reading: the host's steps are over."""

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def add(self, pipes: list[IO[bytes]]) -> None:
        thread = threading.Thread(target=self._drain, args=(pipes, self._stop), name="spec-debug-background-output", daemon=True)
        self._threads.append(thread)
        thread.start()

    @staticmethod
    def _drain(pipes: list[IO[bytes]], stop: threading.Event) -> None:
        selector = selectors.DefaultSelector()
        try:
            for pipe in pipes:
                selector.register(pipe, selectors.EVENT_READ)
            while selector.get_map() and not stop.is_set():
                for key, _ in selector.select(0.2):
                    try:
                        chunk = os.read(key.fd, _READ_SIZE)
                    except OSError:
                        chunk = b""
                    if not chunk:
                        selector.unregister(key.fileobj)
        finally:
            selector.close()
            for pipe in pipes:
                pipe.close()

    def close(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=1.0)
        self._threads.clear()
        self._stop = threading.Event()  # a transport used again drains again


def _read_dying_words(selector: selectors.BaseSelector) -> None:
    """Read what the streams still carry after a kill, until both end or _DYING_WORDS_S passes."""
    until = time.monotonic() + _DYING_WORDS_S
    while selector.get_map():
        left = until - time.monotonic()
        if left <= 0:
            return
        _copy_ready(selector, left)


def _copy_ready(selector: selectors.BaseSelector, wait: float) -> None:
    """Copy one read of each stream ready within ``wait`` s to its sink; a stream at its end
    leaves the selector."""
    for key, _ in selector.select(wait):
        chunk = os.read(key.fd, _READ_SIZE)
        if chunk:
            key.data.write(chunk)
        else:
            selector.unregister(key.fileobj)


def _reap(process: subprocess.Popen[bytes], limit_s: float) -> list[tuple[int, str, str]] | None:
    """Wait up to limit_s for a killed process: None once it exited, else the processes of its
    tree still alive, as (pid, state letter from /proc, command line). The Popen is left to
    subprocess, which reaps it later (subprocess._cleanup)."""
    try:
        process.wait(timeout=limit_s)
        return None
    except subprocess.TimeoutExpired:
        pass
    alive: list[tuple[int, str, str]] = []
    for pid in [process.pid, *descendants(process.pid)]:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace").strip()
        except OSError:
            continue  # gone meanwhile, or not Linux
        state = stat[stat.rfind(")") + 2 :][:1]
        if state != "Z":
            alive.append((pid, state, command))
    return alive


def _wait_until(
    process: subprocess.Popen[bytes], deadline: float | None, abandon_at: Callable[[], float | None]
) -> tuple[bool, bool]:
    """Wait for process to exit: (timed out, abandoned). Past deadline, kill its tree (timed
    out); past abandon_at() (set by an interrupt that killed it), stop waiting (abandoned)."""
    while True:
        now = time.monotonic()
        remaining = None if deadline is None else deadline - now
        if remaining is not None and remaining <= 0:
            kill_tree(process.pid)
            return True, False
        given_up = abandon_at()
        if given_up is not None and now >= given_up:
            return False, True
        try:
            process.wait(timeout=0.2 if remaining is None else min(0.2, remaining))
            return False, False
        except subprocess.TimeoutExpired:
            continue


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _utf8_argv(argv: list[str]) -> list[bytes]:
    """A command and its paths as the playbook's UTF-8 bytes. Given str, Popen encodes them in
    the controller's locale: under a Latin-1 or ASCII one (LANG=de_DE, PYTHONUTF8=0 with
    LANG=C) a step with `echo ✓` failed the host as 'internal error: UnicodeEncodeError'.
    SSH hosts get the same bytes (paramiko sends a str command as UTF-8)."""
    return [_utf8(arg) for arg in argv]


def _script_file(command: str) -> str | None:
    """A temp file holding command when it is too long for `bash -c`, else None."""
    encoded = command.encode("utf-8", "surrogateescape")
    if len(encoded) <= _INLINE_SCRIPT_LIMIT:
        return None
    fd, path = tempfile.mkstemp(prefix="spec-debug-step-", suffix=".sh")  # mode 0600: only we read it
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(encoded)
    except BaseException:
        Path(path).unlink(missing_ok=True)
        raise
    return path
