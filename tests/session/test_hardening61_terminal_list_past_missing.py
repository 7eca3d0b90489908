"""A shell that could not find a command of a ``;`` list says so and goes on: the list's status is
its last command's (bash(1), Lists: "The return status is the exit status of the last command
executed"). ``nvidia-smi -L; echo gpus`` on a machine without nvidia-smi. Before: read as failed
(the refusal on the output's first line); now it ends well, and the refusal stays the session's
error. ``nvidia-smi -L && echo gpus``, ``echo a; nvidia-smi -L`` and fish's ``nvidia-smi -L; and
echo gpus`` still failed. Typescripts of bash 5.2.15 (``bash --norc -i``) and fish 3.6.0
(``fish --no-config -i``) in an 80x24 pty, TERM=xterm-256color, recorded with util-linux script
2.38.1, keys typed one at a time."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

BASH = b"".join([
    b'Script started on 2026-12-06 06:48:40+00:00 [COMMAND="bash --norc -i" TERM="xterm-256color" TTY="/dev/pts/0" COLUMNS="80" LINES="24"]\n',
    b'\x1b[?2004hbash-5.2# nvidia-smi -L; echo gpus\r\n',
    b'\x1b[?2004l\rbash: nvidia-smi: command not found\r\n',
    b'gpus\r\n',
    b'\x1b[?2004hbash-5.2# nvidia-smi -L && echo gpus\r\n',
    b'\x1b[?2004l\rbash: nvidia-smi: command not found\r\n',
    b'\x1b[?2004hbash-5.2# echo a; nvidia-smi -L\r\n',
    b'\x1b[?2004l\ra\r\n',
    b'bash: nvidia-smi: command not found\r\n',
    b'\x1b[?2004hbash-5.2# exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 06:48:49+00:00 [COMMAND_EXIT_CODE="127"]\n',
])

FISH = b"".join([
    b'Script started on 2026-12-06 06:48:49+00:00 [COMMAND="fish --no-config -i" TERM="xterm-256color" TTY="/dev/pts/0" COLUMNS="80" LINES="24"]\n',
    b'\x1b]0;/t/terminal6-scratch\x07\x1b[30m\x1b(B\x1b[m\rroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/terminal6-scratch\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[30Cn\r\x1b[31C\x08n\r\x1b[31Camei \r\x1b[31Cv\x1b[K\r\x1b[32Ccc \r\x1b[32Ci\x1b[K\r\x1b[33Cd\r\x1b[34Ci\r\x1b[35Ca\r\x1b[36C-\r\x1b[37Cs\r\x1b[38Cm\r\x1b[39Ci\r\x1b[40C \r\x1b[41C\x08 \r\x1b[41C-\r\x1b[42C\x08-\r\x1b[42CL\r\x1b[43C;\r\x1b[44C\x08;\r\x1b[44C \r\x1b[45C\x08 \r\x1b[45Ce\r\x1b[46C2freefrag \r\x1b[46C\x08e2freefrag \r\x1b[46Cc\x1b[K\r\x1b[47Cho \r\x1b[47Cho \r\x1b[48Co \r\x1b[49C\x08\x08\x08\x08echo \r\x1b[49C \r\x1b[50C\x08 \r\x1b[50Cg\r\x1b[51C\x08g\r\x1b[51Cp\r\x1b[52Cu\r\x1b[53Cs\r\x1b[54C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;nvidia-smi -L; echo  /t/terminal6-scratch\x07\x1b[30m\x1b(B\x1b[m\rfish: Unknown command: nvidia-smi\r\n',
    b'gpus\r\n',
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/terminal6-scratch\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/terminal6-scratch\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[30Cn\r\x1b[31Camei \r\x1b[31C\x08namei \r\x1b[31Cv\x1b[K\r\x1b[32Ccc \r\x1b[32Ci\x1b[K\r\x1b[33Cd\r\x1b[34Ci\r\x1b[35Ca\r\x1b[36C-\r\x1b[37Cs\r\x1b[38Cm\r\x1b[39Ci\r\x1b[40C \r\x1b[41C\x08 \r\x1b[41C-\r\x1b[42C\x08-\r\x1b[42CL\r\x1b[43C;\r\x1b[44C\x08;\r\x1b[44C \r\x1b[45C\x08 \r\x1b[45Ca\r\x1b[46C\x08a\r\x1b[46Cbbr \r\x1b[46Cn\x1b[K\r\x1b[47Cd \r\x1b[47Cd \r\x1b[48C\x08\x08\x08and \r\x1b[48C \r\x1b[49C\x08 \r\x1b[49Ce\r\x1b[50C\x08e\r\x1b[50C2freefrag \r\x1b[50Cc\x1b[K\r\x1b[51Cho \r\x1b[51Cho \r\x1b[52Co \r\x1b[53C\x08\x08\x08\x08echo \r\x1b[53C \r\x1b[54C\x08 \r\x1b[54Cg\r\x1b[55C\x08g\r\x1b[55Cp\r\x1b[56Cu\r\x1b[57Cs\r\x1b[58C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;nvidia-smi -L; and e /t/terminal6-scratch\x07\x1b[30m\x1b(B\x1b[m\rfish: Unknown command: nvidia-smi\r\n',
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/terminal6-scratch\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/terminal6-scratch\x1b(B\x1b[m\x1b(B\x1b[m \x1b(B\x1b[m\x1b[31m[\x1b[1m\x1b[31m127\x1b(B\x1b[m\x1b[31m]\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[36Cexit\r\x1b[40C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;exit /t/terminal6-scratch\x07\x1b[30m\x1b(B\x1b[m\r\x1b[30m\x1b(B\x1b[m\n',
    b'Script done on 2026-12-06 06:48:55+00:00 [COMMAND_EXIT_CODE="127"]\n',
])


def _calls(tmp_path: Path, data: bytes) -> tuple[list[tuple[str, bool]], list[str]]:
    path = tmp_path / "typescript"
    path.write_bytes(data)
    doc = analyze_path(path).to_json()
    return [(c["command"], c["is_error"]) for c in doc["commands"]][1:], [e["message"] for e in doc["errors"]]


def test_a_bash_list_that_went_on_past_a_missing_command_ends_with_its_last(tmp_path: Path) -> None:
    calls, errors = _calls(tmp_path, BASH)
    assert calls == [
        ("nvidia-smi -L; echo gpus", False),
        ("nvidia-smi -L && echo gpus", True),
        ("echo a; nvidia-smi -L", True),
        ("exit", False),
    ]
    assert errors.count("bash: nvidia-smi: command not found") == 3


def test_a_fish_list_that_went_on_past_an_unknown_command_ends_with_its_last(tmp_path: Path) -> None:
    calls, errors = _calls(tmp_path, FISH)
    assert calls == [
        ("nvidia-smi -L; echo gpus", False),
        ("nvidia-smi -L; and echo gpus", True),
        ("exit", False),
    ]
    assert errors.count("fish: Unknown command: nvidia-smi") == 2
