"""``ssh bastion``, then ``ssh gpu02`` from there, where both machines' prompts say ``root@vm``
(images and VMs share hostnames; here both logins reach the real sshd fixture, whose machine is
named vm), then ``exit`` twice. Before: the first prompt after ``ssh bastion`` made "vm" bastion's
name, so gpu02's commands (its prompt says vm too) were bastion's. Now a login that said it opened
("Last login: ...") and shows the same prompt host as the shell it was typed in keeps that name
for itself while it lasts: gpu02's ``ls`` is gpu02's, bastion's after the first ``exit``, the
local shell's after the second. The typescript is a bash 5.2.15 session recorded with util-linux
script 2.38.1, ssh OpenSSH 9.2 to tests/sshd_fixture.py's sshd."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

NESTED_SAME_PROMPT = b"".join([
    b'Script started on 2026-12-06 05:13:35+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm-256color" TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n',
    b"\x1b[?2004hbash-5.2# alias ssh='ssh -F /tmp/terminal4-scratch/sshd3/ssh_config'\r\n",
    b'\x1b[?2004l\r',
    b'\x1b[?2004hbash-5.2# ssh bastion\r\n',
    b'\x1b[?2004l\r',
    b'Last login: Sun Dec  6 05:06:22 2026 from 127.0.0.1\r',
    b'\r\n',
    b'\x1b[?2004hroot@vm:~# ssh -F /tmp/terminal4-scratch/sshd3/ssh_config gpu02\r\n',
    b'\x1b[?2004l\r',
    b'Last login: Sun Dec  6 05:13:37 2026 from 127.0.0.1\r',
    b'\r\n',
    b'\x1b[?2004hroot@vm:~# ls /nonexistent-gpu02\r\n',
    b'\x1b[?2004l\r',
    b"ls: cannot access '/nonexistent-gpu02': No such file or directory\r\n",
    b'\x1b[?2004hroot@vm:~# exit\r\n',
    b'\x1b[?2004l\r',
    b'logout\r\n',
    b'\x1b[?2004hroot@vm:~# ls /nonexistent-bastion\r\n',
    b'\x1b[?2004l\r',
    b"ls: cannot access '/nonexistent-bastion': No such file or directory\r\n",
    b'\x1b[?2004hroot@vm:~# exit\r\n',
    b'\x1b[?2004l\r',
    b'logout\r\n',
    b'\x1b[?2004hbash-5.2# ls /nonexistent-local\r\n',
    b'\x1b[?2004l\r',
    b"ls: cannot access '/nonexistent-local': No such file or directory\r\n",
    b'\x1b[?2004hbash-5.2# exit\r\n',
    b'\x1b[?2004l\r',
    b'exit\r\n',
    b'\n',
    b'Script done on 2026-12-06 05:13:47+00:00 [COMMAND_EXIT_CODE="2"]\n',
])


def test_a_nested_login_with_the_same_prompt_host_is_the_logins(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(NESTED_SAME_PROMPT)
    doc = analyze_path(path).to_json()
    hosts = {c["command"]: c["host"] for c in doc["commands"]}
    assert (hosts["ls /nonexistent-gpu02"], hosts["ls /nonexistent-bastion"], hosts["ls /nonexistent-local"]) == (
        "gpu02", "bastion", None)
    assert [(e["message"].split("'")[1], e["host"]) for e in doc["errors"]] == [
        ("/nonexistent-gpu02", "gpu02"), ("/nonexistent-bastion", "bastion"), ("/nonexistent-local", None)]
