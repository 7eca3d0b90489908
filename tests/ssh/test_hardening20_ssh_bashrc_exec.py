"""A ~/.bashrc that `exec`s another shell: the steps run, or none passes having run nothing.

Where `chsh` is not allowed (LDAP accounts on clusters), people end ~/.bashrc with `exec` into
the shell they prefer. Debian's bash reads ~/.bashrc for the commands sshd runs (SSH_SOURCE_BASHRC,
while SHLVL is below 2: bash: shell.c, run_startup_files), so `ssh HOST CMD` never runs CMD
there, and spec-debug's first command saw that and went through `exec /bin/sh -s` (the way for
non-POSIX login shells), which the exec'd shell then read from stdin. But bash's `exec` lowers
SHLVL first, and sh, dash and ksh keep none: the new bash that runs each step read ~/.bashrc
again, became a shell reading /dev/null, and exited 0. Every step passed with no output: a
probe "printed no JSON", a check that grepped for an error found none.

The host is real: Debian's bash and sshd, in a private mount namespace where /root, this user's
home there, holds a ~/.bashrc ending in `exec /bin/dash`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.ssh.test_hardening19_runtime_full_tmp import namespaced_sshd
from tests.ssh.test_hardening19_runtime_login_dir import start_debian_login  # noqa: F401 - a fixture
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = """
name: gpu_state
steps:
  - id: driver
    run: |
      echo "NVRM version: 550.54.15"; echo "shell: $0"
  - id: host_info
    probe: host_info
  - id: no_xid
    run: "! grep -q Xid xid.log"
"""


def test_steps_run_where_bashrc_execs_a_shell_that_keeps_no_shlvl(
    cli: Callable[..., Any], client: ClientSetup, start_debian_login: Callable[[str], SshServer], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if os.getuid() != 0 or not Path("/root").is_dir() or not Path("/bin/dash").exists():
        pytest.skip("the test gives root's home a private copy, and needs dash")
    home = tmp_path / "remote-home"
    home.mkdir()
    (home / ".bashrc").write_text("export PATH=$PATH:/opt/cuda/bin\n# no chsh on this cluster: my shell\nexec /bin/dash\n")
    (home / "xid.log").write_text("[ 1234.5] NVRM: Xid (PCI:0000:18:00): 79, GPU has fallen off the bus.\n")
    server = namespaced_sshd("execrc", start_debian_login, tmp_path, monkeypatch, f"mount --bind {home} /root")
    client.trust(server)
    client.alias("gpu11", server)
    playbook = tmp_path / "gpu_state.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu11", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    _, record = load_run(out)
    steps = by_id(record, "gpu11")
    assert steps["driver"]["stdout"] == "NVRM version: 550.54.15\nshell: bash\n", steps["driver"]
    assert steps["host_info"]["status"] == "passed", steps["host_info"]["message"]
    assert steps["no_xid"]["status"] == "failed", steps["no_xid"]  # the Xid is there: the grep ran
