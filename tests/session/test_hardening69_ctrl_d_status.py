"""An interactive shell recorded and left with Ctrl-D. util-linux ``script`` (2.35 and later,
``term-utils/script.c``) closes the typescript with ``Script done on ... [COMMAND_EXIT_CODE="N"]``,
and asciinema 3 ends an asciicast v3 with the exit event ``[t, "x", "N"]`` (``src/session.rs``,
``handle_exit``, written for a shell as for a command), N being the status of the shell. bash
reads the end of its input as ``exit`` with no argument, whose status "is that of the last
command executed" (bash(1), SHELL BUILTIN COMMANDS, ``exit``); so N is the status of the last
command of the log. That command had none: a launch that printed no error of its own and exited
3 was no failure.

The typescript is a real one: util-linux script 2.38.1 running bash 5.2.15 (``--norc -i``,
``PS1='me@gpu01:~$ '``), the input piped to it and ended, as Ctrl-D ends it; the asciicast holds
the same output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

RECORDED = (
    b'Script started on 2026-12-06 23:16:27+00:00 [<not executed on terminal>]\n'
    b'\x1b[?2004hme@gpu01:~$ echo before\r\n\x1b[?2004l\rbefore\r\n'
    b'\x1b[?2004hme@gpu01:~$ sh -c "echo loading draft; exit 3"\r\n\x1b[?2004l\rloading draft\r\n'
    b'\x1b[?2004hme@gpu01:~$ \x1b[?2004l\r\r\nexit\r\n\n'
    b'Script done on 2026-12-06 23:16:29+00:00 [COMMAND_EXIT_CODE="3"]\n')


def test_the_closing_lines_status_is_the_last_commands_after_ctrl_d(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(RECORDED)
    before, launch = analyze_path(path).commands
    assert (before.command, before.exit_code, before.is_error) == ("echo before", None, False)
    assert (launch.command, launch.exit_code, launch.is_error) == ('sh -c "echo loading draft; exit 3"', 3, True)
    assert (launch.host, launch.user) == ("gpu01", "me")


def test_a_status_the_last_command_gave_itself_is_kept(tmp_path: Path) -> None:
    # `exit 5` typed: the closing line's status is the one exit was given, no other command's
    path = tmp_path / "typescript"
    path.write_bytes(RECORDED.replace(b'\x1b[?2004hme@gpu01:~$ \x1b[?2004l\r\r\nexit\r\n',
                                      b'\x1b[?2004hme@gpu01:~$ exit 5\r\n\x1b[?2004l\rexit\r\n')
                     .replace(b'"3"]', b'"5"]'))
    before, launch, leave = analyze_path(path).commands
    assert (launch.exit_code, leave.command, leave.exit_code) == (None, "exit 5", None)


def test_ctrl_d_in_a_shell_ssh_opened_gives_no_status_to_the_remote_command(tmp_path: Path) -> None:
    # Ctrl-D left the remote shell; the status script gives is the local shell's, not the
    # remote command's (ssh returned it, but the log shows no command after ssh's end)
    path = tmp_path / "typescript"
    path.write_bytes(
        b'Script started on 2026-12-06 23:16:27+00:00 [<not executed on terminal>]\n'
        b'me@gpu01:~$ ssh gpu02\r\nWelcome to Ubuntu 22.04.4 LTS\r\n'
        b'me@gpu02:~$ sh -c "echo loading draft; exit 3"\r\nloading draft\r\n'
        b'me@gpu02:~$ \r\nlogout\r\n\n'
        b'Script done on 2026-12-06 23:16:29+00:00 [COMMAND_EXIT_CODE="3"]\n')
    ssh, launch = analyze_path(path).commands
    assert (launch.host, launch.exit_code) == ("gpu02", None)


STREAM = ['\x1b[?2004hme@gpu01:~$ ', 'echo before\r\n', '\x1b[?2004l\rbefore\r\n', '\x1b[?2004hme@gpu01:~$ ',
          'sh -c "echo loading draft; exit 3"\r\n', '\x1b[?2004l\rloading draft\r\n', '\x1b[?2004hme@gpu01:~$ ',
          '\x1b[?2004l\r\r\nexit\r\n']


def _cast(tmp_path: Path, header: dict, ending: list) -> Path:
    rows = [json.dumps(header)] + [json.dumps([0.25, "o", data]) for data in STREAM] + [json.dumps(ending)]
    path = tmp_path / "session.cast"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


V3 = {"version": 3, "term": {"cols": 120, "rows": 30, "type": "xterm-256color"}, "timestamp": 1796600187,
      "env": {"SHELL": "/bin/bash"}}


@pytest.mark.parametrize("header", [V3, {**V3, "command": "/bin/bash"}], ids=["shell", "shell-named"])
def test_an_asciicasts_exit_event_after_ctrl_d_is_the_last_commands_status(tmp_path: Path, header: dict) -> None:
    before, launch = analyze_path(_cast(tmp_path, header, [0.1, "x", "3"])).commands
    assert (before.exit_code, launch.command, launch.exit_code, launch.is_error) == \
        (None, 'sh -c "echo loading draft; exit 3"', 3, True)


def test_an_asciicast_with_no_exit_event_gives_no_status(tmp_path: Path) -> None:
    before, launch = analyze_path(_cast(tmp_path, V3, [0.1, "m", ""])).commands
    assert (launch.exit_code, launch.is_error) == (None, False)
