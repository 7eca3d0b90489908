"""The CLI zygote: one process that imports spec_debug's CLI and its command modules once, then
forks one child per `run_cli` call, which runs `python -m spec_debug ARGS` in that child.

Started by tests/cli_runner.py (never imported by pytest, never forking pytest, which has
threads): `python tests/cli_zygote.py SOCKET LOG`. Each child is a fresh process with the
caller's stdin/stdout/stderr descriptors (passed over the Unix socket with SCM_RIGHTS), argv,
cwd and environment; it runs the package's real entry point through runpy, as `python -m`
does, then exits as the interpreter would (SystemExit's status, a traceback and 1, threads
joined, atexit, the last flush) without tearing down the modules one by one.

Protocol, one connection per call: the caller sends one JSON request ({"argv", "cwd", "env"})
with three descriptors; the zygote answers "pid N\\n" once the child runs, then "exit S\\n"
with the child's waitpid status (os.waitstatus_to_exitcode gives -signum for a signal, as
subprocess does). Single-threaded (selectors + SIGCHLD through a wakeup pipe): fork is only
safe in a process with one thread, and the zygote checks /proc/self/task before each fork.
"""

from __future__ import annotations

import gc
import json
import os
import selectors
import signal
import socket
import sys

# What the tests' commands import: the CLI (its typer app with every command mounted), a run
# (runner, paramiko, jinja2 reports), the analyzer, the catalog and explain. torch is left out
# (the drafter commands import it themselves): a child pays for it as a plain process would.
PRELOAD = (
    "spec_debug.cli", "spec_debug.cli_run", "spec_debug.report", "spec_debug.report.junit",
    "spec_debug.report.github", "spec_debug.runner.ssh_transport", "spec_debug.playbook.loader",
    "spec_debug.playbook.var_file", "spec_debug.session.analysis", "spec_debug.diagnose.findings_cli",
    "spec_debug.diagnose.catalog", "spec_debug.explain", "spec_debug.stepthrough", "spec_debug.demo",
)

MAX_REQUEST = 1 << 22  # an environment with a 100 kB value and long argv fit


def _preload() -> None:
    import importlib

    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:  # an optional part missing here: the child imports it, or fails, itself
            pass


def _single_threaded() -> bool:
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        import threading

        return threading.active_count() == 1


def _receive(conn: socket.socket) -> tuple[dict, list[int]] | None:
    data, fds = b"", []
    while True:
        chunk, ancdata, _flags, _addr = conn.recvmsg(1 << 16, socket.CMSG_SPACE(3 * 4))
        for level, kind, payload in ancdata:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds += [int.from_bytes(payload[i:i + 4], sys.byteorder, signed=True) for i in range(0, len(payload) - len(payload) % 4, 4)]
        if not chunk:
            break
        data += chunk
        if data.endswith(b"\n") or len(data) > MAX_REQUEST:
            break
    if len(fds) != 3 or not data.endswith(b"\n"):
        for fd in fds:
            os.close(fd)
        return None
    return json.loads(data), fds


class Zygote:
    def __init__(self, listener: socket.socket, lifeline: int) -> None:
        self.listener, self.lifeline = listener, lifeline
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_w, False)
        os.set_blocking(self.wake_r, False)
        self.children: dict[int, socket.socket] = {}
        self.selector = selectors.DefaultSelector()

    def serve(self) -> tuple[dict, list[int]] | None:
        """Serve until the caller goes away (None), or return a request in a forked child."""
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGCHLD, lambda signum, frame: None)
        self.selector.register(self.listener, selectors.EVENT_READ)
        self.selector.register(self.lifeline, selectors.EVENT_READ)
        self.selector.register(self.wake_r, selectors.EVENT_READ)
        while True:
            for key, _events in self.selector.select():
                if key.fileobj is self.lifeline:
                    return None
                if key.fileobj is self.wake_r:
                    self._drain_wakeups()
                elif key.fileobj is self.listener:
                    request = self._accept()
                    if request is not None:
                        return request  # in the child
            self._reap()

    def _drain_wakeups(self) -> None:
        try:
            while os.read(self.wake_r, 4096):
                pass
        except BlockingIOError:
            pass

    def _accept(self) -> tuple[dict, list[int]] | None:
        conn, _addr = self.listener.accept()
        try:
            received = _receive(conn)
        except (OSError, ValueError):
            received = None
        if received is None or not _single_threaded():
            conn.close()
            return None
        request, fds = received
        pid = os.fork()
        if pid == 0:
            self._become_child(conn)
            return request, fds
        for fd in fds:
            os.close(fd)
        try:
            conn.sendall(f"pid {pid}\n".encode())
        except OSError:
            pass
        self.children[pid] = conn
        return None

    def _reap(self) -> None:
        for pid in list(self.children):
            try:
                done, status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done, status = pid, 0
            if done:
                conn = self.children.pop(pid)
                try:
                    conn.sendall(f"exit {os.waitstatus_to_exitcode(status)}\n".encode())
                except OSError:
                    pass
                conn.close()

    def _become_child(self, conn: socket.socket) -> None:
        # The interpreter's own start state again: no SIGCHLD handler, no wakeup fd, none of
        # the zygote's descriptors (a step's `sleep &` must not hold them open).
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        self.selector.close()
        for other in self.children.values():
            other.close()
        for fd in (self.wake_r, self.wake_w, self.lifeline):
            os.close(fd)
        self.listener.close()
        conn.close()


def _enter(request: dict, fds: list[int]) -> None:
    for target, fd in enumerate(fds):
        os.dup2(fd, target, inheritable=True)
    for fd in fds:
        if fd > 2:
            os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    # `python -m` puts the current directory first on sys.path (runpy finds the package there
    # or through the installed finder); sys.argv[0] is set by run_module below, and with the
    # __main__ it installs click names the program "python -m spec_debug" in usage lines
    # (pallets/click src/click/utils.py, _detect_program_name).
    sys.path[0] = os.getcwd()
    sys.argv[:] = ["-m", *request["argv"]]


def main() -> tuple[dict, list[int]] | None:
    socket_path, log_path, lifeline = sys.argv[1], sys.argv[2], int(sys.argv[3])
    # stdout and stderr were made as the caller's pipes are (a child's sys.stdout is then the
    # object a `python -m` with a pipe gets); the zygote's own words go to the log.
    log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    sys.path[0] = os.getcwd()
    _preload()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(socket_path + ".starting")
    listener.listen(16)
    os.rename(socket_path + ".starting", socket_path)  # the path exists once calls are served
    gc.collect()
    gc.freeze()  # the preloaded objects are not scanned (nor their pages copied) in each child
    print("ready", flush=True)
    return Zygote(listener, lifeline).serve()


def _run_cli() -> int:
    """`python -m spec_debug` in this child, and the exit status its interpreter would give."""
    import runpy

    try:
        runpy.run_module("spec_debug", run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        return _system_exit_status(exc.code)
    except BaseException as exc:  # what the interpreter prints for an exception nobody caught
        sys.excepthook(type(exc), exc, exc.__traceback__)
        return -signal.SIGINT if isinstance(exc, KeyboardInterrupt) else 1
    return 0


def _system_exit_status(code: object) -> int:
    # CPython's _Py_HandleSystemExit (python/cpython Python/pythonrun.c): None is 0, an int is
    # itself, anything else is printed on stderr and is 1.
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    try:
        sys.stdout.flush()
    except Exception:
        pass
    print(code, file=sys.stderr)
    return 1


def _exit(status: int) -> None:
    """Leave as Py_FinalizeEx (python/cpython Python/pylifecycle.c) does, less its teardown of ~900 modules (~0.2 s a call): wait for
    non-daemon threads, run atexit, collect cycles (a file only a cycle holds is flushed by its
    close), flush stdout and stderr (a failure there is "Exception ignored" and status 120)."""
    import atexit
    import threading

    threading._shutdown()  # type: ignore[attr-defined]  # what the interpreter calls first
    atexit._run_exitfuncs()
    gc.collect()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception as exc:
            print(f"Exception ignored in: {stream!r}\n{type(exc).__name__}: {exc}", file=sys.__stderr__, flush=True)
            status = 120
    if status == -signal.SIGINT:
        # An uncaught KeyboardInterrupt ends the process by SIGINT (python/cpython Modules/main.c,
        # exit_sigint), so the caller sees -2 as from a plain `python -m`.
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    os._exit(status & 0xFF)


_request = main()
if _request is None:
    sys.exit(0)
_enter(*_request)
del _request
_exit(_run_cli())
