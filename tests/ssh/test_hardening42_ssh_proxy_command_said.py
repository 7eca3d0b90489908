"""A ProxyCommand that ends after printing why on stdout is reported with what it printed.

A bastion reached through `ProxyCommand ssh bastion nc %h %p` whose sshd forces a command that
refuses (`ForceCommand echo 'This bastion allows ProxyJump (-J) only'`), or an HTTP proxy's
refusal, says why on stdout only, where the SSH banner belongs, and exits. paramiko writes our
version line before it reads the banner; to the ended command that write fails, and the text
stayed in the pipe: the host's error said only "ProxyCommand ... exited with code 1".

Real sshd as the bastion, real ssh(1) as the ProxyCommand.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.sshd_fixture import ClientSetup, SshServer

SSH = shutil.which("ssh")
_REFUSAL = "This bastion allows ProxyJump (-J) only"


@pytest.mark.skipif(SSH is None, reason="needs OpenSSH's ssh(1) for the ProxyCommand")
def test_what_an_ended_proxy_command_printed_is_in_the_hosts_error(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    bastion = sshd_factory("forced-bastion", extra_config=f"ForceCommand echo '{_REFUSAL}'; exit 1\n")
    client.trust(bastion)
    client.alias("bastion", bastion)
    proxy = f"{SSH} -F {client.config} -o BatchMode=yes bastion nc %h %p"
    client.alias("gpu01", sshd, ProxyCommand=proxy, HostKeyAlias=sshd.known_hosts_name)
    playbook = tmp_path / "t.yaml"
    playbook.write_text("name: t\nsteps:\n  - id: hello\n    run: echo hello\n")
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "target", "--host", "gpu01", "-F", str(client.config), "--batch",
                 "--out", str(out), timeout=120)
    assert_clean_cli(result)
    assert result.code == 3, result.stdout + result.stderr
    _, record = load_run(out)
    errors = {h["name"]: h["error"] for h in record["hosts"]}
    assert errors["target"] is None and by_id(record, "target")["hello"]["status"] == "passed"
    error = errors["gpu01"]
    # 1 (the forced command's) or 255 (ssh(1)'s, as its write of our version line meets the end)
    assert error.startswith(f"gpu01: ProxyCommand {proxy.replace('%h', sshd.address).replace('%p', str(sshd.port))!r} exited with code "), error
    assert error.endswith(f"; it printed {_REFUSAL!r} instead of an SSH banner"), error
    assert "\n" not in error
