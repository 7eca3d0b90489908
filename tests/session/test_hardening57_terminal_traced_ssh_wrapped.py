"""``bash -x launch.sh`` whose traced ssh runs behind a wrapper, ``+ timeout 30 ssh gpu02 ...``:
the remote error after that trace line ran on gpu02, as after a bare ``+ ssh``. Before: only a
trace line starting ``+ ssh `` was looked at, so the CUDA error was gpu01's. The typescript is a
bash 5.2.15 session recorded with util-linux script 2.38.1; gpu02 is an ssh_config alias of a
real OpenSSH server on loopback (tests/sshd_fixture.py)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

WRAPPED = b"".join([
    b'Script started on 2026-12-06 02:38:30+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" '
    b'TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n',
    b"\x1b[?2004hbash-5.2# export PS1='root@gpu01:~# '\r\n",
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# cd /tmp/terminal-scratch/rec\r\n',
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# bash -x launch4.sh\r\n',
    b'\x1b[?2004l\r+ timeout 30 ssh -F cfg gpu02 python3 -c \'\'\\\'\'raise RuntimeError("CUDA error: an illegal '
    b'memory access was encountered")\'\\\'\'\'\r\n',
    b'Traceback (most recent call last):\r\n',
    b'  File "<string>", line 1, in <module>\r\n',
    b'RuntimeError: CUDA error: an illegal memory access was encountered\r\n',
    b"+ echo 'launch finished'\r\n",
    b'launch finished\r\n',
    b'\x1b[?2004hroot@gpu01:~# echo end\r\n',
    b'\x1b[?2004l\rend\r\n',
    b'\x1b[?2004hroot@gpu01:~# exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 02:38:36+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_an_error_after_a_wrapped_traced_ssh_is_the_remote_hosts(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(WRAPPED)
    errors = analyze_path(path).to_json()["errors"]
    assert [(e["exception"], e["host"]) for e in errors] == [("RuntimeError", "gpu02")]
