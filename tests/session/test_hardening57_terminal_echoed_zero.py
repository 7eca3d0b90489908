"""``echo $?`` typed after a command the output alone read as failed: a 0 says it succeeded
(bash(1), Special Parameters, ``?``). Before: ``python3 warn.py``, whose last line is an
``Error: ... continuing without it`` it went on from, stayed a failed call with exit code 0. A
1 after ``python3 load.py`` (``sys.exit("Error: could not load draft")``) keeps it failed. The
typescript is a bash 5.2.15 session recorded with util-linux script 2.38.1."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

ECHOED = b"".join([
    b'Script started on 2026-12-06 02:29:19+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" '
    b'TTY="/dev/pts/3" COLUMNS="-1" LINES="-1"]\n',
    b"\x1b[?2004hbash-5.2# export PS1='root@gpu01:~# '\r\n",
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# cd /tmp/terminal-scratch/rec\r\n',
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# python3 warn.py\r\n',
    b'\x1b[?2004l\rloading draft from /ckpt/eagle3\r\n',
    b'Error: optional cache dir /cache missing, continuing without it\r\n',
    b'\x1b[?2004hroot@gpu01:~# echo $?\r\n',
    b'\x1b[?2004l\r0\r\n',
    b'\x1b[?2004hroot@gpu01:~# python3 load.py\r\n',
    b'\x1b[?2004l\rloading draft from /ckpt/eagle3\r\n',
    b'Error: could not load draft\r\n',
    b'\x1b[?2004hroot@gpu01:~# echo $?\r\n',
    b'\x1b[?2004l\r1\r\n',
    b'\x1b[?2004hroot@gpu01:~# echo end\r\n',
    b'\x1b[?2004l\rend\r\n',
    b'\x1b[?2004hroot@gpu01:~# exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 02:29:24+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_an_echoed_zero_status_undoes_a_failure_read_from_the_text(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(ECHOED)
    doc = analyze_path(path).to_json()
    got = {c["command"]: (c["is_error"], c["exit_code"]) for c in doc["commands"] if c["command"].startswith("python3")}
    assert got == {"python3 warn.py": (False, 0), "python3 load.py": (True, 1)}
    assert doc["agents"][0]["failed_calls"] == 1
