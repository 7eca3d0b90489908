"""`run --step` and a probe step whose bundle upload fails.

The bundle is uploaded while the probe's command is made, before the step-through prompt (the
command names the bundle's path on the host). A failed upload (here: the host's file size limit
kills the SFTP server mid-copy) errored the step there: the user stepping through got no "→"
line for it, as for every other step that could not run, and the next prompt was the next step's.
The step now ends with its "→ host_info could not run ..." line, saying why.

The host is real: sshd under `ulimit -f 20` with a fresh tmpfs ~/.cache (test_hardening62_ssh_file_size_limit).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from tests.ssh.test_fleet_faults import PROBE_PLAYBOOK, load_run
from tests.ssh.test_hardening62_ssh_file_size_limit import _limited_host
from tests.sshd_fixture import ClientSetup, SshServer


def test_a_probe_whose_upload_fails_gets_its_own_line(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _limited_host("20", "h62stepupload", client, sshd_factory, tmp_path, monkeypatch)
    playbook = tmp_path / "first_look.yaml"
    playbook.write_text(PROBE_PLAYBOOK)
    out = tmp_path / "runs"
    result = subprocess.run([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "gpu09", "-F", str(client.config),
                             "--step", "--out", str(out)], input="r\nr\nr\nr\n", capture_output=True, text=True, timeout=90,
                            env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1", "TERM": "dumb"})
    said = result.stdout + result.stderr
    assert "Traceback" not in said, said
    step = next(s for s in load_run(out)[1]["steps"] if s["id"] == "host_info")
    assert step["status"] == "error", json.dumps(step)
    lines = [line for line in said.splitlines() if line.startswith("→ host_info ")]
    assert lines == [f"→ host_info could not run {step['message'].splitlines()[0]}"], said
    # The steps after it are still stepped through, each with its own line.
    assert "→ shell passed" in said, said
