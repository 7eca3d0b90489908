"""Integer ssh_config keywords ssh(1) refuses, refused as ssh(1) refuses them.

`ConnectionAttempts 0` (or -1, or 1.5) was read as one attempt (a float, then at least 1), so a
config ssh(1) stops on ran the playbook; a `ServerAliveCountMax -1` in another host's block was
passed over. ssh(1) reads these keywords with parse_int, a whole number from 0, on every line it
reads (openssh-portable: readconf.c parse_int, misc.c atoi_err: "integer value too small",
"integer value invalid"), and stops on ConnectionAttempts 0 once the host's values are known
(ssh.c: "Invalid number of ConnectionAttempts"). Each case is checked against `ssh -G` here.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import run_cli

SSH = shutil.which("ssh")
needs_ssh = pytest.mark.skipif(SSH is None, reason="needs OpenSSH's ssh(1) on PATH to compare with")
PLAYBOOK = "name: p\nsteps:\n  - id: a\n    run: echo hi\n"


def _ssh_refuses(config: Path) -> str | None:
    said = subprocess.run([SSH, "-F", str(config), "-G", "gpu01"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=30, check=False)
    return said.stderr.strip() if said.returncode != 0 else None


def _run(tmp_path: Path, config: Path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    return run_cli("run", str(tmp_path / "p.yaml"), "--host", "gpu01", "-F", str(config),
                   "--out", str(tmp_path / "runs"))


@needs_ssh
@pytest.mark.parametrize(("line", "words"), [
    ("ConnectionAttempts -1", "integer value too small"),
    ("ConnectionAttempts 1.5", "integer value invalid"),
    ("ConnectionAttempts abc", "integer value invalid"),
    ("NumberOfPasswordPrompts -2", "integer value too small"),
])
def test_a_line_ssh_refuses_stops_the_run_at_its_line(tmp_path, line, words):
    config = tmp_path / "config"
    # in another host's block: ssh(1) checks the number on every line it reads
    config.write_text(f"Host gpu01\n  HostName 127.0.0.1\n  Port 1\nHost other\n  {line}\n")
    assert words in (_ssh_refuses(config) or "")
    result = _run(tmp_path, config)
    assert result.code == 2, result.stderr
    assert f"error: ssh config {config} line 5: {line}: {words}" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "runs").exists()


@needs_ssh
def test_zero_connection_attempts_fails_the_host_as_ssh_does(tmp_path):
    config = tmp_path / "config"
    config.write_text("Host gpu01\n  HostName 127.0.0.1\n  Port 1\n  ConnectionAttempts 0\n")
    assert _ssh_refuses(config) == "Invalid number of ConnectionAttempts"
    result = _run(tmp_path, config)
    assert result.code == 3, result.stderr
    assert "gpu01: ConnectionAttempts 0: Invalid number of ConnectionAttempts" in result.stderr, result.stderr
    assert "connection refused" not in result.stderr  # no connect was tried with one attempt
    # the host was never reached: SD005, as for a refused connection (was a host "error" with no
    # finding, and the last line said "ERROR: 0 error(s)")
    assert "ERROR: 1 error(s)" in result.stderr, result.stderr
    [run_json] = (tmp_path / "runs").glob("*/run.json")
    record = json.loads(run_json.read_text())
    [finding] = record["findings"]
    assert finding["code"] == "SD005" and finding["host"] == "gpu01"
    assert finding["evidence"] == ["gpu01: ConnectionAttempts 0: Invalid number of ConnectionAttempts"]


@needs_ssh
def test_zero_where_ssh_takes_zero_is_still_taken(tmp_path):
    config = tmp_path / "config"
    config.write_text("Host gpu01\n  HostName 127.0.0.1\n  Port 1\n  ServerAliveCountMax 0\n  NumberOfPasswordPrompts 0\n")
    assert _ssh_refuses(config) is None
    result = _run(tmp_path, config)
    assert "connection refused by 127.0.0.1:1" in result.stderr, result.stderr
