"""A fetch of a file literally named `-` copies the file, not the copy's empty standard input.

`python bench.py > -` (meant for stdout) or a script's `wget -O -` with the wrong quoting leaves
a file named `-` where the commands ran. The copy script (copy_script.GET_SCRIPT: the local
fetch's, and the SSH fetch's where sshd has no SFTP) ran `cat -- "$1"`, and cat reads standard
input for an operand of `-` even after `--` (POSIX cat): the fetch kept an empty artifact and
passed. With a limit, GNU stat read stdin's size too.

Real files, and a real sh and cat, on this machine (--host local). Over SSH the path reaches
the script made absolute under where the commands start (ssh_sftp.sftp_path), `/home/x/-`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run

LOG = "[2026-11-30 03:12:09] NVRM: Xid (PCI:0000:18:00): 79, GPU has fallen off the bus.\n"


def playbook(tmp_path: Path, src: str) -> Path:
    path = tmp_path / "grab.yaml"
    path.write_text(
        f"""
name: grab
steps:
  - id: whole
    fetch: {{src: "{src}", dest: whole}}
  - id: limited
    artifact_limit: 1M
    fetch: {{src: "{src}", dest: limited}}
"""
    )
    return path


@pytest.mark.parametrize("limit", ["whole", "limited"])
def test_a_local_fetch_of_a_file_named_dash_copies_it(cli: Callable[..., Any], tmp_path: Path, limit: str) -> None:
    (tmp_path / "-").write_text(LOG)
    out = tmp_path / "runs"
    result = cli("run", str(playbook(tmp_path, "-")), "--host", "local", "--out", str(out), cwd=tmp_path, timeout=60)
    assert_clean_cli(result)
    run_dir, record = load_run(out)
    step = by_id(record, "local")[limit]
    assert step["status"] == "passed", step["message"]
    assert (run_dir / "artifacts" / "local" / limit / "-").read_text() == LOG

