"""A line given up with Ctrl-C at the prompt under ``stty -echoctl``: readline echoes no ``^C``,
only its bracketed-paste off/on/off with no newline after the typed text. Before: ``rm -rf
/models/eagle3`` given up so was a command that ran, and a heredoc given up at its ``>`` line a
``cat <<EOF`` that ran. The typescript is a bash 5.2.15 session recorded with util-linux script
2.38.1 (its ``tail -f`` stopped after the Enter shows the raw 0x03 byte echoed instead)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

NO_ECHOCTL = b"".join([
    b'Script started on 2026-12-06 02:06:50+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" '
    b'TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n',
    b"\x1b[?2004hbash-5.2# export PS1='root@gpu01:~# '\r\n",
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# stty -echoctl\r\n',
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# rm -rf /models/eagle3\x1b[?2004l\r\x1b[?2004h\x1b[?2004l\r\r\n',
    b'\x1b[?2004hroot@gpu01:~# echo next\r\n',
    b'\x1b[?2004l\rnext\r\n',
    b'\x1b[?2004hroot@gpu01:~# cat <<EOF\r\n',
    b'\x1b[?2004l\r\x1b[?2004h> line one\r\n',
    b'\x1b[?2004l\r\x1b[?2004h> \x1b[?2004l\r\x1b[?2004h\x1b[?2004l\r\r\n',
    b'\x1b[?2004hroot@gpu01:~# tail -f /dev/null\r\n',
    b'\x1b[?2004l\r\x03\r\n',
    b'\x1b[?2004hroot@gpu01:~# echo end\r\n',
    b'\x1b[?2004l\rend\r\n',
    b'\x1b[?2004hroot@gpu01:~# exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 02:06:59+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_a_line_given_up_without_an_echoed_key_ran_nothing(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(NO_ECHOCTL)
    doc = analyze_path(path).to_json()
    ran = [c["command"] for c in doc["commands"] if c["host"] == "gpu01"]
    assert ran == ["stty -echoctl", "echo next", "tail -f /dev/null", "echo end", "exit"]
    assert doc["stats"]["interrupts"] == 1
