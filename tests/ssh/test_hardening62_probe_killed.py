"""A probe killed on its host (the out-of-memory killer while a checkpoint loads, a SIGBUS from a
checkpoint rewritten under its mmap) says which signal ended it.

A killed probe prints no JSON, and the step said "probe host_info printed no JSON (exit code
137): " and the last line of its stderr (bash's "Killed", or nothing under another login shell):
the number alone, where a command step's failure says "128 + 9: killed by SIGKILL: the
out-of-memory killer, or kill -9" (attempt.exit_words). The probe's now says it too.

The host is real: the playbook's python is a script on it that is killed by the signal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.sshd_fixture import ClientSetup, SshServer


@pytest.mark.parametrize(("kill", "said"), [
    ("KILL", "exit code 137 (128 + 9: killed by SIGKILL: the out-of-memory killer, or kill -9)"),
    ("BUS", "exit code 135 (128 + 7: killed by SIGBUS: a crash (bad memory access))"),
])
def test_a_killed_probe_names_the_signal(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path, kill: str, said: str
) -> None:
    step = probe_step_with_python(cli, client, tmp_path, f"kill -{kill} $$\n")
    assert step["status"] == "error", step
    # Then the last line of its stderr: bash's own report of the kill ("Killed", "Bus error"), if any.
    assert step["message"].startswith(f"probe host_info printed no JSON ({said}): "), step["message"]


def probe_step_with_python(cli: Callable[..., Any], client: ClientSetup, tmp_path: Path, script: str) -> dict:
    """The host_info probe's step record, run on the real host with a python that is the shell
    ``script``."""
    python = tmp_path / "python3"
    python.write_text(f"#!/bin/sh\n{script}")
    python.chmod(0o755)
    playbook = tmp_path / "look.yaml"
    playbook.write_text(f"name: look\nsteps:\n  - id: host_info\n    probe: host_info\n    with:\n      python: {python}\n")
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "target", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    return by_id(load_run(out)[1], "target")["host_info"]
