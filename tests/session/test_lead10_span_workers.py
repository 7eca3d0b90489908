"""The worker processes that read a large session: results in order, failures said, and no
process left behind however the reading ends."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from pathlib import Path

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.session.span_workers import WorkerFailed, ordered_results

pytestmark = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                                reason="the worker processes are forked")


def _square(n: int) -> tuple[int, int]:
    return n, n * n


def _fails_on_three(n: int) -> int:
    if n == 3:
        raise ValueError("span 3 is broken")
    return n


def _refuses_three(n: int) -> int:
    if n == 3:
        raise PlaybookError("span 3 is bad input", path="x.yaml", line=3, column=7, hint="fix line 3")
    return n


def _dies_on_three(n: int) -> int:
    if n == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return n


def _big(n: int) -> bytes:
    return bytes(4 * 1024 * 1024)  # several pipe buffers: a worker blocks writing it


def _gone(pids: list[int]) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        alive = [pid for pid in pids if Path(f"/proc/{pid}").exists()
                 and Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"]
        if not alive:
            return True
        time.sleep(0.01)
    return False


def _children() -> list[int]:
    return [int(c) for task in Path(f"/proc/{os.getpid()}/task").iterdir()
            for c in (task / "children").read_text().split()]


@pytest.mark.parametrize("count", [1, 2, 3])
def test_results_come_in_task_order(count):
    before = set(_children())  # other tests' servers (sshd) are children of this process too
    assert list(ordered_results(_square, ((n,) for n in range(11)), count, "fork")) == [(n, n * n) for n in range(11)]
    assert _gone(list(set(_children()) - before))


def test_a_worker_exception_is_one_clear_error():
    before = set(_children())
    with pytest.raises(WorkerFailed, match="failed: ValueError: span 3 is broken"):
        list(ordered_results(_fails_on_three, ((n,) for n in range(8)), 2, "fork"))
    assert _gone(list(set(_children()) - before))


def test_bad_input_found_in_a_worker_is_raised_as_itself():
    before = set(_children())
    with pytest.raises(PlaybookError) as info:
        list(ordered_results(_refuses_three, ((n,) for n in range(8)), 2, "fork"))
    here = PlaybookError("span 3 is bad input", path="x.yaml", line=3, column=7, hint="fix line 3")
    error = info.value
    assert (str(error), error.hint, error.exit_code, error.line, error.column) == \
        (str(here), "fix line 3", here.exit_code, 3, 7)
    assert _gone(list(set(_children()) - before))


def test_a_killed_worker_is_said_not_waited_for():
    before = set(_children())
    with pytest.raises(WorkerFailed, match="died: killed by SIGKILL"):
        list(ordered_results(_dies_on_three, ((n,) for n in range(8)), 2, "fork"))
    assert _gone(list(set(_children()) - before))


def test_stopping_early_kills_workers_blocked_on_a_large_result():
    # What Ctrl-C does in the consumer: the generator is closed while both workers are in the
    # middle of writing 4 MB results (multiprocessing.Pool.terminate could hang here).
    before = set(_children())
    results = ordered_results(_big, ((n,) for n in range(10)), 2, "fork")
    assert len(next(results)) == 4 * 1024 * 1024
    workers = list(set(_children()) - before)
    assert len(workers) == 2
    time.sleep(0.2)  # both are now blocked writing
    results.close()
    assert _gone(workers)
