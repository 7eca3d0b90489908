"""Ctrl-C or SIGTERM while worker processes read a large session: one line, no tracebacks,
no processes left behind.

Forked workers inherited the CLI's SIGTERM handler (it raises, so that `run` writes its
record), so `pool.terminate()` made each worker print a 15-line traceback, and the command
itself said nothing before exit 130."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spec_debug.session import parallel

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(c) for c in text]
    return found


@pytest.fixture(scope="module")
def big_session(tmp_path_factory) -> Path:
    sys.path.insert(0, str(BENCH))
    from analyze_throughput import generate

    path = tmp_path_factory.mktemp("big") / "session.jsonl"
    generate(path, 2.5 * parallel.PARALLEL_MIN_BYTES / 2**20)
    return path


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are used on Linux only")
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_stopping_an_analysis_read_by_workers(big_session, tmp_path, how):
    out = tmp_path / "analysis.json"
    proc = subprocess.Popen([sys.executable, "-m", "spec_debug", "analyze", str(big_session), "--json", "-o", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while not workers and proc.poll() is None and time.monotonic() < deadline:
        workers = _children(proc.pid)
        time.sleep(0.005)
    assert workers, "the analysis ended before its workers were seen"
    if how == "ctrl-c":
        os.killpg(proc.pid, signal.SIGINT)  # a terminal sends it to the whole foreground group
    else:
        proc.send_signal(signal.SIGTERM)  # a CI runner cancelling the command
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    reason = "Ctrl-C" if how == "ctrl-c" else "terminated (SIGTERM)"
    assert err == f"stopped: {reason}; nothing written\n"
    assert not out.exists()
    for pid in workers:
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]
