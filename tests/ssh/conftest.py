"""Fixtures for the SSH tests: real sshd servers on loopback and a private client setup.

Every test gets its own HOME (so neither ~/.ssh of the machine nor an ssh-agent is used), a
client key, and an ssh_config alias `target` for the shared server.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
from pathlib import Path
from typing import Callable, Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.sshd_fixture import ClientKey, ClientSetup, SshServer, sshd_available  # noqa: E402

pytestmark = pytest.mark.ssh


@pytest.fixture(autouse=True)
def _no_sshpass_from_the_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    """$SSHPASS is a password source (sshpass -e users): a developer's shell must not change
    what the password tests see. Subprocesses the tests start inherit the cleaned environment."""
    monkeypatch.delenv("SSHPASS", raising=False)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if not sshd_available():
        skip = pytest.mark.skip(reason="OpenSSH sshd not installed (apt-get install openssh-server)")
        for item in items:
            if "tests/ssh/" in str(item.path):
                item.add_marker(skip)


@pytest.fixture(scope="session")
def client_key(tmp_path_factory: pytest.TempPathFactory) -> ClientKey:
    return ClientKey.create(tmp_path_factory.mktemp("client"))


@pytest.fixture(scope="session")
def sshd(tmp_path_factory: pytest.TempPathFactory, client_key: ClientKey) -> Iterator[SshServer]:
    """One server shared by the tests that do not break it."""
    with SshServer(tmp_path_factory.mktemp("sshd"), [client_key]) as server:
        yield server


@pytest.fixture
def sshd_factory(tmp_path: Path, client_key: ClientKey) -> Iterator[Callable[..., SshServer]]:
    """Start extra servers (for tests that kill, reconfigure or need several hosts)."""
    started: list[SshServer] = []

    def start(name: str = "extra", **kwargs: object) -> SshServer:
        server = SshServer(tmp_path / f"sshd-{name}-{len(started)}", [client_key], **kwargs)  # type: ignore[arg-type]
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def client(tmp_path: Path, client_key: ClientKey, sshd: SshServer, monkeypatch: pytest.MonkeyPatch) -> ClientSetup:
    """A private HOME whose ssh config knows `target` (the shared sshd), key trusted."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    setup = ClientSetup(home=home, key=client_key, config=home / ".ssh" / "config", known_hosts=home / ".ssh" / "known_hosts")
    setup.known_hosts.touch()
    setup.alias("target", sshd)
    setup.trust(sshd)
    return setup


@pytest.fixture
def closed_port() -> Iterator[Callable[[], int]]:
    """Ports of 127.0.0.1 that refuse connections for the whole test: each is bound, never
    listened on, and held, so that no server can take it meanwhile. A free_port() is closed
    again at once, and the other xdist worker's next sshd may be given it (free_port there too):
    the "refused" host then answered."""
    held: list[socket.socket] = []

    def take() -> int:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))  # no SO_REUSEADDR: an sshd's bind (which sets it) fails
        held.append(sock)
        return int(sock.getsockname()[1])

    yield take
    for sock in held:
        sock.close()


@pytest.fixture
def thread_errors(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[BaseException]]:
    """Exceptions that escape a thread (paramiko's transport and prefetch threads included):
    Python prints each as a traceback on stderr, in the middle of the run's output."""
    caught: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: caught.append(args.exc_value))
    yield caught


@pytest.fixture
def frozen() -> Iterator[list[int]]:
    """pids a test stopped with SIGSTOP (tests.ssh.faults.freeze); let go (SIGCONT) at the end
    so that the server's stop() can kill them."""
    pids: list[int] = []
    yield pids
    for pid in pids:
        try:
            os.kill(pid, signal.SIGCONT)
        except ProcessLookupError:
            pass


def _accepts(socket_path: Path) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(socket_path))
        except (FileNotFoundError, ConnectionRefusedError):
            return False
    return True


@pytest.fixture
def agent_at() -> Iterator[Callable[[Path, list[str]], Path]]:
    """Start real ssh-agents at given sockets, holding given keys; killed at the end."""
    import shutil
    import subprocess
    import time

    if shutil.which("ssh-agent") is None or shutil.which("ssh-add") is None:
        pytest.skip("ssh-agent not installed")
    agents: list[subprocess.Popen[bytes]] = []

    def start(socket_path: Path, keys: list[str]) -> Path:
        agent = subprocess.Popen(["ssh-agent", "-D", "-a", str(socket_path)], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        agents.append(agent)
        # Wait for a connection, not for the socket file: ssh-agent binds (the file appears) before
        # it listens, and a client in between is refused ("Error connecting to agent: Connection
        # refused" from ssh-add, seen once in a CI run).
        deadline = time.monotonic() + 30
        while not _accepts(socket_path):
            assert time.monotonic() < deadline and agent.poll() is None, "ssh-agent did not start"
            time.sleep(0.02)
        if keys:  # ssh-add with no file names adds ~/.ssh's default keys
            subprocess.run(["ssh-add", "-q", *keys], env={**os.environ, "SSH_AUTH_SOCK": str(socket_path)},
                           check=True, capture_output=True)
        return socket_path

    yield start
    for agent in agents:
        agent.kill()
        agent.wait()
