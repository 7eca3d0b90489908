"""A full-screen program at a prompt (``watch``, ``vim``) draws on the terminal's alternate screen
and switches back as it ends (``CSI ? 1049 h``/``l``), with no newline: the next prompt follows on
the same line of a typescript. Read as one line, the program's last redraw was joined to that
prompt, so the command typed there was lost or garbled ("ls /nopetil 97%vm: Sat Dec 5 ..."). The
typescripts are bash 5.2.15 sessions (80x40 pty) recorded with util-linux script 2.38.1, procps
``watch`` stopped with Ctrl-C and vim 9 left with ``:wq``."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

WATCH = (
    b'Script started on 2026-12-05 23:00:30+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xt'
    b'erm" TTY="/dev/pts/0" COLUMNS="80" LINES="40"]\n'
    b"\x1b[?2004hbash-5.2# export PS1='root@gpu01:~# '\r\n"
    b'\x1b[?2004l\r'
    b"\x1b[?2004hroot@gpu01:~# watch -n 0.3 'echo GPU util 97%'\r\n"
    b'\x1b[?2004l\r'
    b'\x1b[?1049h\x1b[22;0;0t\x1b[1;40r\x1b(B\x1b[m\x1b[4l\x1b[?7h\x1b[H\x1b[2JEvery 0.3s: echo GPU util 97%\x1b[1;53Hvm: Sat '
    b'Dec  5 23:00:31 2026\x1b[3;1HGPU util 97%\x1b[40;80H\x1b[1;75H2\x1b[40;80H\x1b[40;1H\x1b[?1049l\x1b[23;0;0t\r'
    b'\x1b[?1l\x1b>\x1b[?2004hroot@gpu01:~# ls /nope\r\n'
    b'\x1b[?2004l\r'
    b"ls: cannot access '/nope': No such file or directory\r\n"
    b'\x1b[?2004hroot@gpu01:~# exit\r\n'
    b'\x1b[?2004l\r'
    b'exit\r\n'
    b'\n'
    b'Script done on 2026-12-05 23:00:34+00:00 [COMMAND_EXIT_CODE="2"]\n')

VIM = (
    b'Script started on 2026-12-05 23:01:36+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xt'
    b'erm" TTY="/dev/pts/0" COLUMNS="80" LINES="40"]\n'
    b"\x1b[?2004hbash-5.2# export PS1='root@gpu01:~# '\r\n"
    b'\x1b[?2004l\r'
    b'\x1b[?2004hroot@gpu01:~# vim -u NONE cfg.yaml\r\n'
    b'\x1b[?2004l\r'
    b'\x1b[?1049h\x1b[22;0;0t\x1b[>4;2m\x1b[?1h\x1b=\x1b[?2004h\x1b[1;40r\x1b[?12h\x1b[?12l\x1b[22;2t\x1b[22;1t\x1b[27m\x1b[23m\x1b[29m\x1b[m'
    b'\x1b[H\x1b[2J\x1b[?25l\x1b[40;1H"cfg.yaml" 1 line, 13 bytes\x1b[1;1Hmodel: llama\r\n'
    b'\x1b[1m\x1b[34m~                                                                               \x1b'
    b'[3;1H~                                                                               \x1b[4;1'
    b'H~                                                                               \x1b[5;1H~  '
    b'                                                                             \x1b[6;1H~      '
    b'                                                                         \x1b[7;1H~          '
    b'                                                                     \x1b[8;1H~              '
    b'                                                                 \x1b[9;1H~                  '
    b'                                                             \x1b[10;1H~                     '
    b'                                                          \x1b[11;1H~                        '
    b'                                                       \x1b[12;1H~                           '
    b'                                                    \x1b[13;1H~                              '
    b'                                                 \x1b[14;1H~                                 '
    b'                                              \x1b[15;1H~                                    '
    b'                                           \x1b[16;1H~                                       '
    b'                                        \x1b[17;1H~                                          '
    b'                                     \x1b[18;1H~                                             '
    b'                                  \x1b[19;1H~                                                '
    b'                               \x1b[20;1H~                                                   '
    b'                            \x1b[21;1H~                                                      '
    b'                         \x1b[22;1H~                                                         '
    b'                      \x1b[23;1H~                                                            '
    b'                   \x1b[24;1H~                                                               '
    b'                \x1b[25;1H~                                                                  '
    b'             \x1b[26;1H~                                                                     '
    b'          \x1b[27;1H~                                                                        '
    b'       \x1b[28;1H~                                                                           '
    b'    \x1b[29;1H~                                                                              '
    b' \x1b[30;1H~                                                                               \x1b['
    b'31;1H~                                                                               \x1b[32;'
    b'1H~                                                                               \x1b[33;1H~'
    b'                                                                               \x1b[34;1H~   '
    b'                                                                            \x1b[35;1H~      '
    b'                                                                         \x1b[36;1H~         '
    b'                                                                      \x1b[37;1H~            '
    b'                                                                   \x1b[38;1H~               '
    b'                                                                \x1b[39;1H~                  '
    b'                                                             \x1b[1;1H\x1b[?25h\x1b[?4m\x1b[?25l\x1b[m\x1b[4'
    b'0;1H\x1b[K\x1b[40;1H:wq\r'
    b'\x1b[?2004l\x1b[>4;m"cfg.yaml" 1 line, 13 bytes written\r'
    b'\x1b[23;2t\x1b[23;1t\r'
    b'\r\n'
    b"\x1b[?2004l\x1b[?1l\x1b>\x1b[?1049l\x1b[23;0;0t\x1b[?25h\x1b[>4;m\x1b[?2004hroot@gpu01:~# python3 -c 'import sys; "
    b'sys.exit("bad")\'; ls /nope\r\n'
    b'\x1b[?2004l\r'
    b'bad\r\n'
    b"ls: cannot access '/nope': No such file or directory\r\n"
    b'\x1b[?2004hroot@gpu01:~# exit\r\n'
    b'\x1b[?2004l\r'
    b'exit\r\n'
    b'\n'
    b'Script done on 2026-12-05 23:01:40+00:00 [COMMAND_EXIT_CODE="2"]\n')


def _commands(tmp_path: Path, data: bytes) -> list[tuple]:
    path = tmp_path / "typescript"
    path.write_bytes(data)
    doc = analyze_path(path).to_json()
    return [(c["command"], c["is_error"]) for c in doc["commands"] if c["host"] == "gpu01"]


def test_the_command_after_a_watch_is_read_whole(tmp_path: Path) -> None:
    assert _commands(tmp_path, WATCH) == [
        ("watch -n 0.3 'echo GPU util 97%'", False), ("ls /nope", True), ("exit", False)]


def test_the_command_after_vim_is_read_whole(tmp_path: Path) -> None:
    assert _commands(tmp_path, VIM) == [
        ("vim -u NONE cfg.yaml", False), ("python3 -c 'import sys; sys.exit(\"bad\")'; ls /nope", True),
        ("exit", False)]
