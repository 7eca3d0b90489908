"""Worker processes for :mod:`spec_debug.session.parallel`, each on a pipe of its own.

Not ``multiprocessing.Pool``: on Ctrl-C its ``terminate()`` kills the workers and then joins
the thread that reads their results, and a worker killed while it was writing a result (a
span's result is ~800 KB, several pipe buffers) leaves that thread waiting for the rest of a
message that never comes. The analysis hung on 1 interrupt in 7 (40 MB session, measured).
Here the parent reads every result itself, in the main thread, from the pipe of the worker
that computes it; stopping is killing the workers and closing the pipes, and nothing waits on
a half-written message.

Span ``k`` goes to worker ``k % count`` and each worker answers its spans in order, so the
parent reads results in file order from the pipes in turn. A worker holds at most
:data:`IN_FLIGHT` spans (its result waits in the pipe until the parent reads it), so memory
stays bounded.
"""

from __future__ import annotations

import multiprocessing
import signal
import traceback
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import Any

from spec_debug.errors import SpecDebugError

IN_FLIGHT = 2
"""Spans sent to a worker ahead of the one the parent waits for."""


class WorkerFailed(SpecDebugError):
    """A worker process raised, or died (killed by the out-of-memory killer, for example)."""


def ordered_results(func: Callable[..., Any], tasks: Iterable[tuple], count: int, method: str) -> Iterator[Any]:
    """``func(*task)`` for each task, computed in ``count`` worker processes started with
    ``method`` (fork or forkserver), yielded in task order. Closing the iterator (or an
    exception in the consumer, Ctrl-C included) kills the workers."""
    context = multiprocessing.get_context(method)
    workers: list[tuple[Any, Connection]] = []
    try:
        with _signals_held():
            for _ in range(count):
                here, there = context.Pipe()
                process = context.Process(target=_serve, args=(there, func), daemon=True)
                workers.append((process, here))
                process.start()
                there.close()  # the child's end: only the child holds it, so its death is EOF here
        queue = iter(tasks)
        sent = 0

        def send_next() -> bool:
            nonlocal sent
            task = next(queue, None)
            if task is None:
                return False
            try:
                workers[sent % count][1].send(task)
            except OSError:  # the worker died (BrokenPipeError): reading its result says how
                pass
            sent += 1
            return True

        while sent < count * IN_FLIGHT and send_next():
            pass
        done = 0
        while done < sent:
            process, conn = workers[done % count]
            yield _result(process, conn)
            done += 1
            send_next()
        for _, conn in workers:
            try:
                conn.send(None)  # done: the worker returns
            except OSError:  # it is gone already; every result was read
                pass
        for process, _ in workers:
            process.join()
    finally:
        started = [(process, conn) for process, conn in workers if process.pid is not None]
        for process, conn in started:
            if process.is_alive():
                process.kill()
        for process, conn in workers:
            conn.close()
        for process, _ in started:
            process.join()


_STOPPING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP wait until every worker is started and known: one that came
    between a fork and the parent learning the child's pid left a worker nobody killed, which
    kept the caller's stdout open after the command had exited (1 Ctrl-C in ~20). A forked
    child starts with them blocked too, and unblocks them once it ignores Ctrl-C."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _result(process: Any, conn: Connection) -> Any:
    try:
        ok, value = conn.recv()
    except (EOFError, OSError):
        process.join(5)
        code = process.exitcode
        how = "killed by SIGKILL (the out-of-memory killer, or kill -9)" if code == -signal.SIGKILL else \
            f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        raise WorkerFailed(f"a worker process reading the session died: {how}",
                           hint="run again; a session this large needs about 50 MB of memory per worker") from None
    if ok is None:
        raise value
    if not ok:
        raise WorkerFailed(f"a worker process reading the session failed: {value}")
    return value


def _serve(conn: Connection, func: Callable[..., Any]) -> None:
    """A worker: tasks in, ``(True, result)`` or ``(False, traceback text)`` out, until None."""
    # Ctrl-C is the parent's to handle (it kills the workers). A forked worker also inherits
    # the CLI's SIGTERM and SIGHUP handlers, which raise so that a run writes its record:
    # here those signals only end the process, without a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPPING)  # held by the parent while it forked
    while True:
        try:
            task = conn.recv()
        except EOFError:  # the parent is gone
            return
        if task is None:
            return
        try:
            reply: tuple = (True, func(*task))
        except SpecDebugError as exc:  # bad input: the parent raises it as it would have itself
            reply = (None, exc)
        except Exception as exc:  # a bug: sent to the parent, which raises it as one clear error
            reply = (False, f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=-3)}")
        conn.send(reply)
