"""`run_cli` without ~0.7 s of imports per call: each call is served by a child forked from
the CLI zygote (tests/cli_zygote.py), a process started once per test session that has already
imported the CLI and its command modules. The child is still a separate process with fresh
state, the caller's stdin, its own stdout and stderr pipes, the call's argv, cwd and
environment, and it runs `python -m spec_debug`'s entry point; the result is what
`subprocess.run(..., capture_output=True, text=True, timeout=...)` would give.

serve() returns None, and the caller runs the plain subprocess, wherever the zygote cannot be
faithful: a per-call environment that differs from the zygote's (whatever the interpreter or
an import read at start: LANG, LC_*, PYTHON*, COLUMNS for rich's consoles), another umask, a
missing cwd, a non-POSIX platform, SPEC_DEBUG_TEST_ZYGOTE=0, or a zygote that did not start.
"""

from __future__ import annotations

import atexit
import json
import locale
import os
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from spec_debug.store import umask_without_setting

ZYGOTE_SCRIPT = Path(__file__).with_name("cli_zygote.py")
START_TIMEOUT = 120.0
MAX_STARTS = 6  # a session whose os.environ keeps changing runs plain subprocesses after that


class _Zygote:
    def __init__(self, env: dict[str, str], umask: int) -> None:
        self.env, self.umask = env, umask
        self.start_state = _start_state(env)
        self.folder = tempfile.mkdtemp(prefix="sd-zygote-")
        self.socket_path = os.path.join(self.folder, "s")
        life_r, self.lifeline = os.pipe()
        # stdout/stderr as pipes: the zygote's sys.stdout is then made as a `python -m` child's
        # is under capture_output (a pipe: not seekable, not a tty); it points them at its log.
        self.proc = subprocess.Popen(
            [sys.executable, str(ZYGOTE_SCRIPT), self.socket_path, os.path.join(self.folder, "log"), str(life_r)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, pass_fds=(life_r,), env=env)
        os.close(life_r)
        self.ready = self._wait_ready()
        for pipe in (self.proc.stdout, self.proc.stderr):
            pipe.close()

    def _wait_ready(self) -> bool:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if os.path.exists(self.socket_path):
                return True
            if self.proc.poll() is not None:
                return False
            time.sleep(0.02)
        return False

    def alive(self) -> bool:
        return self.ready and self.proc.poll() is None

    def close(self) -> None:
        try:
            os.close(self.lifeline)  # the zygote exits when it reads EOF here
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


_zygote: _Zygote | None = None
_starts = 0
_other: tuple[object, int] = (None, 0)  # a differing (env, umask) and how many calls in a row had it
RESTART_AFTER = 3


def _disabled() -> bool:
    return (os.environ.get("SPEC_DEBUG_TEST_ZYGOTE") == "0" or os.name != "posix"
            or not hasattr(os, "fork") or not hasattr(socket, "AF_UNIX") or not sys.platform.startswith("linux"))


# Read by nothing as it imports (the child gets the call's environment as it is): pytest sets
# PYTEST_CURRENT_TEST anew for every test, the SSH tests a HOME and SSH_AUTH_SOCK of their own
# (tests/ssh/conftest.py). HOME is read at start only by site, for the user site-packages
# folder: a HOME without one is the same start as the zygote's when its HOME has none either.
PER_CALL_ONLY = frozenset({"PYTEST_CURRENT_TEST", "SSH_AUTH_SOCK"})


def _user_site(home: str | None) -> bool:
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    return home is not None and os.path.isdir(os.path.join(home, ".local", "lib", version, "site-packages"))


def _start_state(env: dict[str, str]) -> dict[str, str]:
    state = {key: value for key, value in env.items() if key not in PER_CALL_ONLY}
    if "PYTHONUSERBASE" not in env and not _user_site(env.get("HOME")):
        state.pop("HOME", None)
        state["HOME without user site-packages"] = ""
    return state


def _zygote_for(env: dict[str, str], overridden: bool, umask: int) -> _Zygote | None:
    global _zygote, _starts, _other
    if _zygote is not None and _zygote.alive() and _zygote.start_state == _start_state(env) and _zygote.umask == umask:
        return _zygote
    if overridden or _starts >= MAX_STARTS:
        return None  # a one-call environment: the plain subprocess reads it as it starts
    if _zygote is not None and _zygote.alive():
        # os.environ or the umask changed: a test's monkeypatch.setenv is undone at its end, so a
        # new zygote (~1 s to start) is worth it only for a change that lasts a few calls.
        state = (_start_state(env), umask)
        seen = _other[1] + 1 if _other[0] == state else 1
        _other = (state, seen)
        if seen < RESTART_AFTER:
            return None
    if _zygote is not None:
        _zygote.close()
        _zygote = None
    _starts += 1
    zygote = _Zygote(env, umask)
    if not zygote.ready:
        zygote.close()
        return None
    _zygote = zygote
    return zygote


_counts: dict[str, int] = {}


def _count(what: str) -> None:
    _counts[what] = _counts.get(what, 0) + 1


@atexit.register
def _stop() -> None:
    if _zygote is not None:
        _zygote.close()
    stats = os.environ.get("SPEC_DEBUG_TEST_ZYGOTE_STATS")  # a file to append the calls' counts to
    if stats:
        with open(stats, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({**_counts, "starts": _starts}) + "\n")


def serve(args: tuple[str, ...], cwd: Path | None, timeout: float | None, env: dict[str, str],
          overridden: bool) -> tuple[int, str, str] | None:
    """(exit code, stdout, stderr) of `python -m spec_debug ARGS` run by a zygote child, or None
    where the plain subprocess must run it (nothing was started then)."""
    if _disabled():
        return None
    umask = umask_without_setting()
    folder = os.fspath(cwd) if cwd is not None else os.getcwd()
    if umask is None or not os.path.isdir(folder):
        return None
    try:
        os.fstat(0)
    except OSError:
        return None
    zygote = _zygote_for(env, overridden, umask)
    if zygote is None:
        _count("plain")
        return None
    _count("zygote")
    return _call(zygote, {"argv": list(args), "cwd": os.path.abspath(folder), "env": env}, timeout)


def _call(zygote: _Zygote, request: dict, timeout: float | None) -> tuple[int, str, str] | None:
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(zygote.socket_path)
        payload = json.dumps(request).encode() + b"\n"
        sent = socket.send_fds(conn, [payload], [0, out_w, err_w])
        conn.sendall(payload[sent:])
    except OSError:  # the zygote forks only on a whole request: nothing ran
        conn.close()
        for fd in (out_r, err_r):
            os.close(fd)
        return None
    finally:
        os.close(out_w)  # the child's copies are the only writers left: EOF when it is done
        os.close(err_w)
    with conn:
        return _collect(conn, out_r, err_r, request["argv"], timeout)


def _collect(conn: socket.socket, out_r: int, err_r: int, argv: list[str], timeout: float | None) -> tuple[int, str, str] | None:
    """Read both pipes to their end and the child's exit status, as communicate() does."""
    streams = {out_r: bytearray(), err_r: bytearray()}
    control = bytearray()
    pid = status = None
    deadline = None if timeout is None else time.monotonic() + timeout
    killed = False
    with selectors.DefaultSelector() as selector:
        for fd in (out_r, err_r, conn.fileno()):
            selector.register(fd, selectors.EVENT_READ)
        while selector.get_map():
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                if killed or pid is None:
                    killed = True
                    break
                _kill(pid)
                killed, deadline = True, time.monotonic() + 10
                continue
            for key, _events in selector.select(wait):
                chunk = os.read(key.fd, 1 << 16)
                if not chunk:
                    selector.unregister(key.fd)
                elif key.fd == conn.fileno():
                    control += chunk
                else:
                    streams[key.fd] += chunk
            pid, status = _parse(control, pid, status)
            if status is not None and conn.fileno() in selector.get_map():
                selector.unregister(conn.fileno())
    os.close(out_r)
    os.close(err_r)
    if killed:
        raise subprocess.TimeoutExpired([sys.executable, "-m", "spec_debug", *argv], timeout,
                                        output=bytes(streams[out_r]), stderr=bytes(streams[err_r]))
    if status is None:
        if pid is None:
            return None  # the zygote refused the call before forking: nothing ran
        raise RuntimeError(f"the CLI zygote went away while running spec-debug {' '.join(argv)} (see its log)")
    return status, _text(streams[out_r]), _text(streams[err_r])


def _parse(control: bytearray, pid: int | None, status: int | None) -> tuple[int | None, int | None]:
    for line in bytes(control).decode().splitlines():
        kind, _, value = line.partition(" ")
        if kind == "pid":
            pid = int(value)
        elif kind == "exit":
            status = int(value)
    return pid, status


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)  # subprocess.run's timeout kills the child the same way
    except ProcessLookupError:
        pass


def _text(data: bytearray) -> str:
    """subprocess's text=True: the locale's encoding (UTF-8 in UTF-8 mode), strict, and
    universal newlines."""
    encoding = "utf-8" if sys.flags.utf8_mode else locale.getpreferredencoding(False)
    return bytes(data).decode(encoding).replace("\r\n", "\n").replace("\r", "\n")
