"""Ctrl-C under ``stty -echoctl``: the tty echoes the key as the raw byte 0x03, not as ``^C``
(termios(3), ECHOCTL), so a typescript holds ``\\x03`` where the person stopped a command. Before:
the stopped ``python3 serve.py`` was a failed call with a KeyboardInterrupt error, the stopped
``sleep 20`` a success, and no stop by hand was counted. The typescript is a bash 5.2.15
session recorded with util-linux script 2.38.1 (``stty -echoctl`` in effect; ``stty -a`` shows
it)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

NO_ECHOCTL = b"".join([
    b'Script started on 2026-12-06 02:05:56+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" '
    b'TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n',
    b"\x1b[?2004hbash-5.2# export PS1='root@gpu01:~# '\r\n",
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# cd /tmp/terminal-scratch/rec\r\n',
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# stty -echoctl; python3 serve.py\r\n',
    b'\x1b[?2004l\rserver up on :30000\r\n',
    b'\x03Traceback (most recent call last):\r\n',
    b'  File "/tmp/terminal-scratch/rec/serve.py", line 3, in <module>\r\n',
    b'    time.sleep(30)\r\n',
    b'KeyboardInterrupt\r\n',
    b'\r\n',
    b'\x1b[?2004hroot@gpu01:~# stty -echoctl; sleep 20\r\n',
    b'\x1b[?2004l\r\x03\r\n',
    b'\x1b[?2004hroot@gpu01:~# stty -a | grep -o .echoctl\r\n',
    b'\x1b[?2004l\r-echoctl\r\n',
    b'\x1b[?2004hroot@gpu01:~# echo end\r\n',
    b'\x1b[?2004l\rend\r\n',
    b'\x1b[?2004hroot@gpu01:~# exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 02:06:08+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_a_raw_ctrl_c_byte_is_a_stop_by_hand_not_a_failure(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(NO_ECHOCTL)
    doc = analyze_path(path).to_json()
    failed = {c["command"]: c["is_error"] for c in doc["commands"] if c["host"] == "gpu01"}
    assert failed["stty -echoctl; python3 serve.py"] is False
    assert failed["stty -echoctl; sleep 20"] is False
    assert doc["stats"]["interrupts"] == 2
    assert not [e for e in doc["errors"] if e["exception"] == "KeyboardInterrupt"]

