"""The part of a cut bundle upload, removed by the login shell on a host whose PATH lacks `rm`.

The SFTP upload writes `bundle-<hash>.pyz.part-XXXXXXXX` and renames it once whole; when the
SFTP server dies under it (a file size limit's SIGXFSZ) the part is removed over the login
shell instead. That command was a bare `rm -f -- PART`: a login whose rc file clobbered PATH
(`export PATH=/opt/miniconda3/bin`) found no `rm`, and the part (the limit's worth of bytes)
stayed in ~/.cache/spec-debug, one more each run. It now runs under /bin/sh with the standard
places on PATH, as the `cat` copy scripts do (runner/host_path.py).

The host is real: sshd with a ForceCommand giving an empty home and a PATH without rm
(tests/ssh/test_fleet_faults.FreshHost); its SFTP server runs under `ulimit -f 20`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from tests.ssh.conftest import ClientSetup
from tests.ssh.test_fleet_faults import PROBE_PLAYBOOK, StartServer, assert_clean_cli, by_id, fresh_server, load_run, sftp_server_path


def test_a_cut_upload_leaves_no_part_on_a_host_whose_path_has_no_rm(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    fresh = fresh_server(client, sshd_factory, tmp_path, "normfsize", alias={"ConnectTimeout": 5})
    assert not (fresh.bin / "rm").exists()
    server = sftp_server_path()
    # bash's ulimit -f counts 1024-byte blocks: the SFTP server dies 20 KiB into the upload.
    fresh.shim.write_text(fresh.shim.read_text().replace(f"exec {server}", f"ulimit -f 20; exec {server}"))
    playbook = tmp_path / "first_look.yaml"
    playbook.write_text(PROBE_PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "normfsize", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    steps = by_id(load_run(out)[1], "normfsize")
    assert steps["host_info"]["status"] == "error", steps["host_info"]
    assert "the SFTP session ended while copying .cache/spec-debug/bundle-" in steps["host_info"]["message"], steps["host_info"]
    folder = fresh.home / ".cache" / "spec-debug"
    assert folder.is_dir() and not list(folder.glob("*.part-*")), sorted(folder.iterdir())  # was: one part left per run
    assert steps["shell"]["status"] == "passed" and steps["after"]["status"] == "passed"


def test_a_file_size_limit_is_named_on_a_host_whose_path_has_no_sh(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    # The limit is asked of the login shell as `sh -c 'ulimit -f'` (POSIX 512-byte blocks): a
    # PATH without sh answered "sh: command not found", and the step named no cause at all.
    fresh = fresh_server(client, sshd_factory, tmp_path, "noshfsize", alias={"ConnectTimeout": 5})
    (fresh.bin / "sh").unlink()
    shim = fresh.shim.read_text()
    fresh.shim.write_text(shim.replace("case \"$SSH_ORIGINAL_COMMAND\"", "ulimit -f 20\ncase \"$SSH_ORIGINAL_COMMAND\"", 1))
    playbook = tmp_path / "first_look.yaml"
    playbook.write_text(PROBE_PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "noshfsize", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    steps = by_id(load_run(out)[1], "noshfsize")
    message = steps["host_info"]["message"]
    assert steps["host_info"]["status"] == "error", steps["host_info"]
    assert f"limits a file its processes write to {20 * 1024} bytes (ulimit -f)" in message, message
    assert not list((fresh.home / ".cache" / "spec-debug").glob("*.part-*"))
