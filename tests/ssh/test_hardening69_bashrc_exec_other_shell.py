"""A ~/.bashrc that `exec`s a shell spec-debug cannot name (or that just `exit`s): the host's hint
does not name fish.

Debian's bash reads ~/.bashrc for ssh commands; one that ends in `exec elvish`, `exec xonsh` (or
nushell's `exec nu`), or in a plain `exit`, drops the command: exit 0, no output, and the host is
refused. The hint said "an `exit`, or an `exec fish` into another shell", whatever the shell was:
the user went looking for a fish that is not there. Now it names the shell where its error at our
wrapper tells it (elvish: "Multiple parse errors in", xonsh: a Python "SyntaxError: ('code: 1',)"),
else says "an `exec` into a shell that is not POSIX sh".

The host is real: Debian's bash, the shell and sshd, in a private mount namespace where /root,
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

_STARTUP = "in ~/.bashrc, /etc/bash.bashrc or ~/.zshenv"


@pytest.mark.parametrize(("last_line", "needs", "printed", "named"), [
    # elvish prints its prompt at the first try's empty stdin
    ("exec elvish", "elvish", "it printed '/root>'", "(an `exit`, or an `exec elvish` into another shell, " + _STARTUP),
    ("exec xonsh", "xonsh", "no output", "(an `exit`, or an `exec xonsh` into another shell, " + _STARTUP),
    ("exit", "bash", "no output", "(an `exit`, or an `exec` into a shell that is not POSIX sh, " + _STARTUP),
])
def test_a_bashrc_that_ends_the_command_names_no_shell_it_did_not_see(
    cli: Callable[..., Any], client: ClientSetup, start_debian_login: Callable[[str], SshServer], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, last_line: str, needs: str, printed: str, named: str,
) -> None:
    if os.getuid() != 0 or not Path("/root").is_dir() or shutil.which(needs) is None:
        pytest.skip(f"the test gives root's home a private copy, and needs {needs}")
    home = tmp_path / "remote-home"
    home.mkdir()
    (home / ".bashrc").write_text(f"# no chsh on this cluster\n{last_line}\n")
    server = namespaced_sshd(f"end{needs}", start_debian_login, tmp_path, monkeypatch, f"mount --bind {home} /root")
    client.trust(server)
    client.alias("gpu69", server)
    playbook = tmp_path / "driver.yaml"
    playbook.write_text("name: driver\nsteps:\n  - id: driver\n    run: nvidia-smi\n")
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu69", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    _, record = load_run(out)
    host = record["hosts"][0]
    assert host["error"] == f"gpu69: the login shell did not run the command (exit code 0, {printed})", host
    assert named in host["hint"], host
    assert "fish" not in host["hint"], host
    assert record["steps"] == [], record["steps"]
    assert result.code == 3, result.stderr[-1500:]
