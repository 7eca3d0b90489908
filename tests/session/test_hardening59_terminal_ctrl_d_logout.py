"""``ssh gpu02`` (an ssh_config with ``LogLevel ERROR``), a command there, then Ctrl-D at gpu02's
prompt: bash, a login shell there, prints "logout" and ends; ssh prints no "Connection to ...
closed." below LogLevel INFO (openssh-portable clientloop.c, quit_message). Before: the local
commands after it were gpu02's (nothing said the login ended: no ``exit`` typed, no closed line).
Now a prompt with nothing typed followed by "logout" ends the login as ``exit`` would. The
typescript is a bash 5.2.15 session recorded with util-linux script 2.38.1, ssh OpenSSH 9.2 to
tests/sshd_fixture.py's sshd."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

CTRL_D_LEAVES_SSH = b"".join([
    b'Script started on 2026-12-06 05:17:27+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm-256color" TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n',
    b"\x1b[?2004hbash-5.2# alias ssh='ssh -F /tmp/terminal4-scratch/sshd4/ssh_config'\r\n",
    b'\x1b[?2004l\r',
    b'\x1b[?2004hbash-5.2# ssh gpu02\r\n',
    b'\x1b[?2004l\r',
    b'Last login: Sun Dec  6 05:13:40 2026 from 127.0.0.1\r',
    b'\r\n',
    b'\x1b[?2004hroot@vm:~# ls /nonexistent-remote\r\n',
    b'\x1b[?2004l\r',
    b"ls: cannot access '/nonexistent-remote': No such file or directory\r\n",
    b'\x1b[?2004hroot@vm:~# \x1b[?2004l\r',
    b'\r\n',
    b'logout\r\n',
    b'\x1b[?2004hbash-5.2# ls /nonexistent-local\r\n',
    b'\x1b[?2004l\r',
    b"ls: cannot access '/nonexistent-local': No such file or directory\r\n",
    b'\x1b[?2004hbash-5.2# python3 -c \'print("Throughput: 41.0 tok/s")\'\r\n',
    b'\x1b[?2004l\r',
    b'Throughput: 41.0 tok/s\r\n',
    b'\x1b[?2004hbash-5.2# exit\r\n',
    b'\x1b[?2004l\r',
    b'exit\r\n',
    b'\n',
    b'Script done on 2026-12-06 05:17:36+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_ctrl_d_at_the_remote_prompt_ends_the_login(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(CTRL_D_LEAVES_SSH)
    doc = analyze_path(path).to_json()
    hosts = {c["command"]: c["host"] for c in doc["commands"]}
    assert (hosts["ls /nonexistent-remote"], hosts["ls /nonexistent-local"]) == ("gpu02", None)
    assert doc["hosts"] == ["gpu02"]
    assert [m["host"] for m in doc["metrics"] if m["name"] == "throughput"] == [None]
