"""zsh's own way to turn pipefail on: ``setopt PIPE_FAIL`` (or ``setopt pipefail``; option names
read without case or underscores, ``no`` before one inverts it: zshoptions(1), PIPE_FAIL, zsh
Doc/Zsh/options.yo), off with ``unsetopt pipefail``. A pipeline's status is then its last failing
command's: ``python3 load.py 2>&1 | tail -n 5`` fails with the program's ``sys.exit("Error: could
not load draft")``. Before: only bash's ``set -o pipefail`` counted, so after ``setopt PIPE_FAIL``
the pipeline was a success (tail's 0) and the error kept nowhere. The typescript is a zsh 5.9
session (``zsh -f -i``) recorded with util-linux script 2.38.1, the keys typed through a pty."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.shell_words import pipefail_after

SETOPT_PIPE_FAIL = (
    b'Script started on 2026-12-06 08:18:33+00:00 [COMMAND="zsh -f -i" TERM="xterm" TTY="/dev/pts/0" C'
    b'OLUMNS="80" LINES="24"]\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                  '
    b"                             \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[Jvm# \x1b[K\x1b[?2004hP\x08PS1='%n@gpu-node-7:%~%# '\x1b[?2"
    b'004l\r\r\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                   '
    b'            \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu-node-7:/tmp/term-scratch/rec# \x1b[K\x1b[?2004hp\x08python3 loa'
    b'd.py 2>&1 | tail -n 5\x1b[?2004l\r\r\nloading draft\r\nError: could not load draft\r\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b['
    b'0m                                                                               \r \r\r\x1b[0m\x1b[27m\x1b['
    b'24m\x1b[Jroot@gpu-node-7:/tmp/term-scratch/rec# \x1b[K\x1b[?2004hs\x08setopt PIPE_FAIL\x1b[?2004l\r\r\n\x1b[1m\x1b[7m#\x1b['
    b'27m\x1b[1m\x1b[0m                                                                               \r \r\r\x1b['
    b'0m\x1b[27m\x1b[24m\x1b[Jroot@gpu-node-7:/tmp/term-scratch/rec# \x1b[K\x1b[?2004hp\x08python3 load.py 2>&1 | tail -'
    b'n 5\x1b[?2004l\r\r\nloading draft\r\nError: could not load draft\r\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                '
    b'                                                               \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu-nod'
    b'e-7:/tmp/term-scratch/rec# \x1b[K\x1b[?2004hu\x08unsetopt pipefail\x1b[?2004l\r\r\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m      '
    b'                                                                         \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[Jro'
    b'ot@gpu-node-7:/tmp/term-scratch/rec# \x1b[K\x1b[?2004hp\x08python3 load.py 2>&1 | tail -n 5\x1b[?2004l\r\r\nloa'
    b'ding draft\r\nError: could not load draft\r\n\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                 '
    b'                                              \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu-node-7:/tmp/term-scr'
    b'atch/rec# \x1b[K\x1b[?2004he\x08exit\x1b[?2004l\r\r\n\nScript done on 2026-12-06 08:18:41+00:00 [COMMAND_EXIT_CO'
    b'DE="0"]\n'
)


def test_a_pipeline_fails_with_its_program_between_setopt_and_unsetopt(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(SETOPT_PIPE_FAIL)
    doc = analyze_path(path).to_json()
    piped = [c["is_error"] for c in doc["commands"] if c["command"] == "python3 load.py 2>&1 | tail -n 5"]
    assert piped == [False, True, False]
    assert [e["message"] for e in doc["errors"]] == ["Error: could not load draft"]


@pytest.mark.parametrize(("command", "before", "after"), [
    ("setopt pipefail", False, True),
    ("setopt PIPE_FAIL", False, True),
    ("setopt extendedglob pipe_fail", False, True),
    ("setopt no_pipe_fail", True, False),
    ("unsetopt pipefail", True, False),
    ("unsetopt NO_PIPEFAIL", False, True),
    ("setopt extendedglob", True, True),
    ("unsetopt extendedglob", False, False),
])
def test_zsh_option_words(command: str, before: bool, after: bool) -> None:
    assert pipefail_after(command, before) is after
