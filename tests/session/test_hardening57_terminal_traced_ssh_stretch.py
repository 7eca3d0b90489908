"""``bash -x launch.sh`` whose ``+ ssh gpu02 ...`` trace line is followed by the remote command's
error and then by more trace lines (``+ echo 'launch finished'``): the error ran on gpu02.
Before: only an ssh traced last moved the output to its host, so the remote CUDA error was
gpu01's. An error the script printed itself before the ssh stays gpu01's. The typescripts are
bash 5.2.15 sessions recorded with util-linux script 2.38.1; gpu02 is an ssh_config alias of a
real OpenSSH server on loopback (tests/sshd_fixture.py)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

_START = (b'Script started on 2026-12-06 02:10:18+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" '
          b'TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n'
          b"\x1b[?2004hbash-5.2# export PS1='root@gpu01:~# '\r\n"
          b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# cd /tmp/terminal-scratch/rec\r\n')
_DONE = (b'\x1b[?2004hroot@gpu01:~# exit\r\n'
         b'\x1b[?2004l\rexit\r\n'
         b'\n'
         b'Script done on 2026-12-06 02:10:27+00:00 [COMMAND_EXIT_CODE="0"]\n')

REMOTE_ERROR_MID_TRACE = _START + b"".join([
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# bash -x launch.sh\r\n',
    b"\x1b[?2004l\r+ echo 'checking draft on gpu02'\r\n",
    b'checking draft on gpu02\r\n',
    b'+ ssh -F cfg gpu02 python3 -c \'\'\\\'\'raise RuntimeError("CUDA error: an illegal memory access was '
    b'encountered")\'\\\'\'\'\r\n',
    b'Traceback (most recent call last):\r\n',
    b'  File "<string>", line 1, in <module>\r\n',
    b'RuntimeError: CUDA error: an illegal memory access was encountered\r\n',
    b"+ echo 'launch finished'\r\n",
    b'launch finished\r\n',
]) + _DONE

LOCAL_ERROR_BEFORE_SSH = _START + b"".join([
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# bash -x launch3.sh\r\n',
    b"\x1b[?2004l\r+ python3 -c 'import sglang_missing'\r\n",
    b'Traceback (most recent call last):\r\n',
    b'  File "<string>", line 1, in <module>\r\n',
    b"ModuleNotFoundError: No module named 'sglang_missing'\r\n",
    b'+ ssh -F cfg gpu02 nproc\r\n',
    b'2\r\n',
    b"+ echo 'launch finished'\r\n",
    b'launch finished\r\n',
]) + _DONE


def _errors(tmp_path: Path, data: bytes) -> list[dict]:
    path = tmp_path / "typescript"
    path.write_bytes(data)
    return analyze_path(path).to_json()["errors"]


def test_an_error_after_a_traced_ssh_line_is_the_remote_hosts(tmp_path: Path) -> None:
    errors = _errors(tmp_path, REMOTE_ERROR_MID_TRACE)
    assert [(e["exception"], e["host"]) for e in errors] == [("RuntimeError", "gpu02")]


def test_an_error_the_script_printed_before_the_ssh_stays_local(tmp_path: Path) -> None:
    errors = _errors(tmp_path, LOCAL_ERROR_BEFORE_SSH)
    assert [(e["exception"], e["host"]) for e in errors] == [("ModuleNotFoundError", "gpu01")]
