"""A ~/.bashrc that ends in `exec fish`: the host's hint names an `exec` in the startup file.

Where chsh is not allowed, people end ~/.bashrc with `exec fish`. Debian's bash reads ~/.bashrc
for ssh commands, so the command is dropped and fish reads the connection's stdin: empty, exit 0,
no output (and through `exec /bin/sh -s` fish reads the whole wrapper as fish code). The hint
listed nologin, a forced command, or an `exit` in the startup file: the user looked for an
`exit` that was not there.

The host is real: Debian's bash, fish and sshd, in a private mount namespace where /root, this
user's home there, holds the ~/.bashrc.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.test_fleet_faults import assert_clean_cli, load_run
from tests.ssh.test_hardening19_runtime_full_tmp import namespaced_sshd
from tests.ssh.test_hardening19_runtime_login_dir import start_debian_login  # noqa: F401 - a fixture
from tests.sshd_fixture import ClientSetup, SshServer


def test_a_bashrc_that_execs_fish_is_named_in_the_hosts_hint(
    cli: Callable[..., Any], client: ClientSetup, start_debian_login: Callable[[str], SshServer], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if os.getuid() != 0 or not Path("/root").is_dir() or shutil.which("fish") is None:
        pytest.skip("the test gives root's home a private copy, and needs fish")
    home = tmp_path / "remote-home"
    home.mkdir()
    (home / ".bashrc").write_text("# no chsh on this cluster\nexec fish\n")
    server = namespaced_sshd("execfish", start_debian_login, tmp_path, monkeypatch, f"mount --bind {home} /root")
    client.trust(server)
    client.alias("gpu68", server)
    playbook = tmp_path / "driver.yaml"
    playbook.write_text("name: driver\nsteps:\n  - id: driver\n    run: nvidia-smi\n")
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu68", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    _, record = load_run(out)
    host = record["hosts"][0]
    assert host["error"] == "gpu68: the login shell did not run the command (exit code 0, no output)", host
    assert "(an `exit`, or an `exec fish` into another shell, in ~/.bashrc, /etc/bash.bashrc or ~/.zshenv" in host["hint"], host
    assert record["steps"] == [], record["steps"]
