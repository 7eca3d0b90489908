"""What a file size limit below the probe bundle leaves on the host.

A host whose logins have a file size limit (`ulimit -f`, pam_limits' fsize) ends the SFTP
server with SIGXFSZ in the middle of the bundle's upload (setrlimit(2)). The upload writes a
`.part-XXXXXXXX` name beside the bundle and renames it once complete; its clean-up went over
the SFTP channel the kernel had just closed, so the part (the limit's worth of bytes) stayed in
~/.cache/spec-debug, one more each run, on a host whose home quota is often small too.

The host is real: sshd started under `ulimit -f 20` in a private mount namespace whose ~/.cache
is a fresh tmpfs (tests/ssh/test_hardening62_ssh_file_size_limit.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.test_fleet_faults import by_id
from tests.ssh.test_hardening62_ssh_file_size_limit import _limited_host, _run
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = """
name: leftovers
vars:
  python: python3
steps:
  - id: host_info
    probe: host_info
    with:
      python: "{{ python }}"
  - id: cache
    run: ls -A ~/.cache/spec-debug
"""


def test_the_cut_upload_leaves_no_part_file_on_the_host(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _limited_host("20", "h62leftover", client, sshd_factory, tmp_path, monkeypatch)
    steps = by_id(_run(cli, client, tmp_path, PLAYBOOK)[1], "gpu09")
    assert steps["host_info"]["status"] == "error", steps["host_info"]
    assert "(ulimit -f)" in steps["host_info"]["message"], steps["host_info"]["message"]
    assert steps["cache"]["status"] == "passed", steps["cache"]
    assert ".part-" not in steps["cache"]["stdout"], steps["cache"]["stdout"]
