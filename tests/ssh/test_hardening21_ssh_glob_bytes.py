"""Fetch patterns that match a file whose name is not UTF-8, over a real sshd.

A file name is bytes on Linux: one written by a latin-1 tool or a Windows share's converter
(`gen_\\xe9t\\xe9.log`) is valid on the host and no UTF-8. The listing was decoded with U+FFFD for
those bytes, so the copy asked for a name the host does not have: "No such file", and the file
was never fetched. The name now goes back to the host as the bytes it listed, and the record
and the artifact say each such byte as %XX.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h8_helpers import SftpLineServer
from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.sshd_fixture import ClientKey, ClientSetup

LATIN1_NAME = b"gen_\xe9t\xe9.log"

PLAYBOOK = """
name: logs
steps:
  - id: grab
    fetch:
      src: {folder}/*.log
      dest: logs
{limit}
  - id: after
    run: echo after
"""


def logs_folder(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "ok.log").write_text("ok\n")
    with open(os.fsencode(root) + b"/" + LATIN1_NAME, "wb") as handle:
        handle.write(b"written by a latin-1 tool\n")
    return root


def fetch_logs(cli: Callable[..., Any], client: ClientSetup, tmp_path: Path, host: str, folder: Path, limit: str = "") -> tuple[Any, Path, dict[str, Any]]:
    playbook = tmp_path / "logs.yaml"
    playbook.write_text(PLAYBOOK.format(folder=folder, limit=limit))
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", host, "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    run_dir, record = load_run(out)
    return result, run_dir, record


def test_a_file_whose_name_is_not_utf8_is_fetched_over_sftp(cli: Callable[..., Any], client: ClientSetup, tmp_path: Path) -> None:
    folder = logs_folder(tmp_path / "remote")
    _, run_dir, record = fetch_logs(cli, client, tmp_path, "target", folder)
    grab = by_id(record, "target")["grab"]
    assert grab["status"] == "passed", grab["message"]
    assert sorted(grab["facts"]["fetched"]) == ["artifacts/target/logs/gen_%E9t%E9.log", "artifacts/target/logs/ok.log"]
    assert (run_dir / "artifacts/target/logs/gen_%E9t%E9.log").read_text() == "written by a latin-1 tool\n"


def test_a_file_whose_name_is_not_utf8_is_fetched_where_the_host_has_no_sftp(
    cli: Callable[..., Any], client: ClientSetup, client_key: ClientKey, tmp_path: Path
) -> None:
    """sshd without a `Subsystem sftp` line: the copy goes over a plain command (ssh_sftp._ShellCopies)."""
    with SftpLineServer(tmp_path / "sshd-nosftp", [client_key]) as server:
        client.trust(server)
        client.alias("nosftp", server)
        folder = logs_folder(tmp_path / "remote")
        _, run_dir, record = fetch_logs(cli, client, tmp_path, "nosftp", folder)
    grab = by_id(record, "nosftp")["grab"]
    assert grab["status"] == "passed", grab["message"]
    assert (run_dir / "artifacts/nosftp/logs/gen_%E9t%E9.log").read_text() == "written by a latin-1 tool\n"


def test_a_name_that_is_not_utf8_in_a_refusal_is_said_with_percent_bytes(
    cli: Callable[..., Any], client: ClientSetup, tmp_path: Path
) -> None:
    """Over the step's byte limit: the host's name is in the message, the record and the terminal."""
    folder = logs_folder(tmp_path / "remote")
    (folder / "ok.log").unlink()
    result, _, record = fetch_logs(cli, client, tmp_path, "target", folder, limit="    artifact_limit: 4")
    grab = by_id(record, "target")["grab"]
    assert grab["status"] == "error"
    assert f"{folder}/gen_%E9t%E9.log: not copied" in grab["message"]
    assert grab["facts"]["fetch_skipped"][0]["src"] == f"{folder}/gen_%E9t%E9.log"
    assert "gen_%E9t%E9.log" in result.stderr
    assert by_id(record, "target")["after"]["status"] == "passed"
