"""``newgrp docker`` (what the Docker post-install steps say to run after ``usermod -aG docker
$USER``) starts a new shell with the group, and its ``exit`` goes back to the shell it was typed
in (newgrp(1): "a new shell will be started"). Before, no shell was read as opened: that ``exit``
left the ssh login, so the second ``exit``, the one that really left gpu08, and the laptop's
commands after it lost their host or took the wrong one."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """\
me@laptop:~$ ssh gpu08
Welcome to Ubuntu 22.04.4 LTS (GNU/Linux 5.15.0-105-generic x86_64)
$ sudo usermod -aG docker $USER
$ newgrp docker
$ docker ps --format '{{.Names}}'
sglang
$ exit
$ docker logs --tail 1 sglang
INFO:     Application startup complete.
$ exit
logout
Connection to gpu08 closed.
me@laptop:~$ hostname
laptop
"""


def test_newgrp_opens_a_shell_its_exit_leaves(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text(LOG)
    got = [(c["host"], c["command"]) for c in analyze_path(path).to_json()["commands"]]
    assert got == [
        ("gpu08", "ssh gpu08"), ("gpu08", "sudo usermod -aG docker $USER"), ("gpu08", "newgrp docker"),
        ("gpu08", "docker ps --format '{{.Names}}'"), ("gpu08", "exit"),
        ("gpu08", "docker logs --tail 1 sglang"), ("gpu08", "exit"), ("laptop", "hostname"),
    ]
