"""zsh's own words for the last status, typed at a prompt after a command: ``print "status:
$status"`` and ``echo "rc=$status"`` (zshparam(1): ``status``, "Same as ?"; zshbuiltins(1),
``print``). Before: only a bare ``echo $status`` or ``echo "rc=$?"`` was read, so the draft
loader's exit 3 and ls's 2 were lost and neither command counted as failed by its status. Now the
number on the echo's line is the command's status, as for ``$?``; in bash, where ``$status`` is an
unset variable, the echo prints no number and gives no status. The typescript is a zsh 5.9 session
recorded with util-linux script 2.38.1 (hostname set with unshare --uts)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

ZSH_STATUS_WORDS = b"".join([
    b'Script started on 2026-12-07 13:34:40+00:00 [COMMAND="zsh -i" <not executed on terminal>]\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                               \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu11 ~/w # \x1b[K\x1b[?1h\x1b=\x1b[?2004hp\x08python3 -c "import sys; print(\'loading draft\'); sys.exit(3)"\x1b[?1l\x1b>\x1b[?2004l\r',
    b'\r\n',
    b'loading draft\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                               \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu11 ~/w # \x1b[K\x1b[?1h\x1b=\x1b[?2004hp\x08print "status: $status"\x1b[?1l\x1b>\x1b[?2004l\r',
    b'\r\n',
    b'status: 3\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                               \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu11 ~/w # \x1b[K\x1b[?1h\x1b=\x1b[?2004hl\x08ls /nonexistent\x1b[?1l\x1b>\x1b[?2004l\r',
    b'\r\n',
    b"ls: cannot access '/nonexistent': No such file or directory\r\n",
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                               \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu11 ~/w # \x1b[K\x1b[?1h\x1b=\x1b[?2004he\x08echo "rc=$status"\x1b[?1l\x1b>\x1b[?2004l\r',
    b'\r\n',
    b'rc=2\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                               \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu11 ~/w # \x1b[K\x1b[?1h\x1b=\x1b[?2004hp\x08python3 -c "import sys; sys.exit(0)"\x1b[?1l\x1b>\x1b[?2004l\r',
    b'\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                               \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu11 ~/w # \x1b[K\x1b[?1h\x1b=\x1b[?2004hp\x08print $?\x1b[?1l\x1b>\x1b[?2004l\r',
    b'\r\n',
    b'0\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                               \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu11 ~/w # \x1b[K\x1b[?1h\x1b=\x1b[?2004he\x08exit\x1b[?1l\x1b>\x1b[?2004l\r',
    b'\r\n',
    b'\n',
    b'Script done on 2026-12-07 13:34:48+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_zsh_status_in_words_gives_the_command_before_its_status(tmp_path: Path) -> None:
    path = tmp_path / "gpu11.typescript"
    path.write_bytes(ZSH_STATUS_WORDS)
    a = analyze_path(path)
    assert [(c.host, c.cwd, c.exit_code, c.is_error, c.command) for c in a.commands[1:]] == [
        ("gpu11", "~/w", 3, True, "python3 -c \"import sys; print('loading draft'); sys.exit(3)\""),
        ("gpu11", "~/w", None, False, 'print "status: $status"'),
        ("gpu11", "~/w", 2, True, "ls /nonexistent"),
        ("gpu11", "~/w", None, False, 'echo "rc=$status"'),
        ("gpu11", "~/w", 0, False, 'python3 -c "import sys; sys.exit(0)"'),
        ("gpu11", "~/w", None, False, "print $?"),
        ("gpu11", "~/w", None, False, "exit"),
    ]


_BASH = """\
me@gpu11:~/w$ python3 bench.py
throughput: 812.4 tok/s
me@gpu11:~/w$ echo "rc=$status"
rc=
me@gpu11:~/w$ ls
bench.py
"""


def test_bash_status_variable_is_unset_and_gives_no_status(tmp_path: Path) -> None:
    path = tmp_path / "bash.log"
    path.write_text(_BASH, encoding="utf-8")
    a = analyze_path(path)
    assert [(c.exit_code, c.is_error, c.command) for c in a.commands] == [
        (None, False, "python3 bench.py"), (None, False, 'echo "rc=$status"'), (None, False, "ls")]
