"""A host whose logins have a file size limit (RLIMIT_FSIZE: `fsize` in limits.conf on a shared
cluster, a `ulimit -f` in sshd's service) smaller than the probe bundle.

The kernel sends SIGXFSZ to a process whose write passes the limit (setrlimit(2)), and its
default action ends the process: the SFTP server died in the middle of the bundle's upload,
and the probe step said only "the SFTP session ended while copying ... (Server connection
dropped:)", sending the user to sshd's log, which says nothing of it. The step now asks the host
its `ulimit -f` (in sh: 512-byte blocks) and names the limit in bytes, with the fix.

The host is real: sshd started under `ulimit -f 20` in a private mount namespace whose
~/.cache is a fresh tmpfs (so the upload is not skipped for a copy already there).
"""

from __future__ import annotations

import os
import pwd
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.probes.bundle import local_bundle
from tests.ssh.test_fleet_faults import PROBE_PLAYBOOK, assert_clean_cli, by_id, codes, load_run
from tests.ssh.test_hardening19_runtime_full_tmp import namespaced_sshd
from tests.sshd_fixture import ClientSetup, SshServer


def _limited_host(limit: str, name: str, client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
                  monkeypatch: pytest.MonkeyPatch) -> None:
    home = pwd.getpwuid(os.getuid()).pw_dir
    if tmp_path.is_relative_to(home):
        pytest.skip("the test's folder (sshd's config and keys) is under the home it changes")
    setup = f"mkdir -p {home}/.cache && mount -t tmpfs -o size=4m tmpfs {home}/.cache\nulimit -f {limit}\n"
    server = namespaced_sshd(name, sshd_factory, tmp_path, monkeypatch, setup)
    client.trust(server)
    client.alias("gpu09", server)


def _run(cli: Callable[..., Any], client: ClientSetup, tmp_path: Path,
         text: str = PROBE_PLAYBOOK) -> tuple[Any, dict[str, Any]]:
    """The playbook ``text`` run on gpu09 (_limited_host): the CLI's result and the run's host records."""
    playbook = tmp_path / "first_look.yaml"
    playbook.write_text(text)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu09", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    return result, load_run(out)[1]


def test_a_file_size_limit_below_the_bundle_is_named_with_its_fix(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _limited_host("20", "h62fsize", client, sshd_factory, tmp_path, monkeypatch)
    result, record = _run(cli, client, tmp_path)
    step = by_id(record, "gpu09")["host_info"]
    assert step["status"] == "error", step
    assert step["message"].startswith("gpu09: the SFTP session ended while copying .cache/spec-debug/bundle-"), step["message"]
    size = len(local_bundle().read_bytes())
    assert f"limits a file its processes write to {20 * 512} bytes (ulimit -f), below the copy's {size}," in step["message"], step["message"]
    assert "SIGXFSZ" in step["message"], step["message"]
    assert "SD003" in codes(record, "gpu09")
    remediation = next(f["remediation"] for f in record["findings"] if f["code"] == "SD003" and f["step"] == "host_info")
    assert "fsize in /etc/security/limits.conf" in remediation, remediation
    assert f"write to {20 * 512} bytes (ulimit -f)" in result.stderr
    # The host stays usable: the shell steps after the probe ran.
    assert by_id(record, "gpu09")["shell"]["status"] == "passed"


def test_a_limit_above_the_bundle_is_no_cause_and_the_probe_runs(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _limited_host("1000000", "h62fsizeok", client, sshd_factory, tmp_path, monkeypatch)
    _, record = _run(cli, client, tmp_path)
    assert by_id(record, "gpu09")["host_info"]["status"] == "passed", by_id(record, "gpu09")["host_info"]
