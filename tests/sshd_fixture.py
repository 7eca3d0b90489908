"""Real OpenSSH servers on loopback for tests: throwaway host and client keys, temp config.

Usable from any test folder:

    from tests.sshd_fixture import ClientKey, SshServer, write_ssh_config

`SshServer(workdir, client_key).start()` runs `/usr/sbin/sshd -D -e -f <tmp sshd_config>` on
127.0.0.1 at a free port, accepting `client_key` for the current user (root in CI, hence
PermitRootLogin). `stop()` kills the listener and every connection process it forked.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, TypeVar

import pytest

from spec_debug.runner.ssh_connect import ConnectOptions

T = TypeVar("T")

SSHD = shutil.which("sshd") or "/usr/sbin/sshd"
SSH_KEYGEN = shutil.which("ssh-keygen") or "/usr/bin/ssh-keygen"


def sshd_available() -> bool:
    return os.path.exists(SSHD) and os.path.exists(SSH_KEYGEN)


def free_port(address: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((address, 0))
        return int(sock.getsockname()[1])


def keygen(path: Path, *, passphrase: str = "", comment: str = "spec-debug-test") -> Path:
    """An ed25519 key pair at path (and path.pub)."""
    subprocess.run(
        [SSH_KEYGEN, "-q", "-t", "ed25519", "-N", passphrase, "-C", comment, "-f", str(path)],
        check=True,
        stdin=subprocess.DEVNULL,
    )
    return path


def fingerprint(public_key_path: Path) -> str:
    """`SHA256:...` as ssh-keygen -l prints it."""
    out = subprocess.run([SSH_KEYGEN, "-l", "-f", str(public_key_path)], check=True, capture_output=True, text=True)
    return out.stdout.split()[1]


@dataclass
class ClientKey:
    path: Path

    @classmethod
    def create(cls, directory: Path, name: str = "id_ed25519", passphrase: str = "") -> "ClientKey":
        directory.mkdir(parents=True, exist_ok=True)
        return cls(keygen(directory / name, passphrase=passphrase))

    @property
    def public(self) -> str:
        return Path(str(self.path) + ".pub").read_text().strip()


@dataclass
class SshServer:
    workdir: Path
    authorized_keys: list[ClientKey]
    address: str = "127.0.0.1"
    extra_config: str = ""
    port: int = 0
    netns: str | None = None
    """Run sshd inside this network namespace (`ip netns exec`), on port 22 there."""
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    set_env: str = ""
    """More `NAME=VALUE` words for sshd's SetEnv line (sshd keeps only the first SetEnv line it
    reads: openssh-portable servconf.c, sSetEnv); a global `SetEnv` in extra_config joins it too."""

    def start(self) -> "SshServer":
        self.workdir.mkdir(parents=True, exist_ok=True)
        if not self.host_key_path.exists():
            keygen(self.host_key_path, comment="spec-debug-test-host")
        self.authorized_keys_path.write_text("".join(key.public + "\n" for key in self.authorized_keys))
        # sshd refuses to start without its privilege separation directory.
        Path("/run/sshd").mkdir(mode=0o755, parents=True, exist_ok=True)
        for _attempt in range(5):
            self.port = 22 if self.netns else free_port(self.address)
            self.config_path.write_text(self._sshd_config())
            log = open(self.log_path, "ab")
            log_start = log.tell()  # where this start's lines begin (a restart appends)
            prefix = ["ip", "netns", "exec", self.netns] if self.netns else []
            self.process = subprocess.Popen(
                [*prefix, SSHD, "-D", "-e", "-f", str(self.config_path)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
            log.close()
            if self._wait_ready(log_start):
                return self
            self._terminate()
        raise RuntimeError(f"sshd did not start; log:\n{self.log_path.read_text()}")

    def stop(self) -> None:
        """Kill the listener and every connection it serves (like a host going down)."""
        self._terminate()

    def __enter__(self) -> "SshServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def host_key_path(self) -> Path:
        return self.workdir / "ssh_host_ed25519_key"

    @property
    def authorized_keys_path(self) -> Path:
        return self.workdir / "authorized_keys"

    @property
    def config_path(self) -> Path:
        return self.workdir / "sshd_config"

    @property
    def log_path(self) -> Path:
        return self.workdir / "sshd.log"

    @property
    def known_hosts_name(self) -> str:
        return f"[{self.address}]:{self.port}"

    @property
    def known_hosts_line(self) -> str:
        kind, blob = Path(str(self.host_key_path) + ".pub").read_text().split()[:2]
        return f"{self.known_hosts_name} {kind} {blob}\n"

    @property
    def host_key_fingerprint(self) -> str:
        return fingerprint(Path(str(self.host_key_path) + ".pub"))

    def regenerate_host_key(self) -> None:
        """A reinstalled host: new host key, same address (takes effect on restart)."""
        self.host_key_path.unlink()
        Path(str(self.host_key_path) + ".pub").unlink()
        keygen(self.host_key_path, comment="spec-debug-test-host-new")

    def log_tail(self, lines: int = 40) -> str:
        """The last lines of sshd's log, for a failed test's message."""
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError as exc:
            return f"(no sshd log: {exc})"

    def connection_pids(self) -> list[int]:
        from spec_debug.runner.proctree import descendants

        return descendants(self.process.pid) if self.process else []

    def _sshd_config(self) -> str:
        return _with_overrides(self._default_sshd_config(), self.extra_config)

    def _default_sshd_config(self) -> str:
        return (
            f"Port {self.port}\n"
            f"ListenAddress {self.address}\n"
            f"HostKey {self.host_key_path}\n"
            f"PidFile {self.workdir / 'sshd.pid'}\n"
            f"AuthorizedKeysFile {self.authorized_keys_path}\n"
            "StrictModes no\n"
            "UsePAM no\n"
            "PermitRootLogin prohibit-password\n"
            "PasswordAuthentication no\n"
            "KbdInteractiveAuthentication no\n"
            "AllowTcpForwarding yes\n"
            "PrintMotd no\n"
            "UseDNS no\n"
            # The login user's ~/.bashrc is sourced for ssh commands by Debian's bash (SSH_SOURCE_BASHRC)
            # unless SHLVL>=1; a slow rc file (pyenv, conda init) would dominate every timing.
            f"SetEnv SHLVL=1{' ' + self.set_env if self.set_env else ''}\n"
            "MaxStartups 100\n"
            # VERBOSE: each connection's start and end, and a MaxStartups drop ("drop connection
            # #N ... past MaxStartups"), go to sshd.log: what a test that failed on a loaded CI
            # machine shows of the server's side (log_tail). A few lines a connection.
            "LogLevel VERBOSE\n"
            "Subsystem sftp internal-sftp\n"
        )

    def _says_listening(self, log_start: int) -> bool:
        """Whether this start's sshd logged its listening socket on self.port (openssh-portable
        sshd.c, server_listen: "Server listening on ADDR port PORT."), after bind and listen."""
        try:
            with open(self.log_path, "rb") as log:
                log.seek(log_start)
                text = log.read().decode(errors="replace")
        except OSError:
            return False
        return any(line.startswith("Server listening on ") and line.endswith(f" port {self.port}.")
                   for line in text.splitlines())

    def _wait_ready(self, log_start: int, timeout_s: float = 60.0) -> bool:
        # 60 s: each check returns as soon as sshd answers (~0.1 s quiet); only a loaded machine
        # gets near it. A port another process took makes this sshd exit (poll), not wait.
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                return False
            if self.netns:
                probe = f"import socket; s = socket.create_connection(({self.address!r}, {self.port}), 1); assert s.recv(4) == b'SSH-'"
                check = subprocess.run(["ip", "netns", "exec", self.netns, sys.executable, "-c", probe], capture_output=True)
                if check.returncode == 0:
                    return True
                time.sleep(0.05)
                continue
            # The banner is checked only once OUR sshd says it listens: free_port's number can be
            # taken by another xdist worker's sshd in between, whose banner would otherwise pass
            # while this one exits on "Address already in use" (the tests then met a stranger).
            if not self._says_listening(log_start):
                time.sleep(0.02)
                continue
            try:
                with socket.create_connection((self.address, self.port), timeout=10.0) as sock:
                    if sock.recv(64).startswith(b"SSH-"):
                        return True
            except OSError:
                time.sleep(0.02)
        return False

    def _terminate(self) -> None:
        from spec_debug.runner.proctree import descendants

        if self.process is None:
            return
        pids = [self.process.pid, *descendants(self.process.pid)]
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.process.wait()
        self.process = None


# Keywords sshd takes more than once (each line adds: another port, address or key), so a
# default line of theirs stays beside extra_config's (openssh-portable: servconf.c, sPort,
# sListenAddress, sHostKeyFile, sHostCertificate, sAcceptEnv).
_ADDED_KEYWORDS = frozenset({"port", "listenaddress", "hostkey", "hostcertificate", "acceptenv"})


def _with_overrides(defaults: str, extra_config: str) -> str:
    """defaults, then extra_config, with each default line that extra_config's global part
    (before its first Match) sets again left out. sshd keeps the FIRST value of most keywords
    (servconf.c: `if (*intptr == -1) *intptr = value`; `sshd -T` shows `PasswordAuthentication
    no` for "no" then "yes") and refuses to start on a second `Subsystem sftp`, so appending
    extra_config after the defaults silently dropped "PasswordAuthentication yes",
    "AllowTcpForwarding no", "LogLevel DEBUG3"...; only a Match block could override. A SetEnv
    of extra_config joins the default SetEnv line (sshd also keeps only the first SetEnv line)."""
    overridden: set[str] = set()
    set_env: list[str] = []
    kept_extra: list[str] = []
    in_match = False
    for line in extra_config.splitlines(keepends=True):
        words = _config_words(line)
        keyword = words[0].lower() if words and not words[0].startswith("#") else ""
        in_match = in_match or keyword == "match"
        if in_match or not keyword or keyword in _ADDED_KEYWORDS:
            kept_extra.append(line)
        elif keyword == "setenv":
            set_env += words[1:]
        else:
            overridden.add(_override_key(words))
            kept_extra.append(line)
    lines: list[str] = []
    for line in defaults.splitlines(keepends=True):
        words = line.split()
        if words[0].lower() == "setenv" and set_env:
            line = line.rstrip("\n") + " " + " ".join(set_env) + "\n"
        elif _override_key(words) in overridden:
            continue
        lines.append(line)
    return "".join(lines) + "".join(kept_extra)


def _config_words(line: str) -> list[str]:
    """A config line's words as sshd splits them: the keyword ends at whitespace or at one `=`
    (`PasswordAuthentication=yes`, `Subsystem = sftp /bin/false`: openssh-portable misc.c,
    strdelim, which servconf.c's process_server_config_line_depth takes the keyword with); the
    rest splits at whitespace. line.split() made `passwordauthentication=yes` the keyword (no
    default overridden: sshd kept the default "no") and `=` the Subsystem's name (a second
    `Subsystem sftp`: sshd refused to start)."""
    line = line.strip()
    end = 0
    while end < len(line) and not line[end].isspace() and line[end] != "=":
        end += 1
    rest = line[end:].lstrip()
    if rest.startswith("="):
        rest = rest[1:]
    return [line[:end], *rest.split()] if end else []


def _override_key(words: list[str]) -> str:
    """What a config line sets: its keyword, or for Subsystem the keyword and the subsystem's
    name (another subsystem's line is no override)."""
    keyword = words[0].lower()
    return f"{keyword} {words[1]}" if keyword == "subsystem" and len(words) > 1 else keyword


def write_ssh_config(path: Path, hosts: dict[str, dict[str, object]]) -> Path:
    """An ssh_config with one `Host` block per alias (values may be lists for repeats)."""
    lines: list[str] = []
    for alias, options in hosts.items():
        lines.append(f"Host {alias}")
        for key, value in options.items():
            for item in value if isinstance(value, list) else [value]:
                lines.append(f"  {key} {item}")
    path.write_text("\n".join(lines) + "\n")
    return path


@dataclass
class ClientSetup:
    home: Path
    key: ClientKey
    config: Path
    known_hosts: Path

    def options(self, **overrides: object) -> ConnectOptions:
        values: dict[str, object] = {"ssh_config_path": self.config, "batch": True, "use_agent": False}
        values.update(overrides)
        return ConnectOptions(**values)  # type: ignore[arg-type]

    def alias(self, name: str, server: SshServer, **extra: object) -> None:
        """Add `Host name` pointing at server to the config."""
        self.hosts[name] = {
            "HostName": server.address,
            "Port": server.port,
            "IdentityFile": str(self.key.path),
            "IdentitiesOnly": "yes",
            "UserKnownHostsFile": str(self.known_hosts),
            **extra,
        }
        write_ssh_config(self.config, self.hosts)

    def trust(self, server: SshServer) -> None:
        with open(self.known_hosts, "a") as handle:
            handle.write(server.known_hosts_line)

    def __post_init__(self) -> None:
        self.hosts: dict[str, dict[str, object]] = {}


class StallingServer:
    """Accepts TCP connections and never says a word: a hung host (no SSH banner)."""

    def __init__(self, address: str = "127.0.0.1") -> None:
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind((address, 0))
        self._listener.listen(16)
        self.address = address
        self.port = int(self._listener.getsockname()[1])
        self._accepted: list[socket.socket] = []
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            self._accepted.append(conn)

    def close(self) -> None:
        self._listener.close()
        for conn in self._accepted:
            conn.close()

    def __enter__(self) -> "StallingServer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# A background server for a step: it appends a line to a heartbeat file every 0.1 s (seconds
# is how long it runs) and prints a line each time, so it dies of SIGPIPE at its next line once
# its channel is closed. Appended, not `date > file`: the shell truncates the file before date
# writes, and a read in between saw '' (test_hardening21_reviewssh_check_keeps_servers flaked so).
def background_server(beat: Path, seconds: int = 30) -> str:
    return f"(for i in $(seq {seconds * 10}); do echo serving; echo $i >> {beat}; sleep 0.1; done) & echo started"


def still_beating(beat: Path, within_s: float = 30.0) -> bool:
    """Whether a background_server adds a heartbeat line within within_s: progress, not a
    freshness margin, so a loaded 2-core host that delays its 0.1 s sleeps does not fail it.
    It returns at the next line (0.1 s when alive); 30 s is reached only by a server that died
    (5 s was within reach of a loaded host's stalls of the loop's sleep, echo and append)."""
    def lines() -> int:
        return beat.read_bytes().count(b"\n") if beat.exists() else 0

    seen = lines()
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        time.sleep(0.1)
        if lines() > seen:
            return True
    return False


class Relay:
    """A TCP relay on loopback to a real sshd, to put a faulty path between us and it:
    `from_server_delay_s` delivers what sshd sends that much late (a long, slow path);
    `banner_only` passes sshd's first line (its banner) and loses the rest (an MTU black hole).
    `accepted` counts the connections made through it (a retried login shows as a second)."""

    def __init__(self, server: SshServer, *, from_server_delay_s: float = 0.0, banner_only: bool = False) -> None:
        self.server = server
        self.from_server_delay_s = from_server_delay_s
        self.banner_only = banner_only
        self.accepted = 0
        self._uplink_hold_s = 0.0
        self._hold_uplink = threading.Event()
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(8)
        self.port = int(self._listener.getsockname()[1])
        self._sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            self.accepted += 1
            upstream = socket.create_connection((self.server.address, self.server.port))
            self._sockets += [client, upstream]
            threading.Thread(target=self._pipe, args=(client, upstream, 0.0, False, self._uplink_pause), daemon=True).start()
            threading.Thread(
                target=self._pipe, args=(upstream, client, self.from_server_delay_s, self.banner_only), daemon=True
            ).start()

    def hold_next_uplink(self, seconds: float) -> None:
        """Hold the next bytes we send `seconds` before sshd gets them (what we send after waits
        behind them): a message of ours then crosses what sshd sends meanwhile."""
        self._uplink_hold_s = seconds
        self._hold_uplink.set()

    def _uplink_pause(self) -> None:
        if self._hold_uplink.is_set():
            self._hold_uplink.clear()
            time.sleep(self._uplink_hold_s)

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket, delay_s: float, banner_only: bool,
              pause: Callable[[], None] | None = None) -> None:
        passed = b""
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                return
            if not data:
                return
            if banner_only:
                if b"\n" in passed:
                    continue  # lost on the way
                data = data[: data.index(b"\n") + 1] if b"\n" in data else data
                passed += data
            time.sleep(delay_s)
            if pause is not None:
                pause()
            try:
                sink.sendall(data)
            except OSError:
                return

    def close(self) -> None:
        self._listener.close()
        for sock in self._sockets:
            sock.close()

    def __enter__(self) -> "Relay":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@pytest.fixture
def slow_link(sshd: SshServer) -> Iterator[Relay]:
    """A Relay to the shared `sshd` whose packets reach us 0.3 s late, so a handshake takes
    over a second and paramiko's waits read the clock before each answer comes. Import it into
    a test module (`from tests.sshd_fixture import slow_link`) to use it as a fixture."""
    with Relay(sshd, from_server_delay_s=0.3) as link:
        yield link


def wall_clock_stepped(step_s: float, after_readings: int = 1, *, first_read_in: str | None = None) -> types.SimpleNamespace:
    """A stand-in for the `time` module of the paramiko module under test whose wall clock
    (time.time) is stepped by step_s after its first `after_readings` readings, or, with
    `first_read_in`, after the first reading made by the function of that name (the start of
    the wait under test: a step must fall inside it, not before its first reading), as NTP or
    chrony step it after a VM's pause, snapshot restore or migration, or a laptop waking (the
    machine's own clock cannot be stepped in a test). The monotonic clock is left alone."""
    readings = [0]
    started = [first_read_in is None]

    def stepped() -> float:
        if not started[0]:
            started[0] = sys._getframe(1).f_code.co_name == first_read_in
            return time.time()
        readings[0] += 1
        return time.time() + (step_s if readings[0] > after_readings or first_read_in is not None else 0.0)

    clock = {name: getattr(time, name) for name in dir(time) if not name.startswith("_")}
    return types.SimpleNamespace(**{**clock, "time": stepped})


def returns_within(seconds: float, call: Callable[[], T], what: str) -> T:
    """call()'s result (or its exception), failing the test if it has not returned within
    `seconds` (it goes on in a daemon thread): `what` says what it would be waiting for."""
    result: dict[str, object] = {}

    def target() -> None:
        try:
            result["value"] = call()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            result["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still waiting for {what} after {seconds:g} s"
    if "error" in result:
        raise result["error"]  # type: ignore[misc]
    return result["value"]  # type: ignore[return-value]
