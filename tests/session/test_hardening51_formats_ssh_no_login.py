"""In a terminal log whose prompt shows no host (``$``), an ``ssh`` with no remote command is a
login: the commands typed next ran on that host. ssh opens no shell with ``-G`` (print the
configuration it would use), ``-O check|exit`` (ask a control master), ``-W host:port`` (stdio
forwarding) or ``-Q`` (ssh(1)); those were read as logins, and every later command of the log was
put on gpu01. And a letter of an option's value (``-lfred``) was read as ``-f``, so a login as
fred moved nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path


def _hosts(tmp_path: Path, log: str) -> list[tuple[str, str | None]]:
    path = tmp_path / "laptop.log"
    path.write_text(log)
    return [(c["command"], c["host"]) for c in analyze_path(path).to_json()["commands"]]


@pytest.mark.parametrize("first, said, host", [
    # -G and -O connect to no host: they ran here (test_hardening57_terminal_ssh_local_only.py)
    ("ssh -G gpu01", "user root\nhostname 10.0.0.5\nport 22", None),
    ("ssh -O check gpu01", "Master running (pid=41233)", None),
    ("ssh -O exit gpu01", "Exit request sent.", None),
    ("ssh -W localhost:22 gpu01", "SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13", "gpu01"),
])
def test_an_ssh_that_opens_no_shell_moves_no_later_command(tmp_path: Path, first: str, said: str,
                                                            host: str | None) -> None:
    assert _hosts(tmp_path, f"$ {first}\n{said}\n$ curl -s localhost:30000/health\nok\n") == [
        (first, host), ("curl -s localhost:30000/health", None)]


def test_a_login_name_with_an_f_in_it_is_still_a_login(tmp_path: Path) -> None:
    assert _hosts(tmp_path, "$ ssh -lfred gpu01\nWelcome to Ubuntu 22.04\n$ nvidia-smi -L\nGPU 0: NVIDIA H100\n") == [
        ("ssh -lfred gpu01", "gpu01"), ("nvidia-smi -L", "gpu01")]


def test_logins_and_tunnels_read_as_before(tmp_path: Path) -> None:
    log = ("$ ssh -fN -L 30000:localhost:30000 gpu02\n$ curl -s localhost:30000/health\nok\n"
           "$ ssh -i ~/.ssh/fleet.pem -o ForwardAgent=yes gpu01\nWelcome\n$ nvidia-smi -L\nGPU 0: NVIDIA H100\n")
    assert _hosts(tmp_path, log) == [
        ("ssh -fN -L 30000:localhost:30000 gpu02", "gpu02"), ("curl -s localhost:30000/health", None),
        ("ssh -i ~/.ssh/fleet.pem -o ForwardAgent=yes gpu01", "gpu01"), ("nvidia-smi -L", "gpu01")]
