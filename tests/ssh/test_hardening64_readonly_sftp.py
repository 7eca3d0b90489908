"""A read-only SFTP server (`sftp-server -R`) on a host whose login shell can write the home:
the probe bundle's upload goes over `cat` instead of failing (real sshd)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.conftest import ClientSetup
from tests.ssh.test_fleet_faults import PROBE_PLAYBOOK, StartServer, assert_clean_cli, by_id, fresh_server, load_run


def _run(cli: Callable[..., Any], client: ClientSetup, tmp_path: Path, name: str) -> tuple[Any, dict[str, Any]]:
    playbook = tmp_path / "first_look.yaml"
    playbook.write_text(PROBE_PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", name, "-F", str(client.config), "--batch", "--out", str(out))
    assert_clean_cli(result)
    return result, load_run(out)[1]


def test_a_read_only_sftp_server_uploads_the_bundle_over_the_shell(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    fresh = fresh_server(client, sshd_factory, tmp_path, "rosftp", sftp="ro", alias={"ConnectTimeout": 5})
    result, record = _run(cli, client, tmp_path, "rosftp")
    assert result.code == 0, result.stdout + result.stderr
    steps = by_id(record, "rosftp")
    assert steps["host_info"]["status"] == "passed", steps["host_info"]
    assert not [f for f in record["findings"] if f["code"] == "SD003"], record["findings"]
    bundles = list((fresh.home / ".cache" / "spec-debug").glob("bundle-*.pyz"))
    assert len(bundles) == 1 and not list((fresh.home / ".cache" / "spec-debug").glob("*.part-*"))
    assert steps["host_info"]["command"].split()[1] == f".cache/spec-debug/{bundles[0].name}"
    assert [steps[s]["status"] for s in ("shell", "fetch_note", "after")] == ["passed"] * 3


def test_a_read_only_sftp_server_on_a_home_the_shell_cannot_write_says_both(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    # ~/.cache/spec-debug is immutable (chattr +i: not even root's shell may write it) and there
    # is no /tmp folder either (commands about /tmp/spec-debug.* fail): the shell's copy fails
    # too, and the error says both.
    no_tmp = 'case "$SSH_ORIGINAL_COMMAND" in *spec-debug.*) echo "no /tmp here" >&2; exit 1 ;; esac\n'
    fresh = fresh_server(client, sshd_factory, tmp_path, "rosftpfull", sftp="ro", banner=no_tmp, alias={"ConnectTimeout": 5})
    folder = fresh.home / ".cache" / "spec-debug"
    folder.mkdir(parents=True)
    if subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not allowed here")
    try:
        result, record = _run(cli, client, tmp_path, "rosftpfull")
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)
    assert result.code == 0, result.stdout + result.stderr  # SD003 is a warning
    steps = by_id(record, "rosftpfull")
    message = steps["host_info"]["message"]
    assert steps["host_info"]["status"] == "error" and "\n" not in message, steps["host_info"]
    assert "cannot upload to .cache/spec-debug/bundle-" in message, message
    assert "Operation not permitted (copied with cat over ssh: the SFTP server refused the write (Permission denied)" in message, message
    assert any(f["code"] == "SD003" and f["step"] == "host_info" for f in record["findings"])
    assert steps["shell"]["status"] == "passed" and steps["after"]["status"] == "passed"
