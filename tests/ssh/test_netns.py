"""Real network faults between namespaces the test creates: a link that goes dark mid-step
and an address nobody answers. Needs root and `ip netns`; skipped elsewhere.

Layout (every address lives inside a namespace created here; the machine's own network is
never touched): client ns <-veth-> host ns, 10.213.7.0/29, sshd at 10.213.7.2:22. The
CLI runs inside the client namespace.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

from tests.sshd_fixture import ClientKey, SshServer, write_ssh_config

pytestmark = pytest.mark.netns


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True)


@dataclass
class Lab:
    client_ns: str
    host_ns: str
    host_link: str
    server: SshServer


@pytest.fixture
def lab(tmp_path: Path, client_key: ClientKey) -> Iterator[Lab]:
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("needs root and iproute2")
    tag = uuid.uuid4().hex[:6]
    client_ns, host_ns = f"sdc{tag}", f"sdh{tag}"
    client_link, host_link = f"vc{tag}", f"vh{tag}"
    try:
        ip("netns", "add", client_ns)
    except subprocess.CalledProcessError:
        pytest.skip("cannot create network namespaces here")
    server: SshServer | None = None
    try:
        ip("netns", "add", host_ns)
        ip("link", "add", client_link, "netns", client_ns, "type", "veth", "peer", "name", host_link, "netns", host_ns)
        for ns, link, address in ((client_ns, client_link, "10.213.7.1/29"), (host_ns, host_link, "10.213.7.2/29")):
            ip("-n", ns, "addr", "add", address, "dev", link)
            ip("-n", ns, "link", "set", link, "up")
            ip("-n", ns, "link", "set", "lo", "up")
        server = SshServer(tmp_path / "sshd", [client_key], address="10.213.7.2", netns=host_ns).start()
        yield Lab(client_ns, host_ns, host_link, server)
    finally:
        if server is not None:
            server.stop()
        for ns in (client_ns, host_ns):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def test_a_link_that_goes_dark_mid_step_fails_that_host_within_the_keepalive_bound(lab: Lab, client_key: ClientKey, tmp_path: Path) -> None:
    known_hosts = tmp_path / "known_hosts"
    known_hosts.write_text(f"10.213.7.2 {' '.join(Path(str(lab.server.host_key_path) + '.pub').read_text().split()[:2])}\n")
    common = {"IdentityFile": client_key.path, "UserKnownHostsFile": known_hosts, "ConnectTimeout": 3, "ServerAliveInterval": 1, "ServerAliveCountMax": 2}
    config = write_ssh_config(tmp_path / "ssh_config", {"gpu01": {"HostName": "10.213.7.2", **common}, "ghost": {"HostName": "10.213.7.5", **common}})
    playbook = tmp_path / "long.yaml"
    playbook.write_text("name: long\ndescription: long\nsteps:\n  - id: first\n    title: t\n    why: w\n    run: echo up\n  - id: long\n    title: t\n    why: w\n    run: sleep 100\n    timeout: 110\n")
    out = tmp_path / "runs"
    cut_at: list[float] = []

    def cut_the_link_once_the_step_runs() -> None:
        from spec_debug.runner.proctree import descendants

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for pid in descendants(lab.server.process.pid) if lab.server.process else []:
                try:
                    if Path(f"/proc/{pid}/cmdline").read_bytes().startswith(b"sleep\0"):
                        ip("-n", lab.host_ns, "link", "set", lab.host_link, "down")
                        cut_at.append(time.monotonic())
                        return
                except OSError:
                    continue
            time.sleep(0.05)

    threading.Thread(target=cut_the_link_once_the_step_runs, daemon=True).start()
    env = {**os.environ, "HOME": str(tmp_path), "COLUMNS": "200"}
    env.pop("SSH_AUTH_SOCK", None)
    result = subprocess.run(
        ["ip", "netns", "exec", lab.client_ns, sys.executable, "-m", "spec_debug", "run", str(playbook),
         "--host", "gpu01", "--host", "ghost", "-F", str(config), "--batch", "--out", str(out)],
        capture_output=True, text=True, timeout=180, env=env,
    )
    finished = time.monotonic()
    assert cut_at, "the long step never started"
    assert result.returncode == 3, result.stderr
    record = json.loads(next(out.iterdir()).joinpath("run.json").read_text())
    hosts = {h["name"]: h for h in record["hosts"]}
    assert hosts["gpu01"]["status"] == "error" and "connection lost" in hosts["gpu01"]["error"], hosts["gpu01"]
    # ServerAliveInterval 1 x (CountMax 2 + 1): noticed in seconds, not after TCP's ~15 minutes
    # nor at the step's 110 s timeout (40 s: far from both on a loaded machine).
    assert finished - cut_at[0] < 40
    assert hosts["ghost"]["status"] == "error" and "10.213.7.5" in hosts["ghost"]["error"], hosts["ghost"]
