"""The status typed out at a prompt in the shells that name it otherwise: zsh's ``print $?`` and
``echo $status`` (zshparam(1): ``status``, "Same as ?"), tcsh's ``echo $status`` (tcsh(1),
``status``: "The exit status from the last command"). Before: only ``echo $?`` was read, so a
program that exited 3 or 4 without a word (``python3 -c 'import sys; sys.exit(3)'``) stayed a
success with no status. In bash ``$status`` is a plain variable, unset: its empty line says
nothing. The typescripts are zsh 5.9 (``zsh -f -i``), tcsh 6.24.07 (``tcsh -f``) and bash 5.2.15
sessions recorded with util-linux script 2.38.1, the keys typed through a pty."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

ZSH = (
    b'Script started on 2026-12-06 08:30:09+00:00 [COMMAND="zsh -f -i" TERM="xterm" TTY="/dev/pts/0" C'
    b'OLUMNS="80" LINES="24"]\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                  '
    b"                             \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[Jvm# \x1b[K\x1b[?2004hP\x08PS1='%n@gpu-node-7:%~%# '\x1b[?2"
    b'004l\r\r\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                   '
    b'            \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu-node-7:/tmp/term-scratch/rec# \x1b[K\x1b[?2004hp\x08python3 -c '
    b"'import sys; sys.exit(3)'\x1b[?2004l\r\r\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                      "
    b'                                         \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu-node-7:/tmp/term-scratch/'
    b'rec# \x1b[K\x1b[?2004hp\x08print $?\x1b[?2004l\r\r\n3\r\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                  '
    b'                                             \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu-node-7:/tmp/term-scra'
    b"tch/rec# \x1b[K\x1b[?2004hp\x08python3 -c 'import sys; sys.exit(4)'\x1b[?2004l\r\r\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m     "
    b'                                                                          \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[Jr'
    b'oot@gpu-node-7:/tmp/term-scratch/rec# \x1b[K\x1b[?2004he\x08echo $status\x1b[?2004l\r\r\n4\r\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b'
    b'[0m                                                                               \r \r\r\x1b[0m\x1b[27m\x1b'
    b'[24m\x1b[Jroot@gpu-node-7:/tmp/term-scratch/rec# \x1b[K\x1b[?2004he\x08exit\x1b[?2004l\r\r\n\nScript done on 2026-1'
    b'2-06 08:30:15+00:00 [COMMAND_EXIT_CODE="0"]\n'
)

TCSH = (
    b'Script started on 2026-12-06 08:30:04+00:00 [COMMAND="tcsh -f" TERM="xterm" TTY="/dev/pts/0" COL'
    b'UMNS="80" LINES="24"]\n# set prompt=\'%n@gpu-node-7:%~%# \'\r\r\nroot@gpu-node-7:/tmp/term-scratch/rec'
    b"# python3 -c 'import sys; sys.exit(3)'\r\r\nroot@gpu-node-7:/tmp/term-scratch/rec# echo $status\r\r\n3"
    b'\r\nroot@gpu-node-7:/tmp/term-scratch/rec# exit\r\r\nexit\r\n\nScript done on 2026-12-06 08:30:08+00:00 '
    b'[COMMAND_EXIT_CODE="0"]\n'
)

BASH_UNSET = (
    b'Script started on 2026-12-06 08:30:32+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" T'
    b'TY="/dev/pts/0" COLUMNS="80" LINES="24"]\n\x1b[?2004hbash-5.2# export PS1=\'\\u@gpu-node-7:\\w\\$ \'\r\n\x1b[?'
    b"2004l\r\x1b[?2004hroot@gpu-node-7:/tmp/term-scratch/rec# python3 -c 'import sys; sys.exit(3)'\r\n\x1b[?20"
    b'04l\r\x1b[?2004hroot@gpu-node-7:/tmp/term-scratch/rec# echo $status\r\n\x1b[?2004l\r\r\n\x1b[?2004hroot@gpu-nod'
    b'e-7:/tmp/term-scratch/rec# exit\r\n\x1b[?2004l\rexit\r\n\nScript done on 2026-12-06 08:30:36+00:00 [COMMA'
    b'ND_EXIT_CODE="0"]\n'
)


def _exits(tmp_path: Path, data: bytes) -> list[tuple]:
    path = tmp_path / "typescript"
    path.write_bytes(data)
    doc = analyze_path(path).to_json()
    return [(c["command"], c["is_error"], c["exit_code"]) for c in doc["commands"] if c["command"].startswith("python3")]


@pytest.mark.parametrize(("data", "expected"), [
    (ZSH, [("python3 -c 'import sys; sys.exit(3)'", True, 3), ("python3 -c 'import sys; sys.exit(4)'", True, 4)]),
    (TCSH, [("python3 -c 'import sys; sys.exit(3)'", True, 3)]),
    (BASH_UNSET, [("python3 -c 'import sys; sys.exit(3)'", False, None)]),
], ids=["zsh", "tcsh", "bash"])
def test_the_status_echoed_is_the_command_befores(tmp_path: Path, data: bytes, expected: list) -> None:
    assert _exits(tmp_path, data) == expected
