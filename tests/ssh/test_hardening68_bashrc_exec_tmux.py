"""A ~/.bashrc that starts tmux for every shell: the host's error names tmux, not nologin.

People end ~/.bashrc with `exec tmux new -A -s main` to land in tmux at each login. Debian's bash
reads ~/.bashrc for the commands sshd runs too, and tmux, with no terminal (spec-debug asks for
no pty), prints "open terminal failed: not a terminal" and exits 1 in place of the command. The
host failed "the login shell did not run the command" with a hint that the account's shell is
nologin or a forced command runs: the account was fine, its startup file was not.

The host is real: Debian's bash, tmux and sshd, in a private mount namespace where /root, this
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


def test_a_bashrc_that_execs_tmux_is_named_in_the_hosts_error(
    cli: Callable[..., Any], client: ClientSetup, start_debian_login: Callable[[str], SshServer], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if os.getuid() != 0 or not Path("/root").is_dir() or shutil.which("tmux") is None:
        pytest.skip("the test gives root's home a private copy, and needs tmux")
    home = tmp_path / "remote-home"
    home.mkdir()
    (home / ".bashrc").write_text("export PATH=$PATH:/opt/cuda/bin\nexec tmux new -A -s main\n")
    server = namespaced_sshd("exectmux", start_debian_login, tmp_path, monkeypatch, f"mount --bind {home} /root")
    client.trust(server)
    client.alias("gpu68", server)
    playbook = tmp_path / "driver.yaml"
    playbook.write_text("name: driver\nsteps:\n  - id: driver\n    run: nvidia-smi\n")
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu68", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    _, record = load_run(out)
    host = record["hosts"][0]
    assert host["error"] == (
        "gpu68: the login shell did not run the command: the account's startup file starts tmux, which needs a terminal, "
        "in place of the command (exit code 1, it printed 'open terminal failed: not a terminal')"
    ), host
    assert host["hint"].startswith("start tmux only in interactive shells: "), host
    assert "nologin" not in host["hint"], host
    assert record["steps"] == [], record["steps"]
