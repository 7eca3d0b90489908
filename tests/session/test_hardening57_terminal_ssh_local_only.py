"""``ssh -O check gpu02`` asks this machine's multiplexing master over its socket and ``ssh -G
gpu02`` prints the configuration and exits (ssh(1); openssh-portable ssh.c, mux.c muxclient):
neither connects to gpu02, and what they print ("Control socket connect(...): No such file or
directory", "port 2222") is this machine's. Before: both commands ran on gpu02. ``ssh gpu02 ls
-G`` still runs ls there. The typescript is a bash 5.2.15 session (OpenSSH client) recorded with
util-linux script 2.38.1 (the type-ahead echo before bash's first prompt left out)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.shell import parse_target, ssh_words

LOCAL_ONLY = b"".join([
    b'Script started on 2026-12-06 03:13:52+00:00 [COMMAND="bash --norc --noprofile -i" <not executed on terminal>]\n',
    b"\x1b[?2004hbash-5.2# export PS1='ubuntu@gpu-node-7:~/sglang$ '\r\n",
    b'\x1b[?2004l\r\x1b[?2004hubuntu@gpu-node-7:~/sglang$ ssh -O check -o ControlPath=/tmp/terminal3-scratch/cm gpu02\r\n',
    b'\x1b[?2004l\rControl socket connect(/tmp/terminal3-scratch/cm): No such file or directory\r\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ ssh -G gpu02 -p 2222 | grep -w port\r\n',
    b'\x1b[?2004l\rport 2222\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 03:13:52+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_ssh_that_connects_nowhere_runs_on_the_prompt_host(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(LOCAL_ONLY)
    doc = analyze_path(path).to_json()
    assert [c["host"] for c in doc["commands"] if c["command"].startswith("ssh ")] == ["gpu-node-7", "gpu-node-7"]


def test_option_spellings() -> None:
    for command in ("ssh -G gpu02", "ssh gpu02 -G", "ssh -vG gpu02", "ssh -Oexit gpu02", "ssh -O exit gpu02"):
        assert parse_target(command).host is None, command
    assert ssh_words(["-O", "exit", "gpu02"]).local_only
    # a -G of the remote command is ls's, and a later ssh on the line still counts
    assert parse_target("ssh gpu02 ls -G").host == "gpu02"
    assert parse_target("ssh -O exit gpu02; ssh gpu03 nvidia-smi").host == "gpu03"
