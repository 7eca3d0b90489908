"""A script run with ``bash -x`` at a prompt that ends on a traced ``exit 1``: the trace's last line,
``+ exit 1``, is the status the script ended with (bash(1), ``set -x``). Before: the call had no
exit code and was no failure, and the ``ERROR:`` line the script printed before it was no error
(the recording below read as a success). Now ``+ exit N`` as the output's last line is the status;
``++ exit N`` (a command substitution's) and a trace that goes on after it are not. The
typescript is a bash 5.2.15 session (``bash --norc --noprofile -i``) recorded with util-linux
script 2.38.1 in a 100-column tmux 3.3a pane, the script a four-line check for the draft's folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.formats.text_log import _traced_exit

RECORDED = b"".join([
    b'Script started on 2026-12-06 20:45:13+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" TTY="/de'
    b'v/pts/0" COLUMNS="100" LINES="40"]\n',
    b'\x1b[?2004h(sglang) root@gpu01:~/work# bash -x run_eagle.sh\r\n',
    b"\x1b[?2004l\r+ '[' '!' -d /ckpt/eagle3 ']'\r\n",
    b"+ echo 'ERROR: draft checkpoint /ckpt/eagle3 not found'\r\n",
    b'ERROR: draft checkpoint /ckpt/eagle3 not found\r\n',
    b'+ exit 1\r\n',
    b'\x1b[?2004h(sglang) root@gpu01:~/work# ls\r\n',
    b'\x1b[?2004l\rrun_eagle.sh  typescript\r\n',
    b'\x1b[?2004h(sglang) root@gpu01:~/work# exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 20:45:14+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_a_traced_exit_is_the_scripts_status(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(RECORDED)
    a = analyze_path(path)
    assert [(c.command, c.host, c.exit_code, c.is_error) for c in a.commands][1:] == [
        ("bash -x run_eagle.sh", "gpu01", 1, True),
        ("ls", "gpu01", None, False),
        ("exit", "gpu01", None, False),
    ]
    [err] = a.errors
    assert (err.message, err.command_seq) == ("ERROR: draft checkpoint /ckpt/eagle3 not found", a.commands[1].seq)


@pytest.mark.parametrize(("output", "code"), [
    ("+ exit 1", 1),
    ("ERROR: no draft\n+ exit 2", 2),
    ("+ exit 0", 0),
    ("++ exit 4\n+ x=", None),  # a command substitution's exit
    ("+ exit 3\n+ echo failed\nfailed", None),  # `( exit 3 ) || echo failed`: the script went on
    ("echo '+ exit 1'", None),
    ("+ exit", None),
])
def test_only_a_last_top_level_exit_counts(output: str, code: int | None) -> None:
    assert _traced_exit(output) == code
