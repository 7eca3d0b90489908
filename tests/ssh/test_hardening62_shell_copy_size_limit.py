"""A host without SFTP (a hardened sshd_config with no `Subsystem sftp` line) whose logins have
a file size limit below the probe bundle (`ulimit -f`, pam_limits' fsize).

Uploads there go over `cat` on an exec channel; the kernel ends that `cat` with SIGXFSZ at its
first write past the limit (setrlimit(2)), and sh exits 128 + 25. The step said "cannot upload
to .cache/spec-debug/bundle-….pyz: File size limit exceeded (copied with cat over ssh: …)" with
the hint "the login user must be able to write there (a read-only or full home?)", where the
SFTP path of the same host names the limit and its fix (test_hardening62_ssh_file_size_limit).
It now says the limit in bytes, the copy's size, and the same fix.

The host is real: sshd without SFTP, started under `ulimit -f 20` in a private mount namespace
whose ~/.cache is a fresh tmpfs.
"""

from __future__ import annotations

import os
import pwd
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from spec_debug.probes.bundle import local_bundle
from tests.ssh.h8_helpers import SftpLineServer
from tests.ssh.test_fleet_faults import PROBE_PLAYBOOK, assert_clean_cli, by_id, codes, load_run
from tests.ssh.test_hardening19_runtime_full_tmp import namespaced_sshd
from tests.sshd_fixture import ClientKey, ClientSetup

PLAYBOOK = PROBE_PLAYBOOK + "  - id: cache\n    run: ls -A ~/.cache/spec-debug\n"


@pytest.fixture
def start_sftpless(tmp_path: Path, client_key: ClientKey) -> Iterator[Callable[[str], SftpLineServer]]:
    started: list[SftpLineServer] = []

    def start(name: str) -> SftpLineServer:
        server = SftpLineServer(tmp_path / f"sshd-{name}", [client_key], subsystem="").start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def test_a_size_limit_below_the_bundle_is_named_on_a_host_without_sftp(
    cli: Callable[..., Any], client: ClientSetup, start_sftpless: Callable[[str], SftpLineServer], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    home = pwd.getpwuid(os.getuid()).pw_dir
    if tmp_path.is_relative_to(home):
        pytest.skip("the test's folder (sshd's config and keys) is under the home it changes")
    setup = f"mkdir -p {home}/.cache && mount -t tmpfs -o size=4m tmpfs {home}/.cache\nulimit -f 20\n"
    server = namespaced_sshd("h62nosftp", start_sftpless, tmp_path, monkeypatch, setup)
    client.trust(server)
    client.alias("gpu09", server)
    playbook = tmp_path / "first_look.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu09", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    record = load_run(out)[1]
    step = by_id(record, "gpu09")["host_info"]
    assert step["status"] == "error", step
    size = len(local_bundle().read_bytes())
    assert step["message"].startswith("gpu09: the copy's cat ended (exit code 153; copied with cat over ssh: "), step["message"]
    assert step["message"].endswith(
        f"the host limits a file its processes write to {20 * 512} bytes (ulimit -f), below the copy's {size}, "
        "and the kernel ends the copy's cat (SIGXFSZ) when a write passes it"), step["message"]
    assert "SD003" in codes(record, "gpu09")
    remediation = next(f["remediation"] for f in record["findings"] if f["code"] == "SD003" and f["step"] == "host_info")
    assert "fsize in /etc/security/limits.conf" in remediation and "read-only" not in remediation, remediation
    assert f"write to {20 * 512} bytes (ulimit -f)" in result.stderr
    steps = by_id(record, "gpu09")
    assert steps["shell"]["status"] == "passed", steps["shell"]
    # The script removed its part, as for any failed shell upload.
    assert steps["cache"]["status"] == "passed" and ".part-" not in steps["cache"]["stdout"], steps["cache"]
