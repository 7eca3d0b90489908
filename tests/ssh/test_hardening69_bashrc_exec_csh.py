"""A ~/.bashrc that ends in `exec tcsh` (or csh): the host's hint names that exec, not fish.

Where chsh is not allowed, people end ~/.bashrc with `exec tcsh`. Debian's bash reads ~/.bashrc
for ssh commands, so the command is dropped and tcsh reads the connection's empty stdin: exit 0,
no output, and the host is refused. Through `exec /bin/sh -s` tcsh reads our POSIX wrapper and
says "Bad : modifier in $ '-'.": the check saw tcsh, and the hint still said "an `exec fish`",
sending the user to look for a fish that is not there.

The host is real: Debian's bash, tcsh, csh and sshd, in a private mount namespace where /root,
this user's home there, holds the ~/.bashrc.
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


@pytest.mark.parametrize("shell", ["tcsh", "csh"])
def test_a_bashrc_that_execs_a_c_shell_is_named_in_the_hosts_hint(
    cli: Callable[..., Any], client: ClientSetup, start_debian_login: Callable[[str], SshServer], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, shell: str,
) -> None:
    if os.getuid() != 0 or not Path("/root").is_dir() or shutil.which(shell) is None:
        pytest.skip(f"the test gives root's home a private copy, and needs {shell}")
    home = tmp_path / "remote-home"
    home.mkdir()
    (home / ".bashrc").write_text(f"# no chsh on this cluster\nexec {shell}\n")
    server = namespaced_sshd(f"exec{shell}", start_debian_login, tmp_path, monkeypatch, f"mount --bind {home} /root")
    client.trust(server)
    client.alias("gpu69", server)
    playbook = tmp_path / "driver.yaml"
    playbook.write_text("name: driver\nsteps:\n  - id: driver\n    run: nvidia-smi\n")
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu69", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    _, record = load_run(out)
    host = record["hosts"][0]
    assert host["error"] == "gpu69: the login shell did not run the command (exit code 0, no output)", host
    assert "(an `exit`, or an `exec tcsh` or `exec csh` into another shell, in ~/.bashrc, /etc/bash.bashrc or ~/.zshenv" \
        in host["hint"], host
    assert "fish" not in host["hint"], host
    assert record["steps"] == [], record["steps"]
    assert result.code == 3, result.stderr[-1500:]
