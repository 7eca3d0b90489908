"""Ctrl-D twice after an ``echo $?`` on a GPU host: once to leave a ``bash`` typed in the ssh
login, once to leave the login (bash prints "exit", then "logout"; ssh says "Connection to ...
closed." at its default LogLevel, nothing under ``-q``). Before, the prompts, "exit", "logout" and
ssh's line were read as more of the echo's output, so ``bash -c 'exit 3'`` got no status; and under
``ssh -q`` only one shell was left, so the laptop's ``hostname`` and ``exit`` after it were placed on
gpu07. Now each shell left so is the shell's, none of the output's. Recorded with util-linux
``script -q``, bash 5 and OpenSSH against a real sshd on 127.0.0.1 (tests/sshd_fixture.py), the host
named gpu07 in the client's ssh_config."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

CLOSED = b"\n".join([
    b'Script started on 2026-12-07 10:35:13+00:00 [COMMAND="env -i HOME=/root TERM=xterm PATH=/usr/bin:/bin PS1=\'$ \' bash --norc -i" <not executed on terminal>]',
    b'\x1b[?2004h$ ssh -F /tmp/textlogs15-scratch/sshrec/w/cfg gpu07\r',
    b'\x1b[?2004l\rLast login: Mon Dec  7 10:23:05 2026 from 127.0.0.1\r\r',
    b"\x1b[?2004hroot@vm:~# PS1='$ ' bash --norc\r",
    b"\x1b[?2004l\r\x1b[?2004h$ bash -c 'exit 3'\r",
    b'\x1b[?2004l\r\x1b[?2004h$ echo $?\r',
    b'\x1b[?2004l\r3\r',
    b'\x1b[?2004h$ \x1b[?2004l\r\r',
    b'exit\r',
    b'\x1b[?2004hroot@vm:~# \x1b[?2004l\r\r',
    b'logout\r',
    b'Connection to 127.0.0.1 closed.\r\r',
    b'\x1b[?2004h$ hostname\r',
    b'\x1b[?2004l\rvm\r',
    b'\x1b[?2004h$ exit\r',
    b'\x1b[?2004l\rexit\r',
    b'',
    b'Script done on 2026-12-07 10:35:22+00:00 [COMMAND_EXIT_CODE="0"]',
    b'',
])
"""``ssh -F cfg gpu07``; ``PS1='$ ' bash --norc``; ``bash -c 'exit 3'``; ``echo $?``; Ctrl-D; Ctrl-D; ``hostname``; ``exit``."""

QUIET = b"\n".join([
    b'Script started on 2026-12-07 10:36:11+00:00 [COMMAND="env -i HOME=/root TERM=xterm PATH=/usr/bin:/bin PS1=\'$ \' bash --norc -i" <not executed on terminal>]',
    b'\x1b[?2004h$ ssh -q -F /tmp/textlogs15-scratch/sshrec/w/cfg gpu07\r',
    b'\x1b[?2004l\rLast login: Mon Dec  7 10:35:14 2026 from 127.0.0.1\r\r',
    b"\x1b[?2004hroot@vm:~# PS1='$ ' bash --norc\r",
    b"\x1b[?2004l\r\x1b[?2004h$ bash -c 'exit 4'\r",
    b'\x1b[?2004l\r\x1b[?2004h$ echo $?\r',
    b'\x1b[?2004l\r4\r',
    b'\x1b[?2004h$ \x1b[?2004l\r\r',
    b'exit\r',
    b'\x1b[?2004hroot@vm:~# \x1b[?2004l\r\r',
    b'logout\r',
    b'\x1b[?2004h$ hostname\r',
    b'\x1b[?2004l\rvm\r',
    b'\x1b[?2004h$ exit\r',
    b'\x1b[?2004l\rexit\r',
    b'',
    b'Script done on 2026-12-07 10:36:20+00:00 [COMMAND_EXIT_CODE="0"]',
    b'',
])
"""The same under ``ssh -q`` (no "Connection to ... closed."), the status 4."""


def _commands(tmp_path: Path, data: bytes) -> list[tuple]:
    path = tmp_path / "rec.log"
    path.write_bytes(data)
    return [(c["host"], c["command"], c["exit_code"]) for c in analyze_path(path).to_json()["commands"]][1:]


def test_the_status_before_two_ctrl_d(tmp_path: Path) -> None:
    assert _commands(tmp_path, CLOSED) == [
        ("gpu07", "ssh -F /tmp/textlogs15-scratch/sshrec/w/cfg gpu07", None),
        ("gpu07", "PS1='$ ' bash --norc", None),
        ("gpu07", "bash -c 'exit 3'", 3),
        ("gpu07", "echo $?", None),
        (None, "hostname", None),
        (None, "exit", None),
    ]


def test_two_ctrl_d_under_ssh_q_leave_both_shells(tmp_path: Path) -> None:
    assert _commands(tmp_path, QUIET) == [
        ("gpu07", "ssh -q -F /tmp/textlogs15-scratch/sshrec/w/cfg gpu07", None),
        ("gpu07", "PS1='$ ' bash --norc", None),
        ("gpu07", "bash -c 'exit 4'", 4),
        ("gpu07", "echo $?", None),
        (None, "hostname", None),
        (None, "exit", None),
    ]


def test_a_pasted_log_that_left_by_ctrl_d(tmp_path: Path) -> None:
    log = ("$ ssh login01\n$ ssh gpu08 'nvidia-smi -L; exit 3'\nGPU 0: NVIDIA H100 80GB HBM3\n"
           "$ echo $?\n3\n$ \nlogout\nConnection to login01 closed.\n$ hostname\nlaptop\n")
    assert _commands(tmp_path, log.encode()) == [
        ("gpu08", "ssh gpu08 'nvidia-smi -L; exit 3'", 3), ("login01", "echo $?", None), (None, "hostname", None)]


def test_a_closed_line_alone_stays_output(tmp_path: Path) -> None:
    log = "$ ssh -t gpu07 nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\nConnection to gpu07 closed.\n$ ls\n"
    path = tmp_path / "s.log"
    path.write_text(log)
    from spec_debug.session.agents import AgentTree
    from spec_debug.session.events import ReadStats
    from spec_debug.session.sources import discover, iter_events

    (source,) = discover(path)
    outputs = [e.text for e in iter_events(source, ReadStats(), AgentTree()) if e.kind == "tool_result"]
    assert outputs == ["GPU 0: NVIDIA H100 80GB HBM3\nConnection to gpu07 closed."]
