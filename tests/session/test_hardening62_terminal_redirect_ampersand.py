"""A redirection that duplicates a descriptor (``2>&1``, ``>&2``) or sends both outputs to a file
(``&>/dev/null``) is no background ``&`` ending the command (bash(1), REDIRECTION, "Duplicating
File Descriptors", "Redirecting Standard Output and Standard Error"). The analyzer's word split
cuts ``2>&1`` into ``2``, ``>``, ``&``, ``1``; before, the ``&`` ended a command, so ``grep -n x
server.log 2>&1`` ran a program ``1`` last: grep's status 1 ("no lines were selected", grep(1))
read by ``echo $?`` made it a failure, where plain ``grep -c x server.log`` was none. The
typescript is a bash 5.2.15 session recorded with util-linux script 2.38.1, the keys typed
through a pty."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path, shell

GREP_FOUND_NOTHING = (
    b'Script started on 2026-12-06 08:24:53+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" T'
    b'TY="/dev/pts/0" COLUMNS="80" LINES="24"]\n\x1b[?2004hbash-5.2# export PS1=\'\\u@gpu-node-7:\\w\\$ \'\r\n\x1b[?'
    b'2004l\r\x1b[?2004hroot@gpu-node-7:/tmp/term-scratch/rec# grep -n accept_length server.log 2>&1\r\n\x1b[?2'
    b'004l\r\x1b[?2004hroot@gpu-node-7:/tmp/term-scratch/rec# echo $?\r\n\x1b[?2004l\r1\r\n\x1b[?2004hroot@gpu-node-7'
    b':/tmp/term-scratch/rec# grep -c accept_length server.log\r\n\x1b[?2004l\r0\r\n\x1b[?2004hroot@gpu-node-7:/t'
    b'mp/term-scratch/rec# echo $?\r\n\x1b[?2004l\r1\r\n\x1b[?2004hroot@gpu-node-7:/tmp/term-scratch/rec# exit\r\n\x1b'
    b'[?2004l\rexit\r\n\nScript done on 2026-12-06 08:24:59+00:00 [COMMAND_EXIT_CODE="0"]\n'
)


def test_grep_with_2_and_1_that_found_nothing_did_not_fail(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(GREP_FOUND_NOTHING)
    doc = analyze_path(path).to_json()
    greps = [(c["command"], c["is_error"], c["exit_code"]) for c in doc["commands"] if c["command"].startswith("grep")]
    assert greps == [
        ("grep -n accept_length server.log 2>&1", False, 1),
        ("grep -c accept_length server.log", False, 1),
    ]


@pytest.mark.parametrize(("command", "last"), [
    ("grep -n accept_length server.log 2>&1", "grep"),
    ("grep -q accept server.log >/dev/null 2>&1", "grep"),
    ("grep -q accept server.log &>/dev/null", "grep"),
    ("diff old.json new.json >&2", "diff"),
    ("grep -n accept server.log 2>&1 | head -n 5", "head"),
    ("python3 -m sglang.launch_server --port 30000 > s.log 2>&1 & sleep 5", "sleep"),
])
def test_the_last_program_past_a_redirection(command: str, last: str) -> None:
    assert shell.last_program(command) == last
    assert shell.program_names(command)[-1] == last


def test_a_list_goes_on_past_a_redirected_command() -> None:
    assert shell.ran_on_after("nvidia-smi -L 2>&1; echo gpus", "nvidia-smi") is True
    assert shell.program_names("nohup python3 -m sglang.launch_server --port 30000 > s.log 2>&1 & echo $!") == [
        "python3", "echo"]
