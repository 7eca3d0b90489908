"""A shell script typed at a prompt whose last command failed, in a terminal log with no exit
status: the script's status is that command's (bash(1): ``set -e`` stops at it; without it the
last command's status is the script's), and the output ends on its failure, under the command's
name (``cp: cannot stat ...``) or under the script's with bash's line (``./nvcc.sh: line 3:
trtllm-build: command not found``). Before: no error and no failed call for ``./deploy.sh``,
``bash deploy2.sh``, ``bash -x ./deploy.sh`` or ``sh deploy.sh``. A script that went on after
the failure (a report line last, or the trace of a later command) stays no failure. The
typescripts are bash 5.2.15 sessions recorded with util-linux script 2.38.1."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

SET_E = (
    b'Script started on 2026-12-05 22:53:59+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xt'
    b'erm" TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n'
    b"\x1b[?2004hbash-5.2# export PS1='root@gpu01:~# '\r\n"
    b'\x1b[?2004l\r'
    b'\x1b[?2004hroot@gpu01:~# ./deploy.sh\r\n'
    b'\x1b[?2004l\r'
    b'copying draft\r\n'
    b"cp: cannot stat '/models/nope/config.json': No such file or directory\r\n"
    b'\x1b[?2004hroot@gpu01:~# bash deploy2.sh\r\n'
    b'\x1b[?2004l\r'
    b'starting on vm\r\n'
    b'mkdir: cannot create directory \xe2\x80\x98/proc/xx\xe2\x80\x99: No such file or directory\r\n'
    b'\x1b[?2004hroot@gpu01:~# bash -x ./deploy.sh\r\n'
    b'\x1b[?2004l\r'
    b'+ set -e\r\n'
    b"+ echo 'copying draft'\r\n"
    b'copying draft\r\n'
    b'+ cp /models/nope/config.json /tmp/formats4-scratch/rec/x.json\r\n'
    b"cp: cannot stat '/models/nope/config.json': No such file or directory\r\n"
    b'\x1b[?2004hroot@gpu01:~# sh deploy.sh\r\n'
    b'\x1b[?2004l\r'
    b'copying draft\r\n'
    b"cp: cannot stat '/models/nope/config.json': No such file or directory\r\n"
    b'\x1b[?2004hroot@gpu01:~# exit\r\n'
    b'\x1b[?2004l\r'
    b'exit\r\n'
    b'\n'
    b'Script done on 2026-12-05 22:54:04+00:00 [COMMAND_EXIT_CODE="1"]\n')

WENT_ON = (
    b'Script started on 2026-12-05 22:54:58+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xt'
    b'erm" TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n'
    b"\x1b[?2004hbash-5.2# export PS1='root@gpu01:~# '\r\n"
    b'\x1b[?2004l\r'
    b'\x1b[?2004hroot@gpu01:~# ./goon.sh\r\n'
    b'\x1b[?2004l\r'
    b"ls: cannot access '/models/nope': No such file or directory\r\n"
    b'Summary: checked 3 files, 0 errors\r\n'
    b'\x1b[?2004hroot@gpu01:~# bash -x goon2.sh\r\n'
    b'\x1b[?2004l\r'
    b'+ ls /models/nope\r\n'
    b"ls: cannot access '/models/nope': No such file or directory\r\n"
    b'+ true\r\n'
    b'\x1b[?2004hroot@gpu01:~# ./nvcc.sh\r\n'
    b'\x1b[?2004l\r'
    b'building kernels\r\n'
    b'./nvcc.sh: line 3: trtllm-build: command not found\r\n'
    b'\x1b[?2004hroot@gpu01:~# exit\r\n'
    b'\x1b[?2004l\r'
    b'exit\r\n'
    b'\n'
    b'Script done on 2026-12-05 22:55:02+00:00 [COMMAND_EXIT_CODE="127"]\n')


def _analyzed(tmp_path: Path, data: bytes) -> dict:
    path = tmp_path / "typescript"
    path.write_bytes(data)
    return analyze_path(path).to_json()


def test_a_script_stopped_by_set_e_is_a_failed_call_with_its_error(tmp_path: Path) -> None:
    doc = _analyzed(tmp_path, SET_E)
    got = {c["command"]: c["is_error"] for c in doc["commands"] if c["host"] == "gpu01"}
    assert got == {"./deploy.sh": True, "bash deploy2.sh": True, "bash -x ./deploy.sh": True, "sh deploy.sh": True,
                   "exit": False}
    cp = "cp: cannot stat '/models/nope/config.json': No such file or directory"
    assert [e["message"] for e in doc["errors"]] == [
        cp, "mkdir: cannot create directory \u2018/proc/xx\u2019: No such file or directory", cp, cp]


def test_a_script_that_went_on_is_no_failure_and_bash_s_own_refusal_is_one(tmp_path: Path) -> None:
    doc = _analyzed(tmp_path, WENT_ON)
    got = {c["command"]: c["is_error"] for c in doc["commands"] if c["host"] == "gpu01"}
    # ./goon.sh: a report line after ls's failure; bash -x: `+ true` ran after it
    assert got == {"./goon.sh": False, "bash -x goon2.sh": False, "./nvcc.sh": True, "exit": False}
    assert [e["message"] for e in doc["errors"]] == ["./nvcc.sh: line 3: trtllm-build: command not found"]
