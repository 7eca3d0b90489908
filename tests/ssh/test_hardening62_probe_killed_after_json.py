"""A probe that printed its JSON and was then killed (the out-of-memory killer while it frees a
checkpoint, a SIGBUS from a file cut under its mmap during teardown) says which signal ended it.

Its step said "probe host_info exited with code 137", the number alone, where a probe killed
before its JSON says "printed no JSON (exit code 137 (128 + 9: killed by SIGKILL: ...))" and a
command step's failure names the signal too (attempt.exit_words). A plain non-zero exit after
the JSON still says its code, and that the JSON was printed.

The host is real: the playbook's python is a script on it that prints JSON, then ends.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.test_hardening62_probe_killed import probe_step_with_python
from tests.sshd_fixture import ClientSetup, SshServer


@pytest.mark.parametrize(("ending", "said"), [
    ("kill -KILL $$", "exit code 137 (128 + 9: killed by SIGKILL: the out-of-memory killer, or kill -9)"),
    ("kill -BUS $$", "exit code 135 (128 + 7: killed by SIGBUS: a crash (bad memory access))"),
    ("exit 3", "exit code 3"),
])
def test_a_probe_ended_after_its_json_names_how(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path, ending: str, said: str
) -> None:
    step = probe_step_with_python(cli, client, tmp_path, f"echo '{{\"hostname\": \"gpu01\"}}'\n{ending}\n")
    assert step["status"] == "error", step
    assert step["message"] == f"probe host_info printed its JSON, then ended with {said}", step["message"]
