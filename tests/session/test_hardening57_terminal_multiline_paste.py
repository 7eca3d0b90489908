"""A multi-line bracketed paste at a bash 5.2 prompt (two or three lines pasted at once): readline
shows the paste highlighted (enable-active-region), moves the cursor up and writes the lines
again, each on a row starting with a carriage return, and turns paste mode off at Enter; bash
runs the lines one after another. Before: only the first line was the command (``echo one``),
the others lost. Now the paste is one command of several lines, its output what follows. The
typescripts are bash 5.2.15 sessions recorded with util-linux script 2.38.1, the paste sent as
``\\e[200~...\\e[201~`` (the type-ahead echo before bash's first prompt left out)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

TWO_LINES = b"".join([
    b'Script started on 2026-12-06 03:18:01+00:00 [COMMAND="bash --norc --noprofile -i" <not executed on terminal>]\n',
    b"\x1b[?2004hbash-5.2# export PS1='ubuntu@gpu-node-7:~/sglang$ '\r\n",
    b'\x1b[?2004l\r\x1b[?2004hubuntu@gpu-node-7:~/sglang$ \x1b[7mecho one\x1b[27m\r\n',
    b'\r\x1b[7mecho two\x1b[27m\x1b[A\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[Cecho one\r\n',
    b'\recho two\r\n',
    b'\x1b[?2004l\rone\r\n',
    b'two\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 03:18:01+00:00 [COMMAND_EXIT_CODE="0"]\n',
])

THREE_LINES_AND_NEWLINE = b"".join([
    b'Script started on 2026-12-06 03:19:01+00:00 [COMMAND="bash --norc --noprofile -i" <not executed on terminal>]\n',
    b"\x1b[?2004hbash-5.2# export PS1='ubuntu@gpu-node-7:~/sglang$ '\r\n",
    b'\x1b[?2004l\r\x1b[?2004hubuntu@gpu-node-7:~/sglang$ \x1b[7mecho one\x1b[27m\r\n',
    b'\r\x1b[7mecho two\x1b[27m\r\n',
    b'\r\x1b[7mecho three\x1b[27m\r\n',
    b'\r\x1b[A\x1b[A\x1b[A\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[Cecho one\r\n',
    b'\recho two\r\n',
    b'\recho three\r\n',
    b'\r\x1b[A\r\n',
    b'\x1b[?2004l\rone\r\n',
    b'two\r\n',
    b'three\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 03:19:01+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def _commands(tmp_path: Path, data: bytes) -> list[str]:
    path = tmp_path / "typescript"
    path.write_bytes(data)
    return [c["command"] for c in analyze_path(path).to_json()["commands"]]


def test_a_two_line_paste_is_one_command_of_both_lines(tmp_path: Path) -> None:
    assert _commands(tmp_path, TWO_LINES)[-2:] == ["echo one\necho two", "exit"]


def test_a_paste_ending_in_a_newline_keeps_every_line(tmp_path: Path) -> None:
    assert _commands(tmp_path, THREE_LINES_AND_NEWLINE)[-2:] == ["echo one\necho two\necho three", "exit"]
