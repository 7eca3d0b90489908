"""A Python program typed at a prompt that ended on its own failure message, in a terminal log
with no exit status: ``sys.exit("Error: could not load draft")`` (stderr, exit 1) and argparse's
``args.py: error: unrecognized arguments`` (exit 2). Before: both read as successes, no error.
A script that printed an ``Error:`` line and went on, and a pipeline into ``tee`` (tee's status
is the line's), stay no failed call. The typescript is a bash 5.2.15 session recorded with
util-linux script 2.38.1 (load.py: a print, then ``sys.exit("Error: could not load draft")``)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

PYTHON_RUNS = b"".join([
    b'Script started on 2026-12-06 02:08:38+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" '
    b'TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n',
    b"\x1b[?2004hbash-5.2# export PS1='root@gpu01:~# '\r\n",
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# cd /tmp/terminal-scratch/rec\r\n',
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# python3 load.py\r\n',
    b'\x1b[?2004l\rloading draft from /ckpt/eagle3\r\n',
    b'Error: could not load draft\r\n',
    b'\x1b[?2004hroot@gpu01:~# python3 args.py --bogus\r\n',
    b'\x1b[?2004l\rusage: args.py [-h] [--draft DRAFT]\r\n',
    b'args.py: error: unrecognized arguments: --bogus\r\n',
    b'\x1b[?2004hroot@gpu01:~# python3 goon.py\r\n',
    b'\x1b[?2004l\rError: first load attempt failed, retrying\r\n',
    b'loaded draft in 2.1 s\r\n',
    b'\x1b[?2004hroot@gpu01:~# python3 load.py 2>&1 | tee load.log\r\n',
    b'\x1b[?2004l\rloading draft from /ckpt/eagle3\r\n',
    b'Error: could not load draft\r\n',
    b'\x1b[?2004hroot@gpu01:~# echo end\r\n',
    b'\x1b[?2004l\rend\r\n',
    b'\x1b[?2004hroot@gpu01:~# exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 02:08:44+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def _analyzed(tmp_path: Path) -> dict:
    path = tmp_path / "typescript"
    path.write_bytes(PYTHON_RUNS)
    return analyze_path(path).to_json()


def test_a_python_program_ending_on_its_failure_message_failed(tmp_path: Path) -> None:
    doc = _analyzed(tmp_path)
    failed = {c["command"]: c["is_error"] for c in doc["commands"] if c["host"] == "gpu01"}
    assert failed["python3 load.py"] is True
    assert failed["python3 args.py --bogus"] is True
    said = [e["message"] for e in doc["errors"]]
    assert "Error: could not load draft" in said
    assert "args.py: error: unrecognized arguments: --bogus" in said


def test_an_error_line_the_program_went_on_from_is_no_failure(tmp_path: Path) -> None:
    doc = _analyzed(tmp_path)
    failed = {c["command"]: c["is_error"] for c in doc["commands"] if c["host"] == "gpu01"}
    assert failed["python3 goon.py"] is False
    assert failed["python3 load.py 2>&1 | tee load.log"] is False
    assert failed["echo end"] is False
