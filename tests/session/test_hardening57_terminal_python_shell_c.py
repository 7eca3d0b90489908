"""A Python program run as a shell's ``-c`` script (``ssh gpu02 "bash -lc 'cd /w && python3
load.py'"``, a login shell for conda's PATH; ``bash -c 'python3 args.py --bogus'``) that ended on
its own failure message, in a terminal log with no exit status: bash -c's status is its script's
(bash(1), -c). Before: the program read was ``bash``, and the calls were successes. A program
that went on after its ``Error:`` line stays no failure. The typescript is a bash 5.2.15 session
recorded with util-linux script 2.38.1; gpu02 is an ssh_config alias of a real OpenSSH server on
loopback (tests/sshd_fixture.py)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

SHELL_C = b"".join([
    b'Script started on 2026-12-06 02:27:14+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" '
    b'TTY="/dev/pts/3" COLUMNS="-1" LINES="-1"]\n',
    b"\x1b[?2004hbash-5.2# export PS1='root@gpu01:~# '\r\n",
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# cd /tmp/terminal-scratch/rec\r\n',
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# ssh -F cfg gpu02 "bash -lc \'cd /tmp/terminal-scratch/rec && '
    b'python3 load.py\'"\r\n',
    b'\x1b[?2004l\rloading draft from /ckpt/eagle3\r\n',
    b'Error: could not load draft\r\n',
    b"\x1b[?2004hroot@gpu01:~# bash -c 'python3 args.py --bogus'\r\n",
    b'\x1b[?2004l\rusage: args.py [-h] [--draft DRAFT]\r\n',
    b'args.py: error: unrecognized arguments: --bogus\r\n',
    b'\x1b[?2004hroot@gpu01:~# ssh -F cfg gpu02 "bash -lc \'cd /tmp/terminal-scratch/rec && python3 goon.py\'"\r\n',
    b'\x1b[?2004l\rError: first load attempt failed, retrying\r\n',
    b'loaded draft in 2.1 s\r\n',
    b'\x1b[?2004hroot@gpu01:~# echo end\r\n',
    b'\x1b[?2004l\rend\r\n',
    b'\x1b[?2004hroot@gpu01:~# exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 02:27:23+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_a_python_failure_under_bash_c_fails_the_call(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(SHELL_C)
    doc = analyze_path(path).to_json()
    got = [(c["host"], c["is_error"]) for c in doc["commands"] if c["host"] and "bash -" in c["command"]]
    assert got == [("gpu02", True), ("gpu01", True), ("gpu02", False)]
    assert [(e["host"], e["message"]) for e in doc["errors"]] == [
        ("gpu02", "Error: could not load draft"), ("gpu01", "args.py: error: unrecognized arguments: --bogus")]
