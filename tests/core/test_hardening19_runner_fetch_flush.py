"""A fetch given up at its step's timeout keeps every byte the host's file gave before it stalled.

The on-call story: the server hung (an NCCL collective that never returns), its log stopped
growing mid-stream, and the fetch of that log ran into the step's `timeout`. The last lines
before the hang are the evidence. The local copy (and the SSH copy where sshd has no SFTP) read
the file through `head -c LIMIT+1`, which writes through stdio: it held the last (up to 4 KiB)
bytes in its buffer until the next read, which never came, and they died with it at the
deadline. A log that trickles a line at a time lost every line: the step kept no copy at all.

The file here is a FIFO whose writer prints a server's last words and then stays silent with
the FIFO open, as a hung writer does (a stalled log on a FUSE mount behaves the same).
"""

from __future__ import annotations

import fcntl
import os
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Iterator

import pytest

from tests.conftest import only_run

LAST_WORDS = (
    "[2026-11-30 19:02:11 TP0] Decode batch. #running-req: 12, #token: 48211, token usage: 0.31, accept len: 1.02\n"
    "[2026-11-30 19:02:12 TP3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=88213, OpType=ALLREDUCE)\n"
    "[rank3]:[E1130 19:02:12.441 ProcessGroupNCCL.cpp:616] Some NCCL operations have failed or timed out.\n"
)


@pytest.fixture
def stalled_log(tmp_path: Path) -> Iterator[Path]:
    """A log whose writer printed LAST_WORDS and hangs, keeping it open."""
    fifo = tmp_path / "server.log"
    os.mkfifo(fifo)
    end = os.open(fifo, os.O_RDWR)  # opens at once: no reader needed yet
    # Sleeps far longer than any run here: its end would close the FIFO and the copy would end.
    writer = subprocess.Popen(["sh", "-c", 'printf %s "$1"; exec sleep 600', "sh", LAST_WORDS], stdout=end)
    try:
        # The last words are in the FIFO before the run starts: a writer the load kept from
        # running until the step's 2 s ran out would leave nothing to keep, for no fault.
        wait_buffered(end, len(LAST_WORDS.encode()))
    except BaseException:
        writer.kill()  # it never ends by itself
        writer.wait()
        raise
    finally:
        os.close(end)
    yield fifo
    writer.kill()
    writer.wait()


def wait_buffered(fd: int, size: int) -> None:
    """Wait until the pipe or FIFO fd holds at least size unread bytes (FIONREAD reads none)."""
    deadline = time.monotonic() + 60
    while struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0] < size:
        assert time.monotonic() < deadline, "the writer never wrote"
        time.sleep(0.01)


def test_a_local_fetch_given_up_at_its_timeout_keeps_the_lines_written_before_the_stall(tmp_path: Path, stalled_log: Path) -> None:
    playbook = tmp_path / "grab.yaml"
    playbook.write_text(
        f"name: grab\nsteps:\n  - id: grab\n    timeout: 2\n    fetch: {{src: '{stalled_log}', dest: logs}}\n"
        "  - id: after\n    run: echo next step ran\n"
    )
    out = tmp_path / "runs"
    # The writer never ends: a copy that waited for its end is killed by this timeout and fails.
    proc = subprocess.run(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    run_dir, record = only_run(out)
    grab, after = record["steps"]
    assert grab["status"] == "timeout" and after["status"] == "passed", grab["message"]
    given_up = grab["facts"]["fetch_given_up"]
    assert given_up["bytes_kept"] == len(LAST_WORDS.encode()), grab["message"]
    assert grab["artifacts"] == ["artifacts/local/logs/server.log"]
    kept = (run_dir / "artifacts/local/logs/server.log").read_text()
    assert kept.startswith(LAST_WORDS)
    assert kept[len(LAST_WORDS):].startswith("\n... [spec-debug: copy given up here: the fetch step's timeout of 2 s ran out;")
