"""`ProxyCommand ssh -W %h:%p -q bastion`, as Ansible's docs write it for
ansible_ssh_common_args: when the bastion refuses the login, -q keeps ssh(1) from saying so,
it exits 255 with nothing on stderr, and we said "exited with code 255" and "run the
ProxyCommand by hand to see why", which, run as written, says nothing either. The hint names
the command without -q, and run by hand, that one says why."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer, keygen


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH client not installed")
def test_a_quiet_proxy_command_that_fails_is_named_without_its_q(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    with SshServer(tmp_path / "bastion", [ClientKey(keygen(tmp_path / "someone_else"))]) as bastion:
        client.trust(bastion)
        client.alias("bastion", bastion)
        client.alias("gpu01", sshd, ProxyCommand=f"ssh -F {client.config} -W %h:%p -q bastion")
        done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
        assert done.code == 3, done.stdout + done.stderr
        assert "exited with code 255" in record["hosts"][0]["error"], record["hosts"][0]["error"]
        hint = re.search(r"run it by hand without -q: `([^`]+)`", done.stderr)
        assert hint is not None, done.stderr
        command = shlex.split(hint.group(1))
        assert "-q" not in command, command
        said = subprocess.run(command, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, check=False)
        assert said.returncode == 255 and "Permission denied" in said.stderr, said.stderr
