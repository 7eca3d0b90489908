"""``zsh -x launch.sh`` traces each command as ``+launch.sh:2> ssh gpu02 ...`` (zshparam(1),
PS4 ``+%N:%i> ``): the remote error after that line ran on gpu02, as after bash's ``+ ssh``.
Before: only bash's ``+ `` lead was read, so the CUDA error was gpu01's. The typescript is a
bash 5.2.15 session (running zsh 5.9 -x) recorded with util-linux script 2.38.1, its zshenv PATH
trace line shortened; gpu02 is an ssh_config alias of a real OpenSSH server on loopback
(tests/sshd_fixture.py)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

ZSH_TRACE = b"".join([
    b'Script started on 2026-12-06 02:40:35+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" '
    b'TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n',
    b"\x1b[?2004hbash-5.2# export PS1='root@gpu01:~# '\r\n",
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# cd /tmp/terminal-scratch/rec\r\n',
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# zsh -x launch.sh\r\n',
    b'\x1b[?2004l\r+/etc/zsh/zshenv:15> [[ -z /root/.pyenv/shims:/usr/local/bin:/usr/bin:/bin || '
    b'/root/.pyenv/shims:/usr/local/bin:/usr/bin:/bin == /bin:/usr/bin ]]\r\n',
    b"+launch.sh:1> echo 'checking draft on gpu02'\r\n",
    b'checking draft on gpu02\r\n',
    b'+launch.sh:2> ssh -F cfg gpu02 python3 -c \\\'\'raise RuntimeError("CUDA error: an illegal memory access '
    b'was encountered")\'\\\'\r\n',
    b'Traceback (most recent call last):\r\n',
    b'  File "<string>", line 1, in <module>\r\n',
    b'RuntimeError: CUDA error: an illegal memory access was encountered\r\n',
    b"+launch.sh:3> echo 'launch finished'\r\n",
    b'launch finished\r\n',
    b'\x1b[?2004hroot@gpu01:~# echo end\r\n',
    b'\x1b[?2004l\rend\r\n',
    b'\x1b[?2004hroot@gpu01:~# exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 02:40:41+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_an_error_after_a_zsh_traced_ssh_is_the_remote_hosts(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(ZSH_TRACE)
    errors = analyze_path(path).to_json()["errors"]
    assert [(e["exception"], e["host"]) for e in errors] == [("RuntimeError", "gpu02")]
