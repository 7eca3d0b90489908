"""powerlevel9k's default prompt: powerline segments (the context ``root@vm``, the whole folder,
git's branch), each ended by the powerline arrow (U+E0B0; ``⮀`` in its ``compatible`` mode), then
the command; and a right prompt (status, root, history number, clock) drawn by moving right, an
erase to the row's end within it, then moving back. Before: no such row was a prompt, so every
command of the session was lost and its output the ``zsh -i`` launch's. Now each is a command with
its host and folder. The typescripts are zsh 5.9 sessions with zsh-theme-powerlevel9k 0.6.7
(Debian) sourced from ``.zshrc``, recorded with util-linux script 2.38.1 in an 80-column pty, the
keys typed through the pty."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

POWERLINE_FONT = (
    b'Script started on 2026-12-06 08:21:19+00:00 [COMMAND="env TERM=xterm-256color ZDOTDIR=/tmp/term-'
    b'scratch/zd zsh -i" TERM="xterm" TTY="/dev/pts/0" COLUMNS="80" LINES="24"]\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m'
    b'                                                                               \r \r\r\x1b[0m\x1b[27m\x1b[24'
    b'm\x1b[J\x1b[39m\x1b[0m\x1b[49m\x1b[40m \x1b[33mroot@vm \x1b[44m\x1b[30m\xee\x82\xb0 \x1b[30m/tmp/term-scratch/rec \x1b[49m\x1b[34m\xee\x82\xb0\x1b[39m'
    b' \x1b[K\x1b[21C\x1b[39m\x1b[0m\x1b[49m\x1b[30m\xee\x82\xb2\x1b[39m\x1b[40m\x1b[32m \x1b[32m\xe2\x9c\x94 \x1b[39m\x1b[33m\xee\x82\xb3\x1b[39m\x1b[40m\x1b[33m \x1b[33m\xe2\x9a\xa1 \x1b['
    b'39m\x1b[38;5;244m\xee\x82\xb2\x1b[39m\x1b[48;5;244m\x1b[30m 1 \x1b[39m\x1b[37m\xee\x82\xb2\x1b[39m\x1b[47m\x1b[30m 08:21:19\x1b[K\x1b[00m\x1b[39m\x1b[49m'
    b'\x1b[44D\x1b[?1h\x1b=\x1b[?2004hc\x08cd sglang\x1b[?1l\x1b>\x1b[?2004l\r\r\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                         '
    b'                                                      \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[J\x1b[39m\x1b[0m\x1b[49m\x1b[40m \x1b'
    b'[33mroot@vm \x1b[44m\x1b[30m\xee\x82\xb0 \x1b[30m/tmp/term-scratch/rec/sglang \x1b[42m\x1b[34m\xee\x82\xb0 \x1b[30m\xee\x82\xa0 main ? \x1b[49m\x1b'
    b'[32m\xee\x82\xb0\x1b[39m \x1b[K\x1b[3C\x1b[39m\x1b[0m\x1b[49m\x1b[30m\xee\x82\xb2\x1b[39m\x1b[40m\x1b[32m \x1b[32m\xe2\x9c\x94 \x1b[39m\x1b[33m\xee\x82\xb3\x1b[39m\x1b[40m\x1b[33m '
    b'\x1b[33m\xe2\x9a\xa1 \x1b[39m\x1b[38;5;244m\xee\x82\xb2\x1b[39m\x1b[48;5;244m\x1b[30m 2 \x1b[39m\x1b[37m\xee\x82\xb2\x1b[39m\x1b[47m\x1b[30m 08:21:21\x1b[K\x1b[00'
    b'm\x1b[39m\x1b[49m\x1b[26D\x1b[?1h\x1b=\x1b[?2004hp\x08pyt\x1b[Khon3 load.py --draft /ck \r\x1b[Kp\rpt/eagle3\x1b[?1l\x1b>\x1b[?2004l\r\r'
    b'\nloading draft\r\nError: could not load draft\r\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                             '
    b'                                                  \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[J\x1b[39m\x1b[0m\x1b[49m\x1b[40m \x1b[33m'
    b'root@vm \x1b[44m\x1b[30m\xee\x82\xb0 \x1b[30m/tmp/term-scratch/rec/sglang \x1b[42m\x1b[34m\xee\x82\xb0 \x1b[30m\xee\x82\xa0 main ? \x1b[49m\x1b[32m'
    b'\xee\x82\xb0\x1b[39m \x1b[K\x1b[1C\x1b[39m\x1b[0m\x1b[49m\x1b[31m\xee\x82\xb2\x1b[39m\x1b[41m\x1b[38;5;226m 1\x1b[38;5;226m \xe2\x86\xb5 \x1b[39m\x1b[30m\xee\x82\xb2\x1b[39m\x1b'
    b'[40m\x1b[33m \x1b[33m\xe2\x9a\xa1 \x1b[39m\x1b[38;5;244m\xee\x82\xb2\x1b[39m\x1b[48;5;244m\x1b[30m 3 \x1b[39m\x1b[37m\xee\x82\xb2\x1b[39m\x1b[47m\x1b[30m 08:21'
    b':22\x1b[K\x1b[00m\x1b[39m\x1b[49m\x1b[26D\x1b[?1h\x1b=\x1b[?2004hh\x1b[K\x08hostname\x1b[?1l\x1b>\x1b[?2004l\r\r\nvm\r\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b['
    b'0m                                                                               \r \r\r\x1b[0m\x1b[27m\x1b['
    b'24m\x1b[J\x1b[39m\x1b[0m\x1b[49m\x1b[40m \x1b[33mroot@vm \x1b[44m\x1b[30m\xee\x82\xb0 \x1b[30m/tmp/term-scratch/rec/sglang \x1b[42m\x1b[34'
    b'm\xee\x82\xb0 \x1b[30m\xee\x82\xa0 main ? \x1b[49m\x1b[32m\xee\x82\xb0\x1b[39m \x1b[K\x1b[3C\x1b[39m\x1b[0m\x1b[49m\x1b[30m\xee\x82\xb2\x1b[39m\x1b[40m\x1b[32m \x1b[32m\xe2\x9c\x94 \x1b['
    b'39m\x1b[33m\xee\x82\xb3\x1b[39m\x1b[40m\x1b[33m \x1b[33m\xe2\x9a\xa1 \x1b[39m\x1b[38;5;244m\xee\x82\xb2\x1b[39m\x1b[48;5;244m\x1b[30m 4 \x1b[39m\x1b[37m\xee\x82\xb2\x1b[39'
    b'm\x1b[47m\x1b[30m 08:21:23\x1b[K\x1b[00m\x1b[39m\x1b[49m\x1b[26D\x1b[?1h\x1b=\x1b[?2004he\x08exi\x1b[Kt\x1b[?1l\x1b>\x1b[?2004l\r\r\n\nScript don'
    b'e on 2026-12-06 08:21:23+00:00 [COMMAND_EXIT_CODE="0"]\n'
)
"""``TERM=xterm-256color``, the powerline font's arrows, in a git repository."""

COMPATIBLE_MODE = (
    b'Script started on 2026-12-06 08:20:31+00:00 [COMMAND="env ZDOTDIR=/tmp/term-scratch/zd zsh -i" T'
    b'ERM="xterm" TTY="/dev/pts/0" COLUMNS="80" LINES="24"]\n\x1b[31mWARNING!\x1b[39m Your terminal appears t'
    b'o support fewer than 256 colors!\r\nIf your terminal supports 256 colors, please export the approp'
    b'riate environment variable\r\n_before_ loading this theme in your ~/.zshrc. In most terminal emula'
    b'tors, putting\r\n\x1b[34mexport TERM="xterm-256color"\x1b[39m at the top of your ~/.zshrc is sufficient.'
    b'\r\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                        '
    b'       \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[J\x1b[39m\x1b[0m\x1b[49m\x1b[40m \x1b[33mroot@vm \x1b[44m\x1b[30m\xe2\xae\x80 \x1b[30m/tmp/term-scratc'
    b'h/rec \x1b[49m\x1b[34m\xe2\xae\x80\x1b[39m \x1b[K\x1b[21C\x1b[39m\x1b[0m\x1b[49m\x1b[30m\xe2\xae\x82\x1b[39m\x1b[40m\x1b[32m \x1b[32m\xe2\x9c\x94 \x1b[39m\x1b[33m\xee\x82\xb3\x1b[3'
    b'9m\x1b[40m\x1b[33m \x1b[33m\xe2\x9a\xa1 \x1b[39m\x1b[39m\xe2\xae\x82\x1b[39m\x1b[49m\x1b[30m 1 \x1b[39m\x1b[37m\xe2\xae\x82\x1b[39m\x1b[47m\x1b[30m 08:20:32\x1b[K\x1b[0'
    b'0m\x1b[39m\x1b[49m\x1b[44D\x1b[?1h\x1b=\x1b[?2004hp\x08python3 load.py\x1b[?1l\x1b>\x1b[?2004l\r\r\nloading draft\r\nError: could n'
    b'ot load draft\r\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                           '
    b'                    \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[J\x1b[39m\x1b[0m\x1b[49m\x1b[40m \x1b[33mroot@vm \x1b[44m\x1b[30m\xe2\xae\x80 \x1b[30m/tm'
    b'p/term-scratch/rec \x1b[49m\x1b[34m\xe2\xae\x80\x1b[39m \x1b[K\x1b[19C\x1b[39m\x1b[0m\x1b[49m\x1b[31m\xe2\xae\x82\x1b[39m\x1b[41m\x1b[39m 1\x1b[39m \xe2\x86\xb5 \x1b'
    b'[39m\x1b[30m\xe2\xae\x82\x1b[39m\x1b[40m\x1b[33m \x1b[33m\xe2\x9a\xa1 \x1b[39m\x1b[39m\xe2\xae\x82\x1b[39m\x1b[49m\x1b[30m 2 \x1b[39m\x1b[37m\xe2\xae\x82\x1b[39m\x1b[47m\x1b[30m'
    b" 08:20:33\x1b[K\x1b[00m\x1b[39m\x1b[49m\x1b[44D\x1b[?1h\x1b=\x1b[?2004hl\x08ls /nope\x1b[?1l\x1b>\x1b[?2004l\r\r\nls: cannot access '/n"
    b"ope': No such file or directory\r\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                         "
    b'                                      \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[J\x1b[39m\x1b[0m\x1b[49m\x1b[40m \x1b[33mroot@vm \x1b[44'
    b'm\x1b[30m\xe2\xae\x80 \x1b[30m/tmp/term-scratch/rec \x1b[49m\x1b[34m\xe2\xae\x80\x1b[39m \x1b[K\x1b[19C\x1b[39m\x1b[0m\x1b[49m\x1b[31m\xe2\xae\x82\x1b[39m\x1b[41m'
    b'\x1b[39m 2\x1b[39m \xe2\x86\xb5 \x1b[39m\x1b[30m\xe2\xae\x82\x1b[39m\x1b[40m\x1b[33m \x1b[33m\xe2\x9a\xa1 \x1b[39m\x1b[39m\xe2\xae\x82\x1b[39m\x1b[49m\x1b[30m 3 \x1b[39m\x1b[37m'
    b'\xe2\xae\x82\x1b[39m\x1b[47m\x1b[30m 08:20:34\x1b[K\x1b[00m\x1b[39m\x1b[49m\x1b[44D\x1b[?1h\x1b=\x1b[?2004hh\x08hostname\x1b[?1l\x1b>\x1b[?2004l\r\r\nvm\r'
    b'\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                         '
    b'      \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[J\x1b[39m\x1b[0m\x1b[49m\x1b[40m \x1b[33mroot@vm \x1b[44m\x1b[30m\xe2\xae\x80 \x1b[30m/tmp/term-scratch'
    b'/rec \x1b[49m\x1b[34m\xe2\xae\x80\x1b[39m \x1b[K\x1b[21C\x1b[39m\x1b[0m\x1b[49m\x1b[30m\xe2\xae\x82\x1b[39m\x1b[40m\x1b[32m \x1b[32m\xe2\x9c\x94 \x1b[39m\x1b[33m\xee\x82\xb3\x1b[39'
    b'm\x1b[40m\x1b[33m \x1b[33m\xe2\x9a\xa1 \x1b[39m\x1b[39m\xe2\xae\x82\x1b[39m\x1b[49m\x1b[30m 4 \x1b[39m\x1b[37m\xe2\xae\x82\x1b[39m\x1b[47m\x1b[30m 08:20:35\x1b[K\x1b[00'
    b'm\x1b[39m\x1b[49m\x1b[44D\x1b[?1h\x1b=\x1b[?2004hc\x08cd sub\x1b[?1l\x1b>\x1b[?2004l\r\r\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                 '
    b'                                                              \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[J\x1b[39m\x1b[0m\x1b[49'
    b'm\x1b[40m \x1b[33mroot@vm \x1b[44m\x1b[30m\xe2\xae\x80 \x1b[30m/tmp/term-scratch/rec/sub \x1b[49m\x1b[34m\xe2\xae\x80\x1b[39m \x1b[K\x1b[17C\x1b[39'
    b'm\x1b[0m\x1b[49m\x1b[30m\xe2\xae\x82\x1b[39m\x1b[40m\x1b[32m \x1b[32m\xe2\x9c\x94 \x1b[39m\x1b[33m\xee\x82\xb3\x1b[39m\x1b[40m\x1b[33m \x1b[33m\xe2\x9a\xa1 \x1b[39m\x1b[39m\xe2\xae\x82\x1b['
    b'39m\x1b[49m\x1b[30m 5 \x1b[39m\x1b[37m\xe2\xae\x82\x1b[39m\x1b[47m\x1b[30m 08:20:36\x1b[K\x1b[00m\x1b[39m\x1b[49m\x1b[40D\x1b[?1h\x1b=\x1b[?2004hf\x08fal'
    b'se\x1b[?1l\x1b>\x1b[?2004l\r\r\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                      '
    b'                         \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[J\x1b[39m\x1b[0m\x1b[49m\x1b[40m \x1b[33mroot@vm \x1b[44m\x1b[30m\xe2\xae\x80 \x1b[3'
    b'0m/tmp/term-scratch/rec/sub \x1b[49m\x1b[34m\xe2\xae\x80\x1b[39m \x1b[K\x1b[15C\x1b[39m\x1b[0m\x1b[49m\x1b[31m\xe2\xae\x82\x1b[39m\x1b[41m\x1b[39m 1\x1b['
    b'39m \xe2\x86\xb5 \x1b[39m\x1b[30m\xe2\xae\x82\x1b[39m\x1b[40m\x1b[33m \x1b[33m\xe2\x9a\xa1 \x1b[39m\x1b[39m\xe2\xae\x82\x1b[39m\x1b[49m\x1b[30m 6 \x1b[39m\x1b[37m\xe2\xae\x82\x1b[39m\x1b'
    b'[47m\x1b[30m 08:20:37\x1b[K\x1b[00m\x1b[39m\x1b[49m\x1b[40D\x1b[?1h\x1b=\x1b[?2004he\x08exit\x1b[?1l\x1b>\x1b[?2004l\r\r\n\nScript done on '
    b'2026-12-06 08:20:37+00:00 [COMMAND_EXIT_CODE="1"]\n'
)
"""``POWERLEVEL9K_MODE=compatible`` under ``TERM=xterm`` (the theme's warning first)."""


def _commands(tmp_path: Path, data: bytes) -> list[tuple]:
    path = tmp_path / "typescript"
    path.write_bytes(data)
    doc = analyze_path(path).to_json()
    return [(c["command"], c["host"], c["cwd"], c["is_error"]) for c in doc["commands"]][1:], \
        [e["message"] for e in doc["errors"]]


def test_powerline_segments_then_the_command(tmp_path: Path) -> None:
    commands, errors = _commands(tmp_path, POWERLINE_FONT)
    repo = "/tmp/term-scratch/rec/sglang"
    assert commands == [
        ("cd sglang", "vm", "/tmp/term-scratch/rec", False),
        ("python3 load.py --draft /ckpt/eagle3", "vm", repo, True),
        ("hostname", "vm", repo, False),
        ("exit", "vm", repo, False),
    ]
    assert errors == ["Error: could not load draft"]


def test_compatible_mode_arrows_and_the_right_prompt_left_out(tmp_path: Path) -> None:
    commands, errors = _commands(tmp_path, COMPATIBLE_MODE)
    assert [c[:2] for c in commands] == [
        ("python3 load.py", "vm"), ("ls /nope", "vm"), ("hostname", "vm"), ("cd sub", "vm"),
        ("false", "vm"), ("exit", "vm")]
    assert [c[2] for c in commands][-2:] == ["/tmp/term-scratch/rec/sub"] * 2
    # the right prompt's "1 ↵" after `false` (powerlevel9k's status segment) is its status: a silent failure
    assert errors == ["Error: could not load draft", "ls: cannot access '/nope': No such file or directory",
                      "exit code 1"]
