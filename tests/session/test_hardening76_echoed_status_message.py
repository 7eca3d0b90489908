"""A command that prints its own status (``test -f config.json; echo $?``) failed with "exit code
N", not with the echo's line.

In a terminal log, or an agent's ``python3 check.py; echo "EXIT: $?"``, the status is read back
from the echo's line. Before, the errors were then read from the whole output, echo's line and
all: a command that printed nothing else failed with the message "1" (or "rc=2", "EXIT: 1"), the
status itself posing as what went wrong. Now the echo's line is left out: such a failure reads
"exit code 1", as one whose status a prompt shows does; what the command printed before the echo
is its message as before. The typescript is bash 5.2 recorded with util-linux script 2.38."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.status_echo import echoed_exit, without_echoed_exit
from tests.session.bash_session import write_bash_session

TYPESCRIPT = (
    b'Script started on 2026-12-07 20:05:04+00:00 [COMMAND="bash --norc --noprofile -i < cmds.txt" '
    b'<not executed on terminal>]\n'
    b"bash-5.2# export PS1='root@gpu01:~# '\r\n"
    b"root@gpu01:~# test -f /ckpt/eagle3/config.json; echo $?\r\n1\r\n"
    b'root@gpu01:~# ls /ckpt/eagle3/model.safetensors >/dev/null 2>&1; echo "rc=$?"\r\nrc=2\r\n'
    b"root@gpu01:~# echo done\r\ndone\r\n"
    b"root@gpu01:~# exit\r\nexit\r\n\n"
    b'Script done on 2026-12-07 20:05:04+00:00 [COMMAND_EXIT_CODE="0"]\n')


def test_terminal_log_statuses_read_as_exit_codes(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(TYPESCRIPT)
    doc = analyze_path(path).to_json()
    assert [(e["kind"], e["message"], e["host"]) for e in doc["errors"]] == [
        ("exit_code", "exit code 1", "gpu01"), ("exit_code", "exit code 2", "gpu01")]


def test_agent_echo_keeps_what_the_program_printed(tmp_path: Path) -> None:
    path = write_bash_session(tmp_path, "s1", "check the draft", [
        ('test -d /ckpt/eagle3; echo "EXIT: $?"', "EXIT: 1"),
        ('python3 check_draft.py; echo "EXIT: $?"', "draft config missing d2t\nEXIT: 1"),
    ])
    doc = analyze_path(path).to_json()
    assert [(e["command_seq"], e["message"]) for e in doc["errors"]] == [
        (1, "exit code 1"), (3, "draft config missing d2t")]


def test_the_echoed_line_is_the_one_left_out():
    command = 'python3 bench.py; echo "rc=$?"; tail -n 1 bench.log'
    output = "rc=3 in the log is not it\nrc=3\nbench: done\n"
    assert echoed_exit(command, output) == 3
    assert without_echoed_exit(command, output) == "rc=3 in the log is not it\nbench: done\n"
    assert without_echoed_exit("python3 bench.py", output) == output
