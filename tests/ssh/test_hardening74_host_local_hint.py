"""`spec-debug run PLAYBOOK --host LOCAL` (run's own word for this machine, in capitals) was
looked up as a host name: "cannot resolve host name 'local'" and a hint to check the name; and
`--host localhost` on a machine with no sshd was "connection refused by localhost:22" and "is
sshd running". Neither named `--host local`, which runs the playbook here without ssh: the
hint now says it, after the hint that was there. Other hosts keep their hints as they were."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Callable

import pytest

from tests.conftest import run_cli

_PLAYBOOK = "name: t\nsteps:\n  - id: s1\n    run: echo hi\n"


def _run(tmp_path: Path, host: str):
    playbook = tmp_path / "pb.yaml"
    playbook.write_text(_PLAYBOOK, encoding="utf-8")
    config = tmp_path / "ssh_config"
    config.write_text("", encoding="utf-8")
    return run_cli("run", str(playbook), "--host", host, "--batch", "-F", str(config), "--out", str(tmp_path / "runs"),
                   "--connect-timeout", "5", cwd=tmp_path)


def _hint_after(stderr: str, first: str) -> str:
    lines = stderr.splitlines()
    return lines[lines.index(first) + 1]


def test_local_in_capitals_names_the_lower_case_word(tmp_path: Path) -> None:
    try:
        socket.getaddrinfo("local", 22)
        pytest.skip("'local' resolves on this machine")
    except socket.gaierror:
        pass
    result = _run(tmp_path, "LOCAL")
    assert result.code == 3, result.stderr
    error = next(line for line in result.stderr.splitlines() if line.startswith("host LOCAL error: "))
    assert error.startswith("host LOCAL error: LOCAL: cannot resolve host name 'local' (")
    assert _hint_after(result.stderr, error) == (
        "  hint: check the name, or its HostName in your ssh config; "
        "to run on this machine without ssh: `--host local` (lower case)")


def _port_22_open() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 22), timeout=2).close()
        return True
    except OSError:
        return False


def test_localhost_with_no_sshd_names_host_local(tmp_path: Path) -> None:
    if _port_22_open():
        pytest.skip("an sshd listens on this machine's port 22")
    result = _run(tmp_path, "localhost")
    assert result.code == 3, result.stderr
    assert _hint_after(result.stderr, "host localhost error: localhost: connection refused by localhost:22") == (
        "  hint: is sshd running and listening on that port? To run on this machine without ssh: `--host local`")


def test_another_host_keeps_its_hint(tmp_path: Path, closed_port: Callable[[], int]) -> None:
    port = closed_port()
    result = _run(tmp_path, f"127.0.0.1:{port}")
    assert result.code == 3, result.stderr
    assert _hint_after(result.stderr, f"host 127.0.0.1:{port} error: 127.0.0.1: connection refused by 127.0.0.1:{port}") \
        == "  hint: is sshd running and listening on that port?"
