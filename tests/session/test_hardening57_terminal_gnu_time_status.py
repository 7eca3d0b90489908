"""GNU time's word on how the command it timed ended, in a terminal log with no exit status:
``/usr/bin/time python3 load.py`` prints "Command exited with non-zero status 1" (or "Command
terminated by signal 9") before its resource report (time src/time.c, summarize). Before: the
report's lines ended the output, no status was read and the calls were successes. A timed run
that exited 0 (no such line) stays no failure. The typescript is a bash 5.2.15 session recorded
with util-linux script 2.38.1, GNU time 1.9."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

TIMED = b"".join([
    b'Script started on 2026-12-06 02:15:25+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" '
    b'TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n',
    b"\x1b[?2004hbash-5.2# export PS1='root@gpu01:~# '\r\n",
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# cd /tmp/terminal-scratch/rec\r\n',
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# /usr/bin/time python3 load.py\r\n',
    b'\x1b[?2004l\rloading draft from /ckpt/eagle3\r\n',
    b'Error: could not load draft\r\n',
    b'Command exited with non-zero status 1\r\n',
    b'0.03user 0.00system 0:00.09elapsed 41%CPU (0avgtext+0avgdata 13548maxresident)k\r\n',
    b'0inputs+0outputs (0major+1978minor)pagefaults 0swaps\r\n',
    b'\x1b[?2004hroot@gpu01:~# /usr/bin/time python3 -c \'import os; print("loading", flush=True); '
    b'os.kill(os.getpid(), 9)\'\r\n',
    b'\x1b[?2004l\rloading\r\n',
    b'Command terminated by signal 9\r\n',
    b'0.02user 0.01system 0:00.14elapsed 24%CPU (0avgtext+0avgdata 13540maxresident)k\r\n',
    b'0inputs+0outputs (0major+1967minor)pagefaults 0swaps\r\n',
    b'\x1b[?2004hroot@gpu01:~# /usr/bin/time python3 goon.py\r\n',
    b'\x1b[?2004l\rError: first load attempt failed, retrying\r\n',
    b'loaded draft in 2.1 s\r\n',
    b'0.02user 0.01system 0:00.12elapsed 29%CPU (0avgtext+0avgdata 13556maxresident)k\r\n',
    b'0inputs+0outputs (0major+1977minor)pagefaults 0swaps\r\n',
    b'\x1b[?2004hroot@gpu01:~# echo end\r\n',
    b'\x1b[?2004l\rend\r\n',
    b'\x1b[?2004hroot@gpu01:~# exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 02:15:30+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def _analyzed(tmp_path: Path) -> dict:
    path = tmp_path / "typescript"
    path.write_bytes(TIMED)
    return analyze_path(path).to_json()


def test_gnu_time_status_line_is_the_commands_status(tmp_path: Path) -> None:
    doc = _analyzed(tmp_path)
    got = [(c["command"].split()[2], c["is_error"], c["exit_code"]) for c in doc["commands"]
           if c["command"].startswith("/usr/bin/time")]
    assert got == [("load.py", True, 1), ("-c", True, 137), ("goon.py", False, None)]


def test_its_errors_are_what_the_command_said(tmp_path: Path) -> None:
    doc = _analyzed(tmp_path)
    assert [(e["kind"], e["exception"], e["message"]) for e in doc["errors"]] == [
        ("exit_code", None, "Error: could not load draft"),
        ("signal", "SIGKILL", "Command terminated by signal 9")]
