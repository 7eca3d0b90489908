"""``bash -x launch.sh`` typed on a login host, the script's last command an ssh to a GPU host: the
trace names it (``+ ssh gpu02 'python3 ...'``) and what follows is gpu02's output. Before: the
CUDA OOM it printed was login01's, the prompt's host. An error printed before the ssh's trace line
(the script's own, on login01) stays login01's. A bash 5.2.15 session recorded with util-linux
script 2.38.1, ssh to a real sshd (tests/sshd_fixture.py) as gpu02 (its ssh_config through a
wrapper on PATH)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

TRACED = (
    b'Script started on 2026-12-05 23:03:51+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xt'
    b'erm" TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n'
    b'\x1b[?2004hbash-5.2# export PATH=/tmp/formats4-scratch/bin:$PATH\r\n'
    b'\x1b[?2004l\r'
    b"\x1b[?2004hbash-5.2# export PS1='me@login01:~$ '\r\n"
    b'\x1b[?2004l\r'
    b'\x1b[?2004hme@login01:~$ bash -x ./launch_ssh.sh\r\n'
    b'\x1b[?2004l\r'
    b'+ MODEL=/models/llama\r\n'
    b'+ ssh gpu02 \'python3 -c \'\\\'\'raise RuntimeError("CUDA error: out of memory")\'\\\'\'\'\r\n'
    b'Traceback (most recent call last):\r\n'
    b'  File "<string>", line 1, in <module>\r\n'
    b'RuntimeError: CUDA error: out of memory\r\n'
    b'\x1b[?2004hme@login01:~$ bash -x ./launch_ssh2.sh\r\n'
    b'\x1b[?2004l\r'
    b'+ python3 -c \'raise RuntimeError("CUDA error: out of memory")\'\r\n'
    b'Traceback (most recent call last):\r\n'
    b'  File "<string>", line 1, in <module>\r\n'
    b'RuntimeError: CUDA error: out of memory\r\n'
    b'+ ssh gpu02 true\r\n'
    b'\x1b[?2004hme@login01:~$ exit\r\n'
    b'\x1b[?2004l\r'
    b'exit\r\n'
    b'\n'
    b'Script done on 2026-12-05 23:03:56+00:00 [COMMAND_EXIT_CODE="0"]\n')


def test_an_error_after_a_traced_ssh_is_the_remote_host_s(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(TRACED)
    doc = analyze_path(path).to_json()
    by_command = {c["seq"]: c["command"] for c in doc["commands"]}
    got = [(by_command[e["command_seq"]], e["kind"], e["host"]) for e in doc["errors"]]
    assert got == [("bash -x ./launch_ssh.sh", "cuda_oom", "gpu02"), ("bash -x ./launch_ssh2.sh", "cuda_oom", "login01")]
    # the commands were typed on login01
    assert {c["command"]: c["host"] for c in doc["commands"]}["bash -x ./launch_ssh.sh"] == "login01"
