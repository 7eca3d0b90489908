"""A ~/.bashrc that ends in `exec zsh`: the steps run, the host is not refused.

Where `chsh` is not allowed (LDAP accounts on clusters), people end ~/.bashrc with `exec zsh`.
Debian's bash reads ~/.bashrc for the command sshd runs (while SHLVL is below 2), so the command
is lost, and spec-debug goes through `exec /bin/sh -s`, whose wrapper the exec'd zsh then reads
from stdin. The wrapper then starts bash for the step, but zsh's `exec` lowers SHLVL first, as
bash's does (zsh's SHLVL was 1): the new bash read ~/.bashrc again, became a zsh reading
/dev/null and exited 0. The host failed "the login shell did not run the command (exit code 0,
no output)" with a hint about nologin and forced commands, though `ssh HOST` works there.

The host is real: Debian's bash, zsh and sshd, in a private mount namespace where /root, this
user's home there, holds the ~/.bashrc.
"""

from __future__ import annotations

import os
import shutil
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


@pytest.mark.parametrize("bashrc", [
    "export PATH=$PATH:/opt/cuda/bin\n# no chsh on this cluster: my shell\nexec zsh\n",
    "[ -x /usr/bin/zsh ] && exec /usr/bin/zsh -l\n",
], ids=["exec_zsh", "exec_zsh_login"])
def test_steps_run_where_bashrc_execs_zsh(
    cli: Callable[..., Any], client: ClientSetup, start_debian_login: Callable[[str], SshServer], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, bashrc: str,
) -> None:
    if os.getuid() != 0 or not Path("/root").is_dir() or shutil.which("zsh") is None:
        pytest.skip("the test gives root's home a private copy, and needs zsh")
    home = tmp_path / "remote-home"
    home.mkdir()
    (home / ".bashrc").write_text(bashrc)
    (home / "xid.log").write_text("[ 1234.5] NVRM: Xid (PCI:0000:18:00): 79, GPU has fallen off the bus.\n")
    server = namespaced_sshd("execzsh", start_debian_login, tmp_path, monkeypatch, f"mount --bind {home} /root")
    client.trust(server)
    client.alias("gpu68", server)
    playbook = tmp_path / "gpu_state.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu68", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    _, record = load_run(out)
    assert record["hosts"][0]["status"] != "error", record["hosts"][0]
    steps = by_id(record, "gpu68")
    assert steps["driver"]["stdout"] == "NVRM version: 550.54.15\nshell: bash\n", steps["driver"]
    assert steps["host_info"]["status"] == "passed", steps["host_info"]["message"]
    assert steps["no_xid"]["status"] == "failed", steps["no_xid"]  # the Xid is there: the grep ran
