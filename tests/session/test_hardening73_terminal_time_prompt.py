"""A shell whose prompt starts with the time, bare (bash's ``PS1='\\t \\u@\\h:\\w\\$ '``:
``10:31:10 root@vm:/tmp/w# false``; ``\\@``: ``10:31 AM root@vm:...``; bash(1), PROMPTING). Before,
no line of such a log was a prompt: every command was lost, read as output of the ``script`` line,
and ``echo $?`` gave no status to the command before it. Only ``[10:31:10]`` in brackets was read.
Now the time is read as part of the prompt, as the bracketed one. Recorded with util-linux
``script -q`` and bash 5 on this machine (hostname ``vm``)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

TIME_24 = b"\n".join([
    b'Script started on 2026-12-07 10:31:10+00:00 [COMMAND="env -i HOME=/root TERM=xterm PS1=\'\\t \\u@\\h:\\w\\$ \' bash --norc -i" <not executed on terminal>]',
    b'\x1b[?2004h10:31:10 root@vm:/tmp/textlogs15-scratch# false\r',
    b'\x1b[?2004l\r\x1b[?2004h10:31:10 root@vm:/tmp/textlogs15-scratch# echo $?\r',
    b'\x1b[?2004l\r1\r',
    b'\x1b[?2004h10:31:10 root@vm:/tmp/textlogs15-scratch# cat /etc/hostname\r',
    b'\x1b[?2004l\rvm\r',
    b'\x1b[?2004h10:31:11 root@vm:/tmp/textlogs15-scratch# exit\r',
    b'\x1b[?2004l\rexit\r',
    b'',
    b'Script done on 2026-12-07 10:31:11+00:00 [COMMAND_EXIT_CODE="0"]',
    b'',
])
"""``PS1='\\t \\u@\\h:\\w\\$ '``: false, echo $?, cat /etc/hostname, exit."""

TIME_12 = b"\n".join([
    b'Script started on 2026-12-07 10:31:20+00:00 [COMMAND="env -i HOME=/root TERM=xterm PS1=\'\\@ \\u@\\h:\\w\\$ \' bash --norc -i" <not executed on terminal>]',
    b'\x1b[?2004h10:31 AM root@vm:/tmp/textlogs15-scratch# cat /etc/hostname\r',
    b'\x1b[?2004l\rvm\r',
    b'\x1b[?2004h10:31 AM root@vm:/tmp/textlogs15-scratch# exit\r',
    b'\x1b[?2004l\rexit\r',
    b'',
    b'Script done on 2026-12-07 10:31:21+00:00 [COMMAND_EXIT_CODE="0"]',
    b'',
])
"""``PS1='\\@ \\u@\\h:\\w\\$ '``: cat /etc/hostname, exit."""


def _commands(tmp_path: Path, data: bytes) -> list[tuple]:
    path = tmp_path / "rec.log"
    path.write_bytes(data)
    return [(c["host"], c["user"], c["cwd"], c["command"], c["exit_code"]) for c in analyze_path(path).to_json()["commands"]]


def test_a_prompt_that_starts_with_the_time(tmp_path: Path) -> None:
    assert _commands(tmp_path, TIME_24)[1:] == [
        ("vm", "root", "/tmp/textlogs15-scratch", "false", 1),
        ("vm", "root", "/tmp/textlogs15-scratch", "echo $?", None),
        ("vm", "root", "/tmp/textlogs15-scratch", "cat /etc/hostname", None),
        ("vm", "root", "/tmp/textlogs15-scratch", "exit", None),
    ]


def test_a_twelve_hour_time(tmp_path: Path) -> None:
    assert [c[:4] for c in _commands(tmp_path, TIME_12)[1:]] == [
        ("vm", "root", "/tmp/textlogs15-scratch", "cat /etc/hostname"), ("vm", "root", "/tmp/textlogs15-scratch", "exit")]


def test_a_pasted_log_with_the_time_before_a_remote_prompt(tmp_path: Path) -> None:
    log = ("09:58:01 me@laptop:~$ ssh gpu07\n"
           "10:01:02 ubuntu@gpu07:~$ python3 -c 'import torch; print(torch.cuda.device_count())'\n8\n"
           "10:01:09 ubuntu@gpu07:~$ exit\nlogout\nConnection to gpu07 closed.\n"
           "10:01:12 me@laptop:~$ hostname\nlaptop\n")
    assert [(c[0], c[3]) for c in _commands(tmp_path, log.encode())] == [
        ("gpu07", "ssh gpu07"), ("gpu07", "python3 -c 'import torch; print(torch.cuda.device_count())'"),
        ("gpu07", "exit"), ("laptop", "hostname")]
