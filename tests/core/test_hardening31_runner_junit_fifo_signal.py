"""SIGTERM while `run --junit FIFO` waits for the FIFO's reader (a CI step that reads the XML
from a named pipe and was cancelled before it started reading).

The XML was written with a plain open(), which blocks in the kernel until a reader opens the
FIFO. A signal handled while the CLI was not yet inside that open (delivered just before it, the
window round 30's stress run hit once at load ~4, or handled by another thread of the process)
sets Python's flag but interrupts no system call: the handler's SignalInterrupt waited for a
reader that never came, the CLI hung with run.json complete and no "interrupted" line, until
someone kill -9'd it. The wait for the reader is now made of short non-blocking tries, each
followed by Python's signal check.

The test hands the signal to a helper thread (signal.pthread_kill), which is how the race looks
to the main thread: the flag is set, its open() gets no EINTR."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""
    import signal, sys, threading, time
    from pathlib import Path
    from spec_debug.errors import SignalInterrupt
    from spec_debug.record import RunRecord
    from spec_debug.report.junit import write_junit

    def handler(signum, frame):
        raise SignalInterrupt("terminated (SIGTERM)")  # what cli.main installs for SIGTERM
    signal.signal(signal.SIGTERM, handler)

    def in_the_fifo_wait():
        frame = sys._current_frames().get(threading.main_thread().ident)
        while frame is not None:
            if frame.f_code.co_name == "_write_fifo":
                return True
            frame = frame.f_back
        return False

    def signal_from_another_thread():
        # Once the main thread waits for the FIFO's reader (a fixed 0.5 s, on a loaded machine,
        # came while the record was still read: SIGTERM then ended the script with a traceback);
        # a write that never gets there (an open of its own) is signalled after 10 s.
        deadline = time.monotonic() + 10
        while not in_the_fifo_wait() and time.monotonic() < deadline:
            time.sleep(0.01)
        signal.pthread_kill(threading.get_ident(), signal.SIGTERM)
    threading.Thread(target=signal_from_another_thread, daemon=True).start()
    record = RunRecord.model_validate_json(Path(sys.argv[2]).read_text())
    try:
        write_junit(record, Path(sys.argv[1]))
    except KeyboardInterrupt as exc:
        print("stopped:", exc)
        sys.exit(3)
    print("written")
""")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_sigterm_while_the_junit_fifo_has_no_reader_stops_the_write(tmp_path):
    fifo = tmp_path / "junit.xml"
    os.mkfifo(fifo)
    record = tmp_path / "run.json"
    record.write_text(_a_finished_record())
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, str(fifo), str(record)], cwd=REPO_ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    try:
        # Before, the write waited for a reader forever; the timeout is that hang, not a target.
        stdout, stderr = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        _release_the_writer(fifo)
        pytest.fail("SIGTERM went unanswered: the --junit write still waits for the FIFO's reader")
    assert "Traceback" not in stderr, stderr
    assert (proc.returncode, stdout.strip()) == (3, "stopped: terminated (SIGTERM)"), (stdout, stderr)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_reader_on_the_junit_fifo_gets_the_whole_xml(tmp_path):
    from spec_debug.record import RunRecord
    from spec_debug.report.junit import junit_xml, write_junit

    fifo = tmp_path / "junit.xml"
    os.mkfifo(fifo)
    record = RunRecord.model_validate_json(_a_finished_record(output="x" * 300_000))  # more than a pipe holds
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    write_junit(record, fifo)
    reader.join(timeout=60)
    assert got and got[0].decode("utf-8") == junit_xml(record)


def _release_the_writer(fifo) -> None:
    try:
        fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        os.close(fd)
    except OSError:
        pass


def _a_finished_record(output: str = "hi\n") -> str:
    from spec_debug.record import HostRecord, PlaybookRef, RunRecord, StepRecord

    record = RunRecord(run_id="20261203T085258861Z-t-c0356eb2", playbook=PlaybookRef(name="t", path="p.yaml", sha256="0" * 64),
                       started_at="2026-12-03T08:52:58.861Z", finished_at="2026-12-03T08:52:59.001Z",
                       status="passed", hosts=[HostRecord(name="local", status="passed")],
                       steps=[StepRecord(id="a", host="local", status="passed", duration_s=0.01, stdout=output)])
    return record.model_dump_json()
