"""`--host GPUBOX` where the config has `Host gpubox`: ssh(1) matches Host patterns against the
name as typed, case-sensitively (openssh-portable readconf.c, oHost: match_pattern), and then
looks the name up in lower case (ssh.c, main: lowercase(host)). Recorded with OpenSSH_9.2p1:
`ssh -G -F FILE GPU01` over `Host gpu01 / HostName 127.0.0.5 / Port 2222` prints
`hostname gpu01` and `port 22`. spec-debug resolves it the same way, and the failure said only
"check the name, or its HostName in your ssh config", where the config has the block, written
for the name in lower case: the hint says so. Real sshd."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import HostUnreachableError
from tests.sshd_fixture import ClientSetup, SshServer

_ALIAS = "gpubox-h72case.invalid"  # .invalid never resolves (RFC 6761)
_TYPED = "GPUBOX-H72Case.invalid"
_CHECK = "check the name, or its HostName in your ssh config"


def _ssh_g(client: ClientSetup, name: str) -> dict[str, str]:
    done = subprocess.run(["ssh", "-F", str(client.config), "-G", name], capture_output=True, text=True, timeout=30, check=True)
    return dict(line.split(" ", 1) for line in done.stdout.splitlines() if " " in line)


def test_a_host_block_in_another_case_is_named(client: ClientSetup, sshd: SshServer) -> None:
    client.alias(_ALIAS, sshd)
    if shutil.which("ssh"):  # what ssh(1) makes of the name as typed: not the block's
        said = _ssh_g(client, _TYPED)
        assert (said["hostname"], said["port"]) == (_ALIAS, "22"), said
    with pytest.raises(HostUnreachableError) as info:
        SSHTransport.connect(_TYPED, client.options())
    assert info.value.message.startswith(f"{_TYPED}: cannot resolve host name '{_ALIAS}' ("), info.value.message
    assert info.value.hint == (
        f"your ssh config's `Host {_ALIAS}` is for {_ALIAS}, not {_TYPED}: ssh(1) matches Host patterns against the name "
        f"as typed, case-sensitively (`ssh -G {_TYPED}` shows the same), then looks up the name in lower case; "
        f"name the host {_ALIAS}; or {_CHECK}")


def test_a_wildcard_block_in_another_case_is_named(client: ClientSetup, sshd: SshServer) -> None:
    client.alias("gpubox-h72w*", sshd)
    with pytest.raises(HostUnreachableError) as info:
        SSHTransport.connect("GPUBOX-H72W1.invalid", client.options())
    assert info.value.hint.startswith("your ssh config's `Host gpubox-h72w*` is for gpubox-h72w1.invalid, not "
                                      "GPUBOX-H72W1.invalid: "), info.value.hint


@pytest.mark.parametrize("block", ["nothing-like-it.invalid", "GPUBOX-H72Other.invalid"])
def test_no_note_without_a_block_for_the_lower_case_name(client: ClientSetup, sshd: SshServer, block: str) -> None:
    client.alias(block, sshd)
    with pytest.raises(HostUnreachableError) as info:
        SSHTransport.connect(_TYPED, client.options())
    assert info.value.hint == _CHECK


def test_the_name_as_written_in_the_block_still_connects(client: ClientSetup, sshd: SshServer) -> None:
    client.alias("GPUBOX-H72Upper", sshd)
    with SSHTransport.connect("GPUBOX-H72Upper", client.options()) as transport:
        assert transport.exists("/")
