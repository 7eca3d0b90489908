"""``echo "status: $?"`` and ``echo "rc=$?"`` typed alone after a command: their output line,
``status: 3``, ``rc=2``, is the command's exit status (bash(1), Special Parameters, ``?``).
Before: only a bare ``echo $?`` was read, so ``python3 -c "...sys.exit(3)"`` (its output a
plain ``1``) stayed a call with no exit status that did not fail, and ``ls /nonexistent`` had
no status either. Now they get 3 and 2 (and fail), and ``true`` gets its 0. The typescript is a
bash 5.2.15 session recorded with util-linux script 2.38.1."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LABELLED = b"".join([
    b'Script started on 2026-12-07 11:22:14+00:00 [COMMAND="bash --rcfile /tmp/rec/rc1 -i" <not executed on terminal>]\n',
    b'\x1b[?2004h[root@gpu13:~] # cd ~/w\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?2004h[root@gpu13:~/w] (main) # python3 -c "import sys; print(1); sys.exit(3)"\r\n',
    b'\x1b[?2004l\r',
    b'1\r\n',
    b'\x1b[?2004h[root@gpu13:~/w] (main) # echo "status: $?"\r\n',
    b'\x1b[?2004l\r',
    b'status: 3\r\n',
    b'\x1b[?2004h[root@gpu13:~/w] (main) # ls /nonexistent\r\n',
    b'\x1b[?2004l\r',
    b"ls: cannot access '/nonexistent': No such file or directory\r\n",
    b'\x1b[?2004h[root@gpu13:~/w] (main) # echo "rc=$?"\r\n',
    b'\x1b[?2004l\r',
    b'rc=2\r\n',
    b'\x1b[?2004h[root@gpu13:~/w] (main) # true\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?2004h[root@gpu13:~/w] (main) # echo "status: $?"\r\n',
    b'\x1b[?2004l\r',
    b'status: 0\r\n',
    b'\x1b[?2004h[root@gpu13:~/w] (main) # exit\r\n',
    b'\x1b[?2004l\r',
    b'exit\r\n',
    b'\n',
    b'Script done on 2026-12-07 11:22:22+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_labelled_status_echoes_give_the_command_before_its_status(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(LABELLED)
    doc = analyze_path(path).to_json()
    got = [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]][1:]
    assert got == [
        ("cd ~/w", None, False),
        ('python3 -c "import sys; print(1); sys.exit(3)"', 3, True),
        ('echo "status: $?"', None, False),
        ("ls /nonexistent", 2, True),
        ('echo "rc=$?"', None, False),
        ("true", 0, False),
        ('echo "status: $?"', None, False),
        ("exit", None, False),
    ]
    assert doc["agents"][0]["failed_calls"] == 2


def test_the_echo_alone_is_read_and_nothing_else_is() -> None:
    from spec_debug.session.status_echo import typed_echo_status
    assert typed_echo_status('echo "status: $?"', "status: 3\n") == 3
    assert typed_echo_status("echo rc=$?", "rc=137\n") == 137
    assert typed_echo_status("echo $?", "1\n") == 1
    assert typed_echo_status("echo 'status: $?'", "status: $?\n") is None  # not expanded
    assert typed_echo_status('echo "status: $?" && ls', "status: 3\nx\n") is None  # more than the echo
    assert typed_echo_status('echo "status: $? of $JOB"', "status: 3 of a\n") is None  # another variable
    assert typed_echo_status('echo "status: $?"', "something else\n") is None
