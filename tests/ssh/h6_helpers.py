"""Helpers of tests/ssh/test_hardening6_faults.py: real sshd variants (an account changed in
a private mount namespace, a changed sshd_config line, IPv6), the CLI under a terminal or
interrupted with Ctrl-C."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import SSHD, ClientSetup, SshServer

StartServer = Callable[..., SshServer]

TINY = "name: tiny\ndescription: t\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: 'true'\n"


def load_run(out: Path) -> dict[str, Any]:
    [run_dir] = [p for p in out.iterdir() if p.is_dir()]
    return json.loads((run_dir / "run.json").read_text())


def spec_debug_run(client: ClientSetup, playbook: Path, out: Path, *hosts: str, args: tuple[str, ...] = ()) -> subprocess.Popen[bytes]:
    host_args = [arg for host in hosts for arg in ("--host", host)]
    return subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), *host_args, *args, "-F", str(client.config), "--batch",
         "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "COLUMNS": "200"},
    )


def ctrl_c_when(process: subprocess.Popen[bytes], ready: Callable[[], bool], out: Path) -> tuple[int, float, dict[str, Any]]:
    """Send SIGINT to a `spec-debug run` once `ready()`; its exit code, how long it took to
    end after the signal, and its record (checked to say the run and its host were aborted)."""
    try:
        deadline = time.monotonic() + 60
        while not ready():
            assert time.monotonic() < deadline and process.poll() is None, process.communicate()
            time.sleep(0.1)
        interrupted = time.monotonic()
        process.send_signal(signal.SIGINT)
        code = process.wait(timeout=40)
        took = time.monotonic() - interrupted
    finally:
        if process.poll() is None:
            process.kill()
    stderr = process.stderr.read().decode() if process.stderr else ""
    assert "Traceback" not in stderr, stderr
    assert code == 3, stderr
    record = load_run(out)
    [host] = record["hosts"]
    assert record["status"] == "aborted" and host["status"] == "aborted", host
    assert not any(f["code"] == "SD005" for f in record["findings"])
    return code, took, record


def dialing(port: int) -> int:
    """How many sockets on this machine are in SYN_SENT to 127.0.0.1:port (/proc/net/tcp)."""
    wanted = f"0100007F:{port:04X}"
    rows = [line.split() for line in Path("/proc/net/tcp").read_text().splitlines()[1:]]
    return sum(1 for fields in rows if fields[2] == wanted and fields[3] == "02")  # 02: TCP_SYN_SENT


def ipv6_sshd(name: str, sshd_factory: StartServer, monkeypatch: pytest.MonkeyPatch) -> SshServer:
    """A real sshd listening on [::1] (the shared fixture picks its free port over IPv4)."""
    import tests.sshd_fixture as fixture

    def free_port(address: str = "127.0.0.1") -> int:
        with socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET) as sock:
            sock.bind((address, 0))
            return int(sock.getsockname()[1])

    if not socket.has_ipv6:
        pytest.skip("no IPv6 on this machine")
    monkeypatch.setattr(fixture, "free_port", free_port)
    return sshd_factory(name, address="::1")


def sshd_with_accounts(
    name: str, sshd_factory: StartServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, shell: str | None = None,
    password_expired: bool = False, extra_config: str = "", more_accounts: tuple[str, ...] = (),
) -> SshServer:
    """A real sshd that sees this user's account changed (its shell, or its password expired
    as by `passwd -e`), or more accounts (/etc/passwd lines): it runs in a private mount
    namespace where copies of /etc/passwd and /etc/shadow are bind-mounted over the real ones,
    which stay untouched."""
    if shutil.which("unshare") is None or subprocess.run(
        ["unshare", "--mount", "true"], capture_output=True, check=False
    ).returncode != 0:
        pytest.skip("cannot make a mount namespace here")
    import tests.sshd_fixture as fixture

    user = pwd.getpwuid(os.getuid()).pw_name
    binds = ""
    if shell is not None or more_accounts:
        passwd = tmp_path / f"{name}-passwd"
        passwd.write_text("".join(
            ":".join([*line.split(":")[:6], shell]) + "\n" if shell is not None and line.split(":")[0] == user else line + "\n"
            for line in [*Path("/etc/passwd").read_text().splitlines(), *more_accounts]
        ))
        binds += f"mount --bind {passwd} /etc/passwd && "
    if password_expired:
        shadow = tmp_path / f"{name}-shadow"
        # Field 3, the day of the last password change: 0 means "must change at next login".
        shadow.write_text("".join(
            ":".join([*line.split(":")[:2], "0", *line.split(":")[3:]]) + "\n" if line.split(":")[0] == user else line + "\n"
            for line in Path("/etc/shadow").read_text().splitlines()
        ))
        shadow.chmod(0o640)
        binds += f"mount --bind {shadow} /etc/shadow && "
    wrapper = tmp_path / f"{name}-sshd"
    wrapper.write_text(
        "#!/bin/sh\n"
        f"exec unshare --mount --propagation private /bin/sh -c '{binds}exec {SSHD} \"$@\"' sshd \"$@\"\n"
    )
    wrapper.chmod(0o755)
    monkeypatch.setattr(fixture, "SSHD", str(wrapper))
    return sshd_factory(name, extra_config=extra_config)


class PamServer(SshServer):
    """sshd with UsePAM yes (as Debian and RHEL ship it): PAM's account checks apply."""

    def _sshd_config(self) -> str:
        return super()._sshd_config().replace("UsePAM no\n", "UsePAM yes\n")


@dataclass
class SftpStartsElsewhere(SshServer):
    """sshd whose SFTP server starts in another folder than the login home (sftp-server(8) -d)."""

    sftp_start: str = "/"

    def _sshd_config(self) -> str:
        return super()._sshd_config().replace("Subsystem sftp internal-sftp\n", f"Subsystem sftp internal-sftp -d {self.sftp_start}\n")


class Terminal:
    """`spec-debug run` with a pseudo-terminal as its controlling terminal, as a person runs it:
    getpass asks on /dev/tty, and Ctrl-C typed there is the terminal's SIGINT."""

    def __init__(self, argv: list[str]) -> None:
        import fcntl
        import pty
        import termios

        self.master, slave = pty.openpty()
        self.process = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0),  # noqa: PLW1509 - makes the pty the controlling terminal
            env={**os.environ, "COLUMNS": "200"},
        )
        os.close(slave)
        self.seen = b""

    def wait_for(self, text: bytes, within_s: float = 60) -> None:
        import select

        deadline = time.monotonic() + within_s
        while text not in self.seen:
            assert time.monotonic() < deadline and self.process.poll() is None, self.seen.decode(errors="replace")
            if select.select([self.master], [], [], 0.2)[0]:
                self.seen += os.read(self.master, 65536)

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def echo_is_on(self) -> bool:
        import termios

        return bool(termios.tcgetattr(self.master)[3] & termios.ECHO)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)


def wait_until_closed_by_server(transport: SSHTransport, within_s: float = 60) -> None:
    deadline = time.monotonic() + within_s
    while transport.connection.transport.is_active():
        assert time.monotonic() < deadline, "sshd never closed the idle connection"
        time.sleep(0.1)


def run_with_resolv_conf(resolv_conf: Path, argv: list[str]) -> subprocess.Popen[bytes]:
    """Start argv in a private mount namespace where `resolv_conf` is /etc/resolv.conf."""
    return subprocess.Popen(
        ["unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
         f'mount --bind {resolv_conf} /etc/resolv.conf && exec "$@"', "sh", *argv],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "COLUMNS": "200"},
    )


def run_began_a_while_ago(out: Path, after_s: float = 1.0) -> Callable[[], bool]:
    """A readiness check for ctrl_c_when: true `after_s` after the run's record appeared."""
    began: list[float] = []

    def ready() -> bool:
        if not began and list(out.glob("*/run.json")):
            began.append(time.monotonic())
        return bool(began) and time.monotonic() - began[0] > after_s

    return ready
