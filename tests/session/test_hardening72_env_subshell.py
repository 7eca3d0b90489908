"""A shell opened through env (``env CUDA_VISIBLE_DEVICES=1 bash``, ``env -i PS1="$ " bash``) was
no shell the log followed: its ``exit`` left the login it was typed in, and the commands after it
at gpu01's hostless prompt had no host. env runs the command with the variables it is given
(coreutils env(1): its options, ``-u NAME`` and ``-C DIR`` with a value, then NAME=VALUE, then the
command): the shell opens as a bare ``bash`` does. The second log is a real recording (bash 5.2
under util-linux script 2.38.1)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """me@laptop:~$ ssh gpu01
Last login: Mon Dec  7 06:00:00 2026 from 10.0.0.2
$ exec bash
$ env CUDA_VISIBLE_DEVICES=1 bash
$ nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
$ exit
exit
$ env HF_HOME=/data/hf python3 -c 'import sglang'
$ nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
$ exit
logout
Connection to gpu01 closed.
me@laptop:~$ hostname
laptop
"""

RECORDED = (
    b'Script started on 2026-12-07 07:44:21+00:00 [COMMAND="bash --norc -i" <not executed on terminal>]\n'
    b'env -i PS1="$ " PATH=/usr/bin:/bin bash --norc -i\r\n'
    b'false\r\n'
    b'exit\r\n'
    b'exit\r\n'
    b'\x1b[?2004hroot@vm:~# env -i PS1="$ " PATH=/usr/bin:/bin bash --norc -i\r\n'
    b'\x1b[?2004l\r'
    b'$ false\r\n'
    b'$ exit\r\n'
    b'exit\r\n'
    b'\x1b[?2004hroot@vm:~# exit\r\n'
    b'\x1b[?2004l\r'
    b'exit\r\n'
    b'\n'
    b'Script done on 2026-12-07 07:44:22+00:00 [COMMAND_EXIT_CODE="1"]\n')


def test_a_shell_env_opened_is_left_with_its_own_exit(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text(LOG)
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"]) for c in doc["commands"]] == [
        ("ssh gpu01", "gpu01"), ("exec bash", "gpu01"),  # (exec: the same shell, no other)
        ("env CUDA_VISIBLE_DEVICES=1 bash", "gpu01"), ("nvidia-smi -L", "gpu01"), ("exit", "gpu01"),
        ("env HF_HOME=/data/hf python3 -c 'import sglang'", "gpu01"), ("nvidia-smi -L", "gpu01"),
        ("exit", "gpu01"), ("hostname", "laptop")]


def test_a_recorded_shell_env_opened(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_bytes(RECORDED)
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"]) for c in doc["commands"]][1:] == [
        ('env -i PS1="$ " PATH=/usr/bin:/bin bash --norc -i', "vm"), ("false", "vm"), ("exit", "vm"), ("exit", "vm")]
