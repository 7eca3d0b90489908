"""``python3 load.py && echo loaded`` in a terminal log with no exit status, where the program
ended on ``sys.exit("Error: could not load draft")``: the echo never ran, and the list's status
is the program's 1 (bash(1), Lists). Before: a list of two programs was no failure whatever its
output. A program that went on after its ``Error:`` line (the echo ran), and ``|| echo ...``
(whose status is the echo's), stay no failed call. The typescript is a bash 5.2.15 session
recorded with util-linux script 2.38.1."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

AND_LISTS = b"".join([
    b'Script started on 2026-12-06 02:18:28+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" '
    b'TTY="/dev/pts/3" COLUMNS="-1" LINES="-1"]\n',
    b"\x1b[?2004hbash-5.2# export PS1='root@gpu01:~# '\r\n",
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# cd /tmp/terminal-scratch/rec\r\n',
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# python3 load.py && echo loaded\r\n',
    b'\x1b[?2004l\rloading draft from /ckpt/eagle3\r\n',
    b'Error: could not load draft\r\n',
    b'\x1b[?2004hroot@gpu01:~# python3 goon.py && echo loaded\r\n',
    b'\x1b[?2004l\rError: first load attempt failed, retrying\r\n',
    b'loaded draft in 2.1 s\r\n',
    b'loaded\r\n',
    b"\x1b[?2004hroot@gpu01:~# python3 load.py || echo 'Error: load failed, using the cached draft'\r\n",
    b'\x1b[?2004l\rloading draft from /ckpt/eagle3\r\n',
    b'Error: could not load draft\r\n',
    b'Error: load failed, using the cached draft\r\n',
    b'\x1b[?2004hroot@gpu01:~# echo end\r\n',
    b'\x1b[?2004l\rend\r\n',
    b'\x1b[?2004hroot@gpu01:~# exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 02:18:33+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_an_and_list_stopped_by_the_programs_failure_failed(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(AND_LISTS)
    doc = analyze_path(path).to_json()
    failed = {c["command"]: c["is_error"] for c in doc["commands"] if c["host"] == "gpu01"}
    assert failed["python3 load.py && echo loaded"] is True
    assert failed["python3 goon.py && echo loaded"] is False
    assert failed["python3 load.py || echo 'Error: load failed, using the cached draft'"] is False
    assert [e["message"] for e in doc["errors"]] == ["Error: could not load draft"]
