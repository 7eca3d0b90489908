"""``ssh -J ubuntu@bastion-nosuch gpu02 ...`` whose jump host's name did not resolve, and ``ssh -J
127.0.0.1:1 gpu02 ...`` whose jump host refused: ssh names the host it failed to reach ("ssh:
Could not resolve hostname bastion-nosuch: ...", "ssh: connect to host 127.0.0.1 port 1:
Connection refused"), the jump host, and gpu02 was never reached. The error is the jump host's.
Before: gpu02's. The typescript is a bash 5.2.15 session (OpenSSH client) recorded with
util-linux script 2.38.1."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

JUMP_FAILED = b"".join([
    b'Script started on 2026-12-06 03:02:37+00:00 [COMMAND="bash --norc --noprofile -i" <not executed on terminal>]\n',
    b"\x1b[?2004hbash-5.2# export PS1='ubuntu@gpu-node-7:~/sglang$ '\r\n",
    b'\x1b[?2004l\r',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ ssh -o BatchMode=yes -J ubuntu@bastion-nosuch gpu02 nvidia-smi\r\n',
    b'\x1b[?2004l\r',
    b'ssh: Could not resolve hostname bastion-nosuch: Name or service not known\r',
    b'\r\n',
    b'kex_exchange_identification: Connection closed by remote host\r',
    b'\r\n',
    b'Connection closed by UNKNOWN port 65535\r',
    b'\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ ssh -o BatchMode=yes -J 127.0.0.1:1 gpu02 nvidia-smi \r',
    b'\x1b[A\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[Ki\r\n',
    b'\x1b[?2004l\r',
    b'ssh: connect to host 127.0.0.1 port 1: Connection refused\r',
    b'\r\n',
    b'kex_exchange_identification: Connection closed by remote host\r',
    b'\r\n',
    b'Connection closed by UNKNOWN port 65535\r',
    b'\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ exit\r\n',
    b'\x1b[?2004l\r',
    b'exit\r\n',
    b'\n',
    b'Script done on 2026-12-06 03:02:42+00:00 [COMMAND_EXIT_CODE="255"]\n',
])


def test_a_jump_hosts_connection_failure_is_the_jump_hosts(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(JUMP_FAILED)
    doc = analyze_path(path).to_json()
    assert [c["host"] for c in doc["commands"] if c["command"].startswith("ssh ")] == ["gpu02", "gpu02"]
    assert [(e["host"], e["kind"]) for e in doc["errors"]] == [("bastion-nosuch", "connection"),
                                                                ("127.0.0.1", "connection")]
