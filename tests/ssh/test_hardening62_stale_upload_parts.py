"""Parts of bundle uploads cut by a dropped connection, left in ~/.cache/spec-debug.

The upload writes `bundle-<hash>.pyz.part-XXXXXXXX` and renames it once complete; a connection
that drops under it (a network cut, an sshd restart) leaves the part, and nothing could remove
it: one more each time, on hosts whose home quota is often small. The bundle check of a later
run removes parts not written to for an hour (an upload in progress writes to its part all the
time, so another run's copy is never touched); other files of the folder stay.

The host is real: sshd in a private mount namespace whose ~/.cache is a fresh tmpfs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.test_fleet_faults import by_id
from tests.ssh.test_hardening62_ssh_file_size_limit import _limited_host, _run
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = """
name: parts
vars:
  python: python3
steps:
  - id: leave
    run: >-
      mkdir -p ~/.cache/spec-debug && cd ~/.cache/spec-debug
      && touch -d '2 hours ago' bundle-0123456789abcdef.pyz.part-0a1b2c3d notes.part-0a1b2c3d
      && touch -d '20 minutes ago' bundle-0123456789abcdef.pyz.part-4e5f6a7b
  - id: host_info
    probe: host_info
    with:
      python: "{{ python }}"
  - id: cache
    run: ls -A ~/.cache/spec-debug
"""


def test_a_later_run_removes_only_stale_upload_parts(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _limited_host("1000000", "h62parts", client, sshd_factory, tmp_path, monkeypatch)
    steps = by_id(_run(cli, client, tmp_path, PLAYBOOK)[1], "gpu09")
    assert steps["host_info"]["status"] == "passed", steps["host_info"]
    left = sorted(steps["cache"]["stdout"].split())
    assert [name for name in left if ".part-" in name] == [
        "bundle-0123456789abcdef.pyz.part-4e5f6a7b", "notes.part-0a1b2c3d",
    ], left
    assert any(name.startswith("bundle-") and name.endswith(".pyz") for name in left), left
