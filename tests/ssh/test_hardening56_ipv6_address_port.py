"""An IPv6 host's address and port in messages: `[::1]:2222`, as known_hosts and `ssh -J`
write it. Bare (`connection refused by ::1:2222`, `2001:db8::5:22`) the port read as part of
another address. `--host [::1]` is taken as `::1` (ssh(1) keeps the brackets and cannot resolve
`[::1]`; spec-debug is the more forgiving), and `[::1]:PORT` gives the port."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Iterator

import pytest

from tests.conftest import run_cli


@pytest.fixture
def refused_v6_port() -> Iterator[int]:
    """A port of ::1 bound and never listened on: connections to it are refused."""
    try:
        sock = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        sock.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    yield int(sock.getsockname()[1])
    sock.close()


def test_refused_ipv6_host_names_its_address_in_brackets(tmp_path: Path, refused_v6_port: int) -> None:
    playbook = tmp_path / "pb.yaml"
    playbook.write_text("name: t\nsteps:\n  - id: hello\n    run: echo hi\n")
    done = run_cli("run", str(playbook), "--host", f"[::1]:{refused_v6_port}", "-F", "none", "--batch",
                   "-o", str(tmp_path / "out"))
    out = done.stdout + done.stderr
    assert done.code == 3, out
    assert f"connection refused by [::1]:{refused_v6_port}" in out, out
    assert f"::1:{refused_v6_port}" not in out.replace(f"[::1]:{refused_v6_port}", "")
    record = json.loads(next((tmp_path / "out").glob("*/run.json")).read_text())
    hosts = record["hosts"] if isinstance(record["hosts"], list) else list(record["hosts"].values())
    assert [h["name"] for h in hosts] == [f"[::1]:{refused_v6_port}"]  # the name as given
    assert f"[::1]:{refused_v6_port}" in hosts[0]["error"]
