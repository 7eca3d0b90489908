"""A server log read with ``tail`` in a terminal log (no exit status) that holds uvicorn's
"address already in use": the error is the server's, which the log holds, as its traceback or
CUDA OOM would be (those already left the reading unfailed), but the port-taken error is of the
connection kind, which a log reader's own failure has, so the ``tail`` was a failed call. The
recording is bash 5.2 under util-linux ``script -q`` (CRLF rows, its start and done lines)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

# uvicorn's line: encode/uvicorn uvicorn/server.py (startup, the bind's OSError logged)
_TYPESCRIPT = (
    'Script started on 2026-12-05 20:59:11+00:00 [TERM="xterm-256color" TTY="/dev/pts/3" '
    'COLUMNS="120" LINES="40"]\r\n'
    "eng@box:~/r1$ tail -n 3 server.log\r\n"
    "INFO:     Application startup complete.\r\n"
    "ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 30000): "
    "address already in use\r\n"
    "INFO:     Application shutdown complete.\r\n"
    "eng@box:~/r1$ ssh gpu01 tail -n 3 server.log\r\n"
    "ssh: connect to host gpu01 port 22: Connection refused\r\n"
    "eng@box:~/r1$ exit\r\n"
    "\r\n"
    'Script done on 2026-12-05 20:59:20+00:00 [COMMAND_EXIT_CODE="0"]\r\n')


def test_a_port_taken_line_read_from_a_log_leaves_the_reading_unfailed(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(_TYPESCRIPT.encode())
    a = analyze_path(path)
    assert [(c.command, c.host, c.exit_code, c.is_error) for c in a.commands] == [
        ("tail -n 3 server.log", "box", None, False),
        # ssh's own refusal on the way to the log is the reading's failure
        ("ssh gpu01 tail -n 3 server.log", "gpu01", None, True),
        ("exit", "box", None, False)]
    # both stay the session's errors
    assert [(e.kind, e.host) for e in a.errors] == [("connection", "box"), ("connection", "gpu01")]
    assert "address already in use" in a.errors[0].message
    assert a.agents[0]["failed_calls"] == 1
