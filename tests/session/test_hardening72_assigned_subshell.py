"""A shell opened with variables set for it (``CUDA_VISIBLE_DEVICES=1 bash``, ``PS1="$ " bash``)
was no shell the log followed: its ``exit`` left the login it was typed in, so the commands after
it on gpu01 (at a prompt that shows no host) had no host, and a container shell opened there had
its id for a host. The variables are the shell's own (bash(1), SIMPLE COMMAND EXPANSION: they are
"added to the environment of the executed command"); it opens as a bare ``bash`` does, and ``exit``
leaves it alone. The second log is a real recording (bash 5.2 under util-linux script 2.38.1)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """me@laptop:~$ ssh gpu01
Last login: Mon Dec  7 06:00:00 2026 from 10.0.0.2
$ CUDA_VISIBLE_DEVICES=1 bash
$ nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
$ exit
exit
$ nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
$ docker exec -it sglang bash
root@a1b2c3d4e5f6:/sgl-workspace# CUDA_VISIBLE_DEVICES=1 bash
root@a1b2c3d4e5f6:/sgl-workspace# python3 -c 'import torch'
root@a1b2c3d4e5f6:/sgl-workspace# exit
exit
root@a1b2c3d4e5f6:/sgl-workspace# ls
root@a1b2c3d4e5f6:/sgl-workspace# exit
exit
$ HF_HOME=/data/hf python3 -c 'import sglang'
$ exit
logout
Connection to gpu01 closed.
me@laptop:~$ hostname
laptop
"""

RECORDED = (
    b'Script started on 2026-12-07 07:33:38+00:00 [COMMAND="bash --norc -i" <not executed on terminal>]\n'
    b'PS1="$ " bash --norc -i\r\n'
    b'false\r\n'
    b'exit\r\n'
    b'exit\r\n'
    b'\x1b[?2004hroot@vm:~# PS1="$ " bash --norc -i\r\n'
    b'\x1b[?2004l\r'
    b'\x1b[?2004h$ false\r\n'
    b'\x1b[?2004l\r'
    b'\x1b[?2004h$ exit\r\n'
    b'\x1b[?2004l\r'
    b'exit\r\n'
    b'\x1b[?2004hroot@vm:~# exit\r\n'
    b'\x1b[?2004l\r'
    b'exit\r\n'
    b'\n'
    b'Script done on 2026-12-07 07:33:38+00:00 [COMMAND_EXIT_CODE="1"]\n')


def test_a_shell_given_variables_is_left_with_its_own_exit(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text(LOG)
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"], c["container"]) for c in doc["commands"]] == [
        ("ssh gpu01", "gpu01", None),
        ("CUDA_VISIBLE_DEVICES=1 bash", "gpu01", None), ("nvidia-smi -L", "gpu01", None), ("exit", "gpu01", None),
        ("nvidia-smi -L", "gpu01", None),
        ("docker exec -it sglang bash", "gpu01", "docker:sglang"),
        ("CUDA_VISIBLE_DEVICES=1 bash", "gpu01", "docker:sglang"),
        ("python3 -c 'import torch'", "gpu01", "docker:sglang"), ("exit", "gpu01", "docker:sglang"),
        ("ls", "gpu01", "docker:sglang"), ("exit", "gpu01", "docker:sglang"),
        # a program given variables opens no shell
        ("HF_HOME=/data/hf python3 -c 'import sglang'", "gpu01", None), ("exit", "gpu01", None),
        ("hostname", "laptop", None)]


def test_a_recorded_shell_given_its_prompt(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_bytes(RECORDED)
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"]) for c in doc["commands"]][1:] == [
        ('PS1="$ " bash --norc -i', "vm"), ("false", "vm"), ("exit", "vm"), ("exit", "vm")]
